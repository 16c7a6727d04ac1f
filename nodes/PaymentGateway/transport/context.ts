import type {
	ICredentialDataDecryptedObject,
	IGetNodeParameterOptions,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
} from 'n8n-workflow';

/** n8n's HTTP helpers as the transport calls them. */
export interface TransportHelpers {
	httpRequest(options: IHttpRequestOptions): Promise<unknown>;
	/** Called with the context as `this`: n8n reads the credential through it. */
	httpRequestWithAuthentication(
		this: unknown,
		credentialsType: string,
		options: IHttpRequestOptions,
	): Promise<unknown>;
}

interface ContextBase {
	getNode(): INode;
	getCredentials(type: string, itemIndex?: number): Promise<ICredentialDataDecryptedObject>;
	helpers: TransportHelpers;
	/** n8n's log, for what is said once per process (absent in some test contexts). */
	logger?: { warn(message: string): void };
}

/** A context with input items (the action node): a parameter may differ from item to item. */
export interface ItemsContext extends ContextBase {
	getInputData(): INodeExecutionData[];
	getNodeParameter(
		name: string,
		itemIndex: number,
		fallback?: unknown,
		options?: IGetNodeParameterOptions,
	): unknown;
}

/** A context without items (a poll): each parameter has one value. */
export interface ItemlessContext extends ContextBase {
	getNodeParameter(name: string, fallback?: unknown, options?: IGetNodeParameterOptions): unknown;
}

/**
 * What the transport and the field readers use of n8n's context: IExecuteFunctions and
 * IPollFunctions are both one, as they are.
 */
export type TransportContext = ItemsContext | ItemlessContext;

// n8n's execute context has input data; a poll's has none (and no item index to read at).
const hasItems = (ctx: TransportContext): ctx is ItemsContext =>
	typeof (ctx as Partial<ItemsContext>).getInputData === 'function';

/** A parameter's value for one item; where the context has no items, its one value. */
export function nodeParameter(
	ctx: TransportContext,
	name: string,
	itemIndex: number,
	fallback: unknown,
	options?: IGetNodeParameterOptions,
): unknown {
	return hasItems(ctx)
		? ctx.getNodeParameter(name, itemIndex, fallback, options)
		: ctx.getNodeParameter(name, fallback, options);
}

/** The input items of the run: none where the context has no items. */
export const inputItems = (ctx: TransportContext): INodeExecutionData[] =>
	hasItems(ctx) ? ctx.getInputData() : [];
