import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { createHash } from 'node:crypto';

import { credentialIcon } from './shared/channel';
import { tokenTimeout } from './shared/tokenTimeout';
import { joinUrl, unsafeUrlReason } from './shared/url';

const DEFAULT_TOKEN_TIMEOUT_MS = 30000;

/** Which Payout URL and key a cached token was issued for: a token never goes to another host. */
export function tokenBinding(credentials: ICredentialDataDecryptedObject): string {
	const url = String(credentials.payoutUrl ?? '').replace(/\/+$/, '');
	const hash = createHash('sha256')
		.update(`${url}\n${String(credentials.merchantKey ?? '')}`)
		.digest('hex');
	return `v1:${hash.slice(0, 32)}`;
}

/** The cached token, if it was issued for this credential's Payout URL and key. */
export function boundToken(credentials: ICredentialDataDecryptedObject): string | undefined {
	const stored = String(credentials.sessionToken ?? '');
	const prefix = `${tokenBinding(credentials)}:`;
	return stored.startsWith(prefix) && stored.length > prefix.length
		? stored.slice(prefix.length)
		: undefined;
}

/** What n8n's request helper threw for a redirect answer, which is never followed. */
function redirectOf(error: unknown): { status: number; location?: string } | undefined {
	const cause = (error as { cause?: unknown }).cause ?? error;
	const response = (cause as { response?: { status?: number; headers?: Record<string, unknown> } })
		.response;
	const status = response?.status;
	if (typeof status !== 'number' || status < 300 || status >= 400) return undefined;
	const location = response?.headers?.location;
	return { status, location: typeof location === 'string' ? location : undefined };
}

/** Finds the bearer token in a token response; the service's response shape is not documented. */
export function extractAccessToken(body: unknown): string | undefined {
	if (typeof body !== 'object' || body === null) return undefined;
	const record = body as Record<string, unknown>;
	const data = (
		typeof record.data === 'object' && record.data !== null ? record.data : {}
	) as Record<string, unknown>;
	for (const value of [data.access_token, data.token, record.access_token, record.token]) {
		if (typeof value === 'string' && value !== '') return value;
	}
	return undefined;
}

export const TOKEN_PATH = '/v1/token';

/** The token request: GET {payout_url}/v1/token with the payout key pair (see README). */
export function tokenRequest(credentials: ICredentialDataDecryptedObject): IHttpRequestOptions {
	const payoutUrl = String(credentials.payoutUrl ?? '');
	const reason = unsafeUrlReason(payoutUrl);
	if (reason) throw new Error(`Payout URL refused: ${reason}`);
	const key = String(credentials.merchantKey ?? '');
	const secret = String(credentials.merchantSecret ?? '');
	const request: IHttpRequestOptions = {
		method: 'GET',
		url: joinUrl(payoutUrl, TOKEN_PATH),
		json: true,
		// The node's Timeout when a node asks for the token; n8n gives no other way to pass it.
		timeout: tokenTimeout(tokenBinding(credentials)) ?? DEFAULT_TOKEN_TIMEOUT_MS,
		// A redirect would carry the key pair to another host, perhaps over plain http://.
		disableFollowRedirect: true,
	};
	if (credentials.keyPlacement === 'basic') {
		request.auth = { username: key, password: secret };
	} else {
		request.headers = { 'merchant-key': key, 'merchant-secret': secret };
	}
	return request;
}

/** Scheme, host and port of a redirect target; its path and query may carry anything. */
function safeOrigin(location: string): string {
	try {
		return new URL(location).origin;
	} catch {
		return 'another address';
	}
}

export class PaymentGatewayPayoutApi implements ICredentialType {
	name = 'paymentGatewayPayoutApi';

	displayName = 'Payment Gateway Payout API';

	icon = credentialIcon;

	documentationUrl =
		'https://github.com/n8n-nodes-payment-gateway/n8n-nodes-payment-gateway/blob/main/docs/credentials.md#payout-api';

	properties: INodeProperties[] = [
		{
			displayName: 'Payout URL',
			name: 'payoutUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://payouts.example-payments.com',
			description:
				'The payout API address ({payout_url}). Must start with https:// (http:// only for localhost).',
		},
		{
			displayName: 'Access Token Source',
			name: 'obtainBy',
			type: 'options',
			options: [
				{
					name: 'Request From Token Endpoint',
					value: 'request',
					description:
						'Get a bearer token from GET {payout_url}/v1/token and renew it when it expires',
				},
				{
					name: 'Paste Access Token',
					value: 'paste',
					description: 'Use a bearer token obtained elsewhere',
				},
			],
			default: 'request',
		},
		{
			displayName: 'Payout Key',
			name: 'merchantKey',
			type: 'string',
			default: '',
			required: true,
			displayOptions: { show: { obtainBy: ['request'] } },
			description: 'The key that the token endpoint accepts',
		},
		{
			displayName: 'Payout Secret',
			name: 'merchantSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			displayOptions: { show: { obtainBy: ['request'] } },
			description: 'The secret that goes with the payout key',
		},
		{
			displayName: 'Send Key and Secret As',
			name: 'keyPlacement',
			type: 'options',
			options: [
				{ name: 'Merchant-Key and Merchant-Secret Headers', value: 'headers' },
				{ name: 'Basic Auth', value: 'basic' },
			],
			default: 'headers',
			displayOptions: { show: { obtainBy: ['request'] } },
			description: 'How the token request carries the key pair',
		},
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			displayOptions: { show: { obtainBy: ['paste'] } },
			description: 'A bearer token for the payout API',
		},
		{
			// Filled by preAuthentication and renewed by n8n when a request answers 401
			displayName: 'Session Token',
			name: 'sessionToken',
			type: 'hidden',
			typeOptions: { expirable: true, password: true },
			default: '',
		},
	];

	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		if (credentials.obtainBy === 'paste') return { sessionToken: credentials.accessToken };
		let body: unknown;
		try {
			body = await this.helpers.httpRequest(tokenRequest(credentials));
		} catch (error) {
			const redirect = redirectOf(error);
			if (!redirect) throw error;
			const target = redirect.location ? ` to ${safeOrigin(redirect.location)}` : '';
			throw new Error(
				`The payout token endpoint answered with a redirect (HTTP ${redirect.status}${target}), which is not followed: the payout key and secret go to the Payout URL only. Set the Payout URL to the address the service gives for its payout API.`,
			);
		}
		const token = extractAccessToken(body);
		if (!token) throw new Error('The payout token endpoint answered without an access token');
		return { sessionToken: `${tokenBinding(credentials)}:${token}` };
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		requestOptions: IHttpRequestOptions,
	) {
		// A token cached for another Payout URL or key is not sent: the service's 401 then makes n8n
		// ask for a new token from this credential's own address.
		const token =
			credentials.obtainBy === 'paste'
				? String(credentials.accessToken ?? '')
				: boundToken(credentials);
		if (token === undefined) return requestOptions;
		requestOptions.headers = { ...requestOptions.headers, Authorization: `Bearer ${token}` };
		return requestOptions;
	}
}
