import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	INode,
	NodeApiError,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { tokenBinding } from '../../../credentials/PaymentGatewayPayoutApi.credentials';
import { merchantKeyHeaders } from '../../../credentials/shared/channel';
import { setTokenTimeout } from '../../../credentials/shared/tokenTimeout';
import { joinUrl, unsafeUrlReason } from '../../../credentials/shared/url';
import type { ServiceFailure } from './errors';
import { isFailure, serviceError, toServiceFailure } from './errors';
import type { MultipartPart } from './multipart';
import { encodeMultipart } from './multipart';
import { gateOf } from './gate';
import type { Attempt } from './outcome';
import { fromThrown, howToCheck, mayHaveActed, networkFailure, parseBody } from './outcome';
import { credentialsOf } from './credentials';
import { pooledRoute } from './pooled';
import { redactError, redactValue } from './redact';
import type { AttemptKind, RequestSettings } from './settings';
import { backoffMs, getRequestSettings, parseRetryAfter, planRetry } from './settings';

export * from './settings';
export * from './pages';

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
	 * A 429 is retried whatever this says: the service refused without acting.
	 */
	retrySafe: boolean;
	/**
	 * Writes: how a user finds out whether this write went through when its answer was lost, said
	 * after "may have been processed:" (for example "look the order up with Transaction > Get").
	 */
	howToCheck?: string;
	/** What a bare 400 from this endpoint usually means (the causes the seed names for it). */
	badRequestCauses?: string;
	/** What this endpoint's own failure codes mean; general codes are the transport's. */
	codes?: Record<string, string>;
	/** Failure bodies that the operation turns into an outcome itself (e.g. a declined card). */
	acceptFailure?: (failure: ServiceFailure) => boolean;
	/** A clearer message or description for failures the operation knows in context. */
	explainFailure?: (failure: ServiceFailure) => { message?: string; description?: string } | undefined;
	/**
	 * The node repeated this request after an attempt whose answer was lost (a 5xx or a dropped
	 * connection), and the service refused the repeat: when that refusal says "already done", the
	 * first attempt went through. Returns what to report instead of a failure.
	 */
	confirmDuplicate?: (failure: ServiceFailure) => IDataObject | undefined;
}

/** How the last attempt went, for the retry decision. */
function kindOf(outcome: Attempt): AttemptKind {
	if ('networkError' in outcome) return 'networkError';
	if ('localError' in outcome) return 'final';
	if (outcome.response.httpStatus === 429) return 'rateLimited';
	return outcome.response.httpStatus >= 500 ? 'serverError' : 'final';
}

async function buildOptions(
	ctx: IExecuteFunctions,
	itemIndex: number,
	spec: RequestSpec,
	credentials: ICredentialDataDecryptedObject,
	settings: RequestSettings,
): Promise<IHttpRequestOptions> {
	const base = String((spec.channel === 'payout' ? credentials.payoutUrl : credentials.baseUrl) ?? '');
	const unsafe = unsafeUrlReason(base);
	if (unsafe) {
		throw new NodeOperationError(ctx.getNode(), `The credential's address is refused: ${unsafe}`, {
			itemIndex,
			description: 'The service accepts HTTPS only; plain http:// is allowed for loopback addresses alone.',
		});
	}
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
	return options;
}

type FullResponse = { statusCode: number; headers: IDataObject; body: unknown };

/**
 * Key-pair channels get their headers from the credentials already read; the payout channel goes
 * through n8n's authentication, which fetches, caches and renews its bearer token.
 */
async function sendOnce(
	ctx: IExecuteFunctions,
	credentialType: string,
	credentials: ICredentialDataDecryptedObject,
	options: IHttpRequestOptions,
): Promise<FullResponse> {
	if (credentialType === CREDENTIAL_TYPES.payout) {
		return (await ctx.helpers.httpRequestWithAuthentication.call(ctx, credentialType, options)) as FullResponse;
	}
	const signed = await merchantKeyHeaders(credentials, options);
	// HTTPS over a kept-alive connection where that keeps n8n's guarantees; n8n's helper otherwise.
	const pooled = pooledRoute(ctx, signed);
	if (pooled) return await pooled();
	return (await ctx.helpers.httpRequest(signed)) as FullResponse;
}

