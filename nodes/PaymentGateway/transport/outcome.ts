import type { IDataObject, INode } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { RequestSettings } from './settings';

/** How to find out whether a write that got no clear answer went through, by request path. */
const CHECKS: Array<[string, string]> = [
	['/orders/v1/create', 'look the order up with Transaction > Get Many (by its Merchant Order ID or the date)'],
	['/orders/v1/transaction/documents', 'check the transaction\'s documents in the merchant dashboard'],
	['/orders/v1/transaction', 'look the payment up with Transaction > Get Many, with its transaction ID or order ID'],
	['/v1/bulk/payouts', 'check the batch by its Request ID in the merchant dashboard or wait for its callback; resend it only with the same Request ID'],
	['/payment-links/v1', 'check the payment links in the merchant dashboard'],
	['/subscriptions/v1', 'check the subscription plans in the merchant dashboard'],
	['/invoice/v1', 'look the item up with Invoice Item > Get Many'],
];

export function howToCheck(path: string): string {
	const found = CHECKS.find(([prefix]) => path.startsWith(prefix));
	return found ? found[1] : 'check its result in the merchant dashboard';
}

/** Said of a write that may have acted although no success came back; never retried. */
export function mayHaveActed(path: string): string {
	return `Repeating this request could act twice (move money or create a record again), so it was not retried automatically. It may have reached the service and been processed: ${howToCheck(path)} before sending it again.`;
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

/** Reads the status and body out of what n8n's request helper threw, without its request config. */
export function fromThrown(error: unknown): Attempt {
	const cause = (error as { cause?: unknown }).cause ?? error;
	const response = (cause as { response?: { status?: number; headers?: IDataObject; data?: unknown } })
		.response;
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
	spec: { retrySafe: boolean; path: string },
): NodeApiError {
	const timedOut = isTimeout(error.code, error.message);
	const message = timedOut
		? `The service did not answer within ${settings.timeoutMs} ms`
		: `Could not reach the service (${error.code})`;
	const description = spec.retrySafe ? undefined : mayHaveActed(spec.path);
	const failure = new NodeApiError(node, { socketError: error.code, message }, { message, description, itemIndex });
	// NodeApiError swaps messages that mention socket codes for generic text; keep ours.
	failure.message = message;
	failure.context.serviceCode = error.code;
	return failure;
}
