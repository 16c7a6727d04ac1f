import type { IDataObject, INode } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { RequestSettings } from './settings';

/** What the operation says about its endpoint, for messages about a write whose fate is unknown. */
export interface WriteCheck {
	retrySafe: boolean;
	/** How a user finds out whether this write went through; see RequestSpec. */
	howToCheck?: string;
}

const CHECK_IN_DASHBOARD = 'check its result in the merchant dashboard';

export function howToCheck(spec: WriteCheck): string {
	return spec.howToCheck ?? CHECK_IN_DASHBOARD;
}

/** Said of a write that may have acted although no success came back; never retried. */
export function mayHaveActed(spec: WriteCheck): string {
	return `Repeating this request could act twice (move money or create a record again), so it was not retried automatically. It may have reached the service and been processed: ${howToCheck(spec)} before sending it again.`;
}

export interface RawResponse {
	httpStatus: number;
	headers: IDataObject;
	body: unknown;
}

export type Attempt =
	| { response: RawResponse }
	| { networkError: { code: string; message: string } }
	| { localError: Error };

export function parseBody(body: unknown): unknown {
	if (Buffer.isBuffer(body)) body = body.toString('utf8');
	if (typeof body !== 'string') return body;
	try {
		return JSON.parse(body);
	} catch {
		return body;
	}
}

/** What n8n's NodeApiError keeps of the request error it wraps. */
interface WrappedError {
	cause?: unknown;
	httpCode?: unknown;
	messages?: unknown;
	context?: { data?: unknown };
}

/**
 * The NodeApiError of n8n 1.123 to 2.20 loses its `cause` (a class field declared after `super`
 * resets it), so the request error is read back from what it keeps: `httpCode` (the HTTP status,
 * or the socket error's code), `context.data` (an object body) and `messages` (the error's text).
 */
function fromWrapper(error: WrappedError): Attempt | undefined {
	const code = typeof error.httpCode === 'string' ? error.httpCode : '';
	if (/^[1-5]\d\d$/.test(code)) {
		return { response: { httpStatus: Number(code), headers: {}, body: error.context?.data } };
	}
	if (!/^E[A-Z_]+$/.test(code) || code === 'ERR_CANCELED') return undefined;
	const [first] = Array.isArray(error.messages) ? error.messages : [];
	const message = typeof first === 'string' ? first : String((error as Error).message);
	return { networkError: { code, message } };
}

/** Reads the status and body out of what n8n's request helper threw, without its request config. */
export function fromThrown(error: unknown): Attempt {
	const wrapped = error as WrappedError;
	if (wrapped.cause === undefined && wrapped.httpCode !== undefined) {
		const read = fromWrapper(wrapped);
		if (read) return read;
	}
	const cause = wrapped.cause ?? error;
	const response = (
		cause as { response?: { status?: number; headers?: IDataObject; data?: unknown } }
	).response;
	if (response?.status) {
		return {
			response: {
				httpStatus: response.status,
				headers: response.headers ?? {},
				body: parseBody(response.data),
			},
		};
	}
	const code = (cause as { code?: unknown }).code;
	const message = String((cause as { message?: unknown }).message ?? 'Network error');
	// No response and no socket error code: something failed before sending (for example the
	// payout token request), or the execution was cancelled. Neither is worth a retry.
	if (typeof code !== 'string' || code === 'ERR_CANCELED') {
		return { localError: error instanceof Error ? error : new Error(message) };
	}
	return { networkError: { code, message } };
}

function isTimeout(code: string, message: string) {
	return code === 'ECONNABORTED' || code.includes('TIMEDOUT') || /timeout/i.test(message);
}

export function networkFailure(
	node: INode,
	itemIndex: number,
	error: { code: string; message: string },
	settings: RequestSettings,
	spec: WriteCheck,
): NodeApiError {
	const timedOut = isTimeout(error.code, error.message);
	const message = timedOut
		? `The service did not answer within ${settings.timeoutMs} ms`
		: `Could not reach the service (${error.code})`;
	const description = spec.retrySafe ? undefined : mayHaveActed(spec);
	const failure = new NodeApiError(
		node,
		{ socketError: error.code, message },
		{ message, description, itemIndex },
	);
	// NodeApiError swaps messages that mention socket codes for generic text; keep ours.
	failure.message = message;
	failure.context.serviceCode = error.code;
	return failure;
}
