import type { ICredentialType, INodeProperties } from 'n8n-workflow';

import { baseUrlProperty, credentialIcon, merchantKeyHeaders } from './shared/channel';

export class PaymentGatewayPosApi implements ICredentialType {
	name = 'paymentGatewayPosApi';

	displayName = 'Payment Gateway POS API';

	icon = credentialIcon;

	documentationUrl =
		'https://github.com/n8n-nodes-payment-gateway/n8n-nodes-payment-gateway/blob/main/docs/credentials.md#pos-api';

	properties: INodeProperties[] = [
		baseUrlProperty,
		{
			displayName: 'POS Web API Key',
			name: 'merchantKey',
			type: 'string',
			default: '',
			required: true,
			description: 'The key of the POS web API key pair, sent in the merchant-key header',
		},
		{
			displayName: 'POS Web API Secret',
			name: 'merchantSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'The secret of the POS web API key pair, sent in the merchant-secret header',
		},
	];

	authenticate = merchantKeyHeaders;
}
