import type {
	ICredentialDataDecryptedObject,
	Icon,
	IHttpRequestOptions,
	INodeProperties,
} from 'n8n-workflow';

export const credentialIcon: Icon = {
	light: 'file:../icons/paymentGateway.svg',
	dark: 'file:../icons/paymentGateway.dark.svg',
};

export const baseUrlProperty: INodeProperties = {
	displayName: 'Base URL',
	name: 'baseUrl',
	type: 'string',
	default: '',
	required: true,
	placeholder: 'https://api.example-payments.com',
	description:
		'The main API address ({base_url}). Must start with https:// (http:// only for localhost).',
};

/** Base URL + the merchant key pair that one channel's API key in the merchant dashboard issues. */
export function merchantChannelProperties(channel: string): INodeProperties[] {
	return [
		baseUrlProperty,
		{
			displayName: 'Merchant Key',
			name: 'merchantKey',
			type: 'string',
			default: '',
			required: true,
			description: `The merchant key of a ${channel} API key (Developers > API Keys in the merchant dashboard)`,
		},
		{
			displayName: 'Merchant Secret',
			name: 'merchantSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: `The merchant secret of the same ${channel} API key`,
		},
	];
}

/**
 * Adds the channel's key pair as merchant-key / merchant-secret headers. A function, not a generic
 * `{{$credentials...}}` template: n8n would evaluate two expressions on every request.
 */
export async function merchantKeyHeaders(
	credentials: ICredentialDataDecryptedObject,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	return {
		...requestOptions,
		headers: {
			...requestOptions.headers,
			'merchant-key': String(credentials.merchantKey ?? ''),
			'merchant-secret': String(credentials.merchantSecret ?? ''),
		},
	};
}
