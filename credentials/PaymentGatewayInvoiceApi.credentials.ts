import type { ICredentialType, INodeProperties } from 'n8n-workflow';

import {
	credentialDocsUrl,
	credentialIcon,
	merchantChannelProperties,
	merchantKeyHeaders,
} from './shared/channel';

export class PaymentGatewayInvoiceApi implements ICredentialType {
	name = 'paymentGatewayInvoiceApi';

	displayName = 'Payment Gateway Invoice API';

	icon = credentialIcon;

	documentationUrl = credentialDocsUrl;

	properties: INodeProperties[] = merchantChannelProperties('Invoice');

	authenticate = merchantKeyHeaders;
}
