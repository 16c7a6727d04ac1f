import type {
	ICredentialDataDecryptedObject,
	ICredentialType,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

import { credentialIcon } from './shared/channel';
import { joinUrl, unsafeUrlReason } from './shared/url';

/** Finds the bearer token in a token response; the service's response shape is not documented. */
export function extractAccessToken(body: unknown): string | undefined {
	if (typeof body !== 'object' || body === null) return undefined;
	const record = body as Record<string, unknown>;
	const data = (typeof record.data === 'object' && record.data !== null ? record.data : {}) as Record<
		string,
		unknown
	>;
	for (const value of [data.access_token, data.token, record.access_token, record.token]) {
		if (typeof value === 'string' && value !== '') return value;
	}
	return undefined;
}

/** The token request: GET {payout_url}/v1/token with the payout key pair (see README). */
export function tokenRequest(credentials: ICredentialDataDecryptedObject): IHttpRequestOptions {
	const payoutUrl = String(credentials.payoutUrl ?? '');
	const reason = unsafeUrlReason(payoutUrl);
	if (reason) throw new Error(`Payout URL refused: ${reason}`);
	const key = String(credentials.merchantKey ?? '');
	const secret = String(credentials.merchantSecret ?? '');
	const request: IHttpRequestOptions = {
		method: 'GET',
		url: joinUrl(payoutUrl, '/v1/token'),
		json: true,
		timeout: 30000,
	};
	if (credentials.keyPlacement === 'basic') {
		request.auth = { username: key, password: secret };
	} else {
		request.headers = { 'merchant-key': key, 'merchant-secret': secret };
	}
	return request;
}

export class PaymentGatewayPayoutApi implements ICredentialType {
	name = 'paymentGatewayPayoutApi';

	displayName = 'Payment Gateway Payout API';

	icon = credentialIcon;

	documentationUrl = 'https://github.com/n8n-nodes-payment-gateway/n8n-nodes-payment-gateway/blob/main/docs/credentials.md#payout-api';

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
					description: 'Get a bearer token from GET {payout_url}/v1/token and renew it when it expires',
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
		const body: unknown = await this.helpers.httpRequest(tokenRequest(credentials));
		const token = extractAccessToken(body);
		if (!token) throw new Error('The payout token endpoint answered without an access token');
		return { sessionToken: token };
	}

	async authenticate(credentials: ICredentialDataDecryptedObject, requestOptions: IHttpRequestOptions) {
		const token = credentials.obtainBy === 'paste' ? credentials.accessToken : credentials.sessionToken;
		requestOptions.headers = { ...requestOptions.headers, Authorization: `Bearer ${String(token)}` };
		return requestOptions;
	}
}
