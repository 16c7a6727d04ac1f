import type { ICredentialType, INodeProperties } from 'n8n-workflow';

import { credentialIcon, merchantChannelProperties, merchantKeyHeaders } from './shared/channel';

export class PaymentGatewayHostedApi implements ICredentialType {
	name = 'paymentGatewayHostedApi';

	displayName = 'Payment Gateway Hosted Solution API';

	icon = credentialIcon;

	documentationUrl =
		'https://github.com/n8n-nodes-payment-gateway/n8n-nodes-payment-gateway/blob/main/docs/credentials.md#hosted-solution-api';

	properties: INodeProperties[] = merchantChannelProperties('Hosted Solution');

	authenticate = merchantKeyHeaders;
}
