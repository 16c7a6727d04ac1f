import type { ICredentialType, INodeProperties } from 'n8n-workflow';

import { credentialIcon, merchantChannelProperties, merchantKeyHeaders } from './shared/channel';

export class PaymentGatewayInvoiceApi implements ICredentialType {
	name = 'paymentGatewayInvoiceApi';

	displayName = 'Payment Gateway Invoice API';

	icon = credentialIcon;

	documentationUrl =
		'https://github.com/n8n-nodes-payment-gateway/n8n-nodes-payment-gateway/blob/main/docs/credentials.md#invoice-api';

	properties: INodeProperties[] = merchantChannelProperties('Invoice');

	authenticate = merchantKeyHeaders;
}
