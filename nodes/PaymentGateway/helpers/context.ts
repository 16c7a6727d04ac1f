/**
 * n8n's node context as this package reads it: parameters (per item, or one value where a poll has
 * no items), input items, credentials and the HTTP helpers. Read by the field tables and the
 * transport alike, so it belongs to neither. The field tables read through resolveParameter, which
 * asks n8n only what it must.
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

/**
 * Parameter values for the field tables at the cost of a lookup where n8n's answer is known:
 * - a parameter without any expression has the same value for every item: read once per run;
 * - an expression that is only a reference to a field of the item (`{{ $json.amount }}`,
 *   `{{ $json["Amount"] }}`, what mapping by drag and drop writes) is that field's value, read
 *   directly when it is a plain value (text, number, boolean, null);
 * - anything else is evaluated by n8n, as getNodeParameter always does.
 */

/** `={{ $json.name }}` or `={{ $json["name"] }}` / `={{ $json['name'] }}`, nothing else. */
const JSON_REFERENCE =
	/^=\{\{\s*\$json(?:\.([A-Za-z_$][\w$]*)|\[\s*(?:"([^"\\]*)"|'([^'\\]*)')\s*\])\s*\}\}$/;

/** Names n8n treats specially (or refuses) in expressions: always left to n8n. */
const RESERVED = new Set(['constructor', '__proto__', 'prototype']);

type Plain = string | number | boolean | null;

const NOT_PLAIN = Symbol('not plain');

/** Per run (one execute context): parameters without expressions, resolved once. */
const constants = new WeakMap<object, Map<string, unknown>>();

/** The field a value refers to when it is exactly a $json reference, else undefined. */
function referencedKey(value: string): string | undefined {
	if (value.charCodeAt(0) !== 61 /* = */) return undefined;
	const match = JSON_REFERENCE.exec(value);
	const key = match && (match[1] ?? match[2] ?? match[3]);
	return key && !RESERVED.has(key) ? key : undefined;
}

/** True when some string inside the value is an expression (n8n: a string starting with "="). */
function hasExpression(value: unknown): boolean {
	if (typeof value === 'string') return value.charCodeAt(0) === 61;
	if (Array.isArray(value)) return value.some(hasExpression);
	if (typeof value === 'object' && value !== null) return Object.values(value).some(hasExpression);
	return false;
}

function isPlain(value: unknown): value is Plain {
	return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

/**
 * The value with every $json reference replaced by the item's field, or NOT_PLAIN when some string
 * is another expression or a referenced field is missing or not a plain value.
 */
function substitute(value: unknown, json: Record<string, unknown>): unknown {
	if (typeof value === 'string') {
		if (value.charCodeAt(0) !== 61) return value;
		const key = referencedKey(value);
		if (key === undefined || !Object.prototype.hasOwnProperty.call(json, key)) return NOT_PLAIN;
		const field = json[key];
		return isPlain(field) ? field : NOT_PLAIN;
	}
	if (Array.isArray(value)) {
		const out: unknown[] = [];
		for (const entry of value) {
			const resolved = substitute(entry, json);
			if (resolved === NOT_PLAIN) return NOT_PLAIN;
			out.push(resolved);
		}
		return out;
	}
	if (typeof value === 'object' && value !== null) {
		const out: Record<string, unknown> = {};
		for (const [key, entry] of Object.entries(value)) {
			const resolved = substitute(entry, json);
			if (resolved === NOT_PLAIN) return NOT_PLAIN;
			out[key] = resolved;
		}
		return out;
	}
	return value;
}

/** What `ctx.getNodeParameter(name, itemIndex, fallback)` gives, without evaluating what need not be. */
export function resolveParameter(
	ctx: NodeContext,
	name: string,
	itemIndex: number,
	fallback: unknown,
): unknown {
	let known = constants.get(ctx);
	if (known?.has(name)) return known.get(name);
	const raw = nodeParameter(ctx, name, itemIndex, fallback, { rawExpressions: true });
	if (!hasExpression(raw)) {
		if (!known) constants.set(ctx, (known = new Map()));
		known.set(name, raw);
		return raw;
	}
	const json = inputItems(ctx)[itemIndex]?.json;
	if (json) {
		const resolved = substitute(raw, json);
		if (resolved !== NOT_PLAIN) return resolved;
	}
	return nodeParameter(ctx, name, itemIndex, fallback);
}
