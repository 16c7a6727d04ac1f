import type { ICredentialType, INodeProperties } from 'n8n-workflow';

import { credentialIcon, merchantChannelProperties, merchantKeyHeaders } from './shared/channel';

export class PaymentGatewaySubscriptionApi implements ICredentialType {
	name = 'paymentGatewaySubscriptionApi';

	displayName = 'Payment Gateway Subscription API';

	icon = credentialIcon;

	documentationUrl =
		'https://github.com/n8n-nodes-payment-gateway/n8n-nodes-payment-gateway/blob/main/docs/credentials.md#subscription-api';

	properties: INodeProperties[] = merchantChannelProperties('Subscription');

	authenticate = merchantKeyHeaders;
}