/** One attempt through the run's rate gate; a 429 pauses every slot of the run. */
async function attemptOnce(
	ctx: IExecuteFunctions,
	credentialType: string,
	credentials: ICredentialDataDecryptedObject,
	options: IHttpRequestOptions,
	settings: RequestSettings,
	attempt: number,
): Promise<Attempt> {
	let outcome: Attempt;
	const gate = gateOf(ctx);
	await gate.acquire();
	try {
		const full = await sendOnce(ctx, credentialType, credentials, options);
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
	return outcome;
}

/** Says what the node did: how often it tried, and whether a write may have gone through. */
function noteAttempts(error: NodeApiError, spec: RequestSpec, attempts: number, answerLost: boolean, extra?: string) {
	const notes = [error.description ?? ''];
	if (attempts > 1) notes.push(`The node tried ${attempts} times with backoff.`);
	if (answerLost && spec.method !== 'GET') {
		notes.push(`An earlier attempt got no clear answer and may have been processed: ${howToCheck(spec)}.`);
	}
	if (extra) notes.push(extra);
	error.description = notes.join(' ').trim() || null;
	return error;
}

/** The error for a final failure answer, said for this request. */
function failureError(node: INode, itemIndex: number, spec: RequestSpec, failure: ServiceFailure): NodeApiError {
	const error = serviceError(node, failure, itemIndex, spec);
	if (failure.httpStatus >= 500 && !spec.retrySafe) error.description = mayHaveActed(spec);
	const explained = spec.explainFailure?.(failure);
	if (explained?.message) error.message = explained.message;
	if (explained?.description) error.description = explained.description;
	return error;
}

/**
 * The one place this package talks HTTP: authentication by channel credential, https-only base
 * URLs, JSON or multipart bodies, time-out, bounded retries (429 always, 5xx and lost connections
 * only where a repeat cannot act twice), failure detection in the HTTP status and in the body, and
 * no credential value in any error.
 */
export async function apiRequest(
	this: IExecuteFunctions,
	itemIndex: number,
	spec: RequestSpec,
): Promise<IDataObject> {
	const credentialType = CREDENTIAL_TYPES[spec.channel];
	// n8n may renew the payout bearer token during a run: that credential is read every time.
	const { credentials, secrets } = await credentialsOf(this, credentialType, itemIndex, spec.channel !== 'payout');
	try {
		return await send(this, itemIndex, spec, credentialType, credentials, secrets);
	} catch (error) {
		throw redactError(error as Error, secrets);
	}
}

async function send(
	ctx: IExecuteFunctions,
	itemIndex: number,
	spec: RequestSpec,
	credentialType: string,
	credentials: ICredentialDataDecryptedObject,
	secrets: string[],
): Promise<IDataObject> {
	const node = ctx.getNode();
	const settings = getRequestSettings(ctx, itemIndex);
	const options = await buildOptions(ctx, itemIndex, spec, credentials, settings);
	if (spec.channel === 'payout') setTokenTimeout(tokenBinding(credentials), settings.timeoutMs);
	let waitedMs = 0;
	// An earlier attempt got no clear answer, so the service may have acted on it.
	let answerLost = false;
	for (let attempt = 0; ; attempt++) {
		const outcome = await attemptOnce(ctx, credentialType, credentials, options, settings, attempt);
		if ('localError' in outcome) {
			throw new NodeOperationError(node, outcome.localError.message, { itemIndex });
		}
		const kind = kindOf(outcome);
		const retryAfter =
			'response' in outcome ? parseRetryAfter(outcome.response.headers['retry-after']) : undefined;
		const plan = planRetry(kind, spec.retrySafe, attempt, waitedMs, settings, retryAfter);
		if (plan.retry) {
			answerLost ||= kind !== 'rateLimited';
			waitedMs += plan.waitMs;
			await sleep(plan.waitMs);
			continue;
		}
		const reason = plan.retry ? undefined : plan.reason;

		if ('networkError' in outcome) {
			const error = networkFailure(node, itemIndex, redactValue(outcome.networkError, secrets), settings, spec);
			throw noteAttempts(error, spec, attempt + 1, answerLost, reason);
		}
		const { httpStatus, body } = outcome.response;
		if (!isFailure(httpStatus, body)) {
			if (typeof body === 'object' && body !== null && !Array.isArray(body)) return body as IDataObject;
			throw serviceError(
				node,
				{ httpStatus, code: String(httpStatus), message: 'The service answered without a JSON object', body: redactValue(body, secrets) },
				itemIndex,
				spec,
			);
		}
		if (spec.acceptFailure?.(toServiceFailure(httpStatus, body)) && typeof body === 'object' && body !== null) {
			return body as IDataObject;
		}
		// A service or proxy may echo the request's credentials in its error.
		const failure = toServiceFailure(httpStatus, redactValue(body, secrets));
		const confirmed = answerLost ? spec.confirmDuplicate?.(failure) : undefined;
		if (confirmed) return confirmed;
		throw noteAttempts(failureError(node, itemIndex, spec, failure), spec, attempt + 1, answerLost, reason);
	}
}
