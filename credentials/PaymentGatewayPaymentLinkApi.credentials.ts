import type { ICredentialType, INodeProperties } from 'n8n-workflow';

import { credentialIcon, merchantChannelProperties, merchantKeyHeaders } from './shared/channel';

export class PaymentGatewayPaymentLinkApi implements ICredentialType {
	name = 'paymentGatewayPaymentLinkApi';

	displayName = 'Payment Gateway Payment Link API';

	icon = credentialIcon;

	documentationUrl =
		'https://github.com/n8n-nodes-payment-gateway/n8n-nodes-payment-gateway/blob/main/docs/credentials.md#payment-link-api';

	properties: INodeProperties[] = merchantChannelProperties('Payment Link');

	authenticate = merchantKeyHeaders;
}
