import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	INode,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';

import { joinUrl, unsafeUrlReason } from '../../../credentials/shared/url';
import type { ServiceFailure } from './errors';
import { isFailure, serviceError, toServiceFailure } from './errors';
import type { MultipartPart } from './multipart';
import { encodeMultipart } from './multipart';
import { gateOf } from './gate';

export type Channel =
	| 'hosted'
	| 'sdk'
	| 's2s'
	| 'paymentLink'
	| 'subscription'
	| 'invoice'
	| 'pos'
	| 'payout';

export const CREDENTIAL_TYPES: Record<Channel, string> = {
	hosted: 'paymentGatewayHostedApi',
	sdk: 'paymentGatewaySdkApi',
	s2s: 'paymentGatewayS2sApi',
	paymentLink: 'paymentGatewayPaymentLinkApi',
	subscription: 'paymentGatewaySubscriptionApi',
	invoice: 'paymentGatewayInvoiceApi',
	pos: 'paymentGatewayPosApi',
	payout: 'paymentGatewayPayoutApi',
};

export interface RequestSpec {
	channel: Channel;
	method: IHttpRequestMethods;
	path: string;
	qs?: IDataObject;
	body?: IDataObject;
	multipart?: MultipartPart[];
	/**
	 * True when sending the request again cannot move money twice: every read, and the writes the
	 * service refuses to repeat (an order carrying an m_order_id, a payout batch's request_id).
	 */
	retrySafe: boolean;
	/** Failure bodies that the operation turns into an outcome itself (e.g. a declined card). */
	acceptFailure?: (failure: ServiceFailure) => boolean;
	/** A clearer message or description for failures the operation knows in context. */
	explainFailure?: (failure: ServiceFailure) => { message?: string; description?: string } | undefined;
}

export interface RequestSettings {
	timeoutMs: number;
	maxRetries: number;
	maxRetryWaitSeconds: number;
}

export const DEFAULT_REQUEST_SETTINGS: RequestSettings = {
	timeoutMs: 30000,
	maxRetries: 3,
	maxRetryWaitSeconds: 60,
};

const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 30000;

export function getRequestSettings(ctx: IExecuteFunctions, itemIndex: number): RequestSettings {
	const options = ctx.getNodeParameter('requestOptions', itemIndex, {}) as Partial<RequestSettings>;
	const merged = { ...DEFAULT_REQUEST_SETTINGS, ...options };
	const clamp = (value: unknown, min: number, max: number, fallback: number) =>
		typeof value === 'number' && Number.isFinite(value) ? Math.min(max, Math.max(min, value)) : fallback;
	return {
		timeoutMs: clamp(merged.timeoutMs, 1, 600000, DEFAULT_REQUEST_SETTINGS.timeoutMs),
		maxRetries: Math.floor(clamp(merged.maxRetries, 0, 10, DEFAULT_REQUEST_SETTINGS.maxRetries)),
		maxRetryWaitSeconds: clamp(merged.maxRetryWaitSeconds, 0, 3600, DEFAULT_REQUEST_SETTINGS.maxRetryWaitSeconds),
	};
}

/** Seconds to wait from a Retry-After header (seconds or an HTTP date), if it has one. */
export function parseRetryAfter(value: unknown, now = Date.now()): number | undefined {
	if (typeof value !== 'string' && typeof value !== 'number') return undefined;
	const text = String(value).trim();
	if (/^\d+(\.\d+)?$/.test(text)) return Number(text);
	const date = Date.parse(text);
	return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000);
}

export function backoffMs(attempt: number): number {
	const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt);
	return ceiling / 2 + Math.random() * (ceiling / 2);
}

interface RawResponse {
	httpStatus: number;
	headers: IDataObject;
	body: unknown;
}

type Attempt =
	| { response: RawResponse }
	| { networkError: { code: string; message: string } }
	| { localError: Error };

