/**
 * n8n's node context as this package reads it: parameters (per item, or one value where a poll has
 * no items), input items, credentials and the HTTP helpers. Read by the field tables and the
 * transport alike, so it belongs to neither.
 */
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
export type NodeContext = ItemsContext | ItemlessContext;

// n8n's execute context has input data; a poll's has none (and no item index to read at).
const hasItems = (ctx: NodeContext): ctx is ItemsContext =>
	typeof (ctx as Partial<ItemsContext>).getInputData === 'function';

/** A parameter's value for one item; where the context has no items, its one value. */
export function nodeParameter(
	ctx: NodeContext,
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
export const inputItems = (ctx: NodeContext): INodeExecutionData[] =>
	hasItems(ctx) ? ctx.getInputData() : [];
