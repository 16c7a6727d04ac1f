import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestOptions,
} from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { tokenBinding } from '../../../credentials/PaymentGatewayPayoutApi.credentials';
import { merchantKeyHeaders } from '../../../credentials/shared/channel';
import { setTokenTimeout } from '../../../credentials/shared/tokenTimeout';
import { joinUrl, unsafeUrlReason } from '../../../credentials/shared/url';
import type { NodeContext } from '../helpers/context';
import { encodeMultipart } from './multipart';
import { gateOf } from './gate';
import type { Attempt } from './outcome';
import { fromThrown, parseBody } from './outcome';
import { credentialsOf } from './credentials';
import { resultOf } from './result';
import type { RequestSpec } from './spec';
import { CREDENTIAL_TYPES } from './spec';
import { ssrfProtectionOn } from '../../n8n-internals';
import { pooledRoute } from './pooled';
import { redactError, runSecretsOf } from './redact';
import type { AttemptKind, RequestSettings } from './settings';
import { backoffMs, getRequestSettings, parseRetryAfter, planRetry } from './settings';

export type { NodeContext } from '../helpers/context';
export * from './settings';
export * from './pages';
export * from './spec';

/** How the last attempt went, for the retry decision. */
function kindOf(outcome: Attempt): AttemptKind {
	if ('networkError' in outcome) return 'networkError';
	if ('localError' in outcome) return 'final';
	if (outcome.response.httpStatus === 429) return 'rateLimited';
	return outcome.response.httpStatus >= 500 ? 'serverError' : 'final';
}

async function buildOptions(
	ctx: NodeContext,
	itemIndex: number,
	spec: RequestSpec,
	credentials: ICredentialDataDecryptedObject,
	settings: RequestSettings,
): Promise<IHttpRequestOptions> {
	const base = String(
		(spec.channel === 'payout' ? credentials.payoutUrl : credentials.baseUrl) ?? '',
	);
	const unsafe = unsafeUrlReason(base);
	if (unsafe) {
		throw new NodeOperationError(ctx.getNode(), `The credential's address is refused: ${unsafe}`, {
			itemIndex,
			description:
				'The service accepts HTTPS only; plain http:// is allowed for loopback addresses alone.',
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
	ctx: NodeContext,
	credentialType: string,
	credentials: ICredentialDataDecryptedObject,
	options: IHttpRequestOptions,
): Promise<FullResponse> {
	if (credentialType === CREDENTIAL_TYPES.payout) {
		return (await ctx.helpers.httpRequestWithAuthentication.call(
			ctx,
			credentialType,
			options,
		)) as FullResponse;
	}
	const signed = await merchantKeyHeaders(credentials, options);
	// HTTPS over a kept-alive connection where that keeps n8n's guarantees; n8n's helper otherwise.
	const pooled = pooledRoute(ctx, signed, await ssrfProtectionOn());
	if (pooled) return await pooled();
	return (await ctx.helpers.httpRequest(signed)) as FullResponse;
}

/** One attempt through the run's rate gate; a 429 pauses every slot of the run. */
async function attemptOnce(
	ctx: NodeContext,
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
			response: {
				httpStatus: full.statusCode,
				headers: full.headers ?? {},
				body: parseBody(full.body),
			},
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

/**
 * The one place this package talks HTTP: authentication by channel credential, https-only base
 * URLs, JSON or multipart bodies, time-out, bounded retries (429 always, 5xx and lost connections
 * only where a repeat cannot act twice), failure detection in the HTTP status and in the body, and
 * no credential value in any error.
 */
export async function apiRequest(
	this: NodeContext,
	itemIndex: number,
	spec: RequestSpec,
): Promise<IDataObject> {
	const credentialType = CREDENTIAL_TYPES[spec.channel];
	// n8n may renew the payout bearer token during a run: that credential is read every time.
	const { credentials, secrets } = await credentialsOf(
		this,
		credentialType,
		itemIndex,
		spec.channel !== 'payout',
	);
	try {
		return await send(this, itemIndex, spec, credentialType, credentials, secrets);
	} catch (error) {
		throw redactError(error as Error, [...secrets, ...runSecretsOf(this)]);
	}
}

async function send(
	ctx: NodeContext,
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
		return resultOf(node, itemIndex, spec, settings, secrets, outcome, {
			attempts: attempt + 1,
			answerLost,
			reason: plan.reason,
		});
	}
}