function parseBody(body: unknown): unknown {
	if (Buffer.isBuffer(body)) body = body.toString('utf8');
	if (typeof body !== 'string') return body;
	try {
		return JSON.parse(body);
	} catch {
		return body;
	}
}

/** Reads the status and body out of what n8n's request helper threw, without its request config. */
function fromThrown(error: unknown): Attempt {
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

function networkFailure(
	node: INode,
	itemIndex: number,
	error: { code: string; message: string },
	settings: RequestSettings,
	spec: RequestSpec,
): NodeApiError {
	const timedOut = isTimeout(error.code, error.message);
	const message = timedOut
		? `The service did not answer within ${settings.timeoutMs} ms`
		: `Could not reach the service (${error.code})`;
	const description = spec.retrySafe
		? undefined
		: 'Repeating this request could act twice (move money or create a record again), so it was not retried automatically. It may have reached the service: check its result (for payments, with Transaction > Get Many) before sending it again.';
	const failure = new NodeApiError(node, { socketError: error.code, message }, { message, description, itemIndex });
	// NodeApiError swaps messages that mention socket codes for generic text; keep ours.
	failure.message = message;
	failure.context.serviceCode = error.code;
	return failure;
}

/**
 * The one place this package talks HTTP: authentication by channel credential, https-only base
 * URLs, JSON or multipart bodies, time-out, bounded retries of retry-safe requests, and failure
 * detection in the HTTP status and in the body.
 */
export async function apiRequest(
	this: IExecuteFunctions,
	itemIndex: number,
	spec: RequestSpec,
): Promise<IDataObject> {
	const node = this.getNode();
	const credentialType = CREDENTIAL_TYPES[spec.channel];
	const credentials = await this.getCredentials(credentialType, itemIndex);
	const base = String((spec.channel === 'payout' ? credentials.payoutUrl : credentials.baseUrl) ?? '');
	const unsafe = unsafeUrlReason(base);
	if (unsafe) {
		throw new NodeOperationError(node, `The credential's address is refused: ${unsafe}`, {
			itemIndex,
			description: 'The service accepts HTTPS only; plain http:// is allowed for localhost alone.',
		});
	}
	const settings = getRequestSettings(this, itemIndex);

	const options: IHttpRequestOptions = {
		method: spec.method,
		url: joinUrl(base, spec.path),
		headers: { accept: 'application/json' },
		returnFullResponse: true,
		// A payout 401 must still throw: that is how n8n knows to renew the cached token and try once
		// more. Other channels have nothing to renew, so their 401 is answered at once.
		ignoreHttpStatusErrors: { ignore: true, except: spec.channel === 'payout' ? [401] : [] },
		timeout: settings.timeoutMs,
		json: true,
		// A redirect could carry the key headers to another host or to plain http://.
		disableFollowRedirect: true,
	};
	if (spec.qs) options.qs = spec.qs;
	if (spec.multipart) {
		const { body, contentType } = encodeMultipart(spec.multipart);
		options.body = body;
		options.headers!['content-type'] = contentType;
		options.json = false;
	} else if (spec.body) {
		options.body = spec.body;
		options.headers!['content-type'] = 'application/json';
	}

	for (let attempt = 0; ; attempt++) {
		// Say what the node did: how often it tried, and that a write may have gone through.
		const withAttempts = (error: NodeApiError) => {
			if (attempt === 0) return error;
			let note = `The node tried ${attempt + 1} times with backoff.`;
			if (spec.method !== 'GET') {
				note +=
					' An earlier attempt may have succeeded (for an order, a duplicate m_order_id answer then means it was created).';
			}
			error.description = `${error.description ?? ''} ${note}`.trim();
			return error;
		};
		let outcome: Attempt;
		const gate = gateOf(this);
		await gate.acquire();
		try {
			const full = (await this.helpers.httpRequestWithAuthentication.call(
				this,
				credentialType,
				options,
			)) as { statusCode: number; headers: IDataObject; body: unknown };
			outcome = {
				response: { httpStatus: full.statusCode, headers: full.headers ?? {}, body: parseBody(full.body) },
			};
		} catch (error) {
			outcome = fromThrown(error);
		}
		const answered = 'response' in outcome ? outcome.response : undefined;
		const rateLimited = answered?.httpStatus === 429;
		if (answered && rateLimited) {
			// The limit is the account's: every request of this run waits, not only this one.
			const retryAfter = parseRetryAfter(answered.headers['retry-after']);
			gate.rateLimited(retryAfter !== undefined ? retryAfter * 1000 : backoffMs(attempt));
		}
		gate.release(answered !== undefined && !rateLimited);

		if ('localError' in outcome) {
			throw new NodeOperationError(node, outcome.localError.message, { itemIndex });
		}
		const transient =
			'networkError' in outcome ||
			outcome.response.httpStatus === 429 ||
			outcome.response.httpStatus >= 500;
		if (transient && spec.retrySafe && attempt < settings.maxRetries) {
			let waitMs = backoffMs(attempt);
			if ('response' in outcome) {
				const retryAfter = parseRetryAfter(outcome.response.headers['retry-after']);
				if (retryAfter !== undefined && retryAfter > settings.maxRetryWaitSeconds) {
					// Waiting longer than the user allows: report the rate limit instead.
					const failure = toServiceFailure(outcome.response.httpStatus, outcome.response.body);
					const error = withAttempts(serviceError(node, failure, itemIndex));
					error.description = `${error.description ?? ''} The service asked to wait ${retryAfter} s, longer than Max Retry Wait (${settings.maxRetryWaitSeconds} s).`.trim();
					throw error;
				}
				if (retryAfter !== undefined) waitMs = Math.max(retryAfter * 1000, 1);
			}
			await sleep(waitMs);
			continue;
		}

		if ('networkError' in outcome) {
			throw withAttempts(networkFailure(node, itemIndex, outcome.networkError, settings, spec));
		}
		const { httpStatus, body } = outcome.response;
		if (isFailure(httpStatus, body)) {
			const failure = toServiceFailure(httpStatus, body);
			if (spec.acceptFailure?.(failure) && typeof body === 'object' && body !== null) {
				return body as IDataObject;
			}
			const error = serviceError(node, failure, itemIndex);
			const explained = spec.explainFailure?.(failure);
			if (explained?.message) error.message = explained.message;
			if (explained?.description) error.description = explained.description;
			throw withAttempts(error);
		}
		if (typeof body !== 'object' || body === null || Array.isArray(body)) {
			throw serviceError(
				node,
				{ httpStatus, code: String(httpStatus), message: 'The service answered without a JSON object', body },
				itemIndex,
			);
		}
		return body as IDataObject;
	}
}

export interface PageResult {
	records: IDataObject[];
	/** total_records, when the service gave a number. */
	total?: number;
}

/** Stops a runaway walk if a service ignored `page` and never sent a short page. */
const MAX_PAGES = 100000;

/**
 * Walks page-numbered lists: with Return All until total_records are collected (or a short page
 * ends the list when no total is given), otherwise until Limit. The page size stays fixed across
 * pages because the service numbers pages by it.
 */
export async function collectPages(
	fetchPage: (page: number, perPage: number) => Promise<PageResult>,
	options: { returnAll: boolean; limit: number; maxPerPage: number },
): Promise<IDataObject[]> {
	const perPage = options.returnAll
		? options.maxPerPage
		: Math.max(1, Math.min(options.maxPerPage, options.limit));
	const collected: IDataObject[] = [];
	for (let page = 1; page <= MAX_PAGES; page++) {
		const { records, total } = await fetchPage(page, perPage);
		collected.push(...records);
		if (records.length === 0 || records.length < perPage) break;
		if (total !== undefined && collected.length >= total) break;
		if (!options.returnAll && collected.length >= options.limit) break;
	}
	return options.returnAll ? collected : collected.slice(0, options.limit);
}
