import type { ICredentialType, INodeProperties } from 'n8n-workflow';

import {
	credentialDocsUrl,
	credentialIcon,
	merchantChannelProperties,
	merchantKeyHeaders,
} from './shared/channel';

export class PaymentGatewayPaymentLinkApi implements ICredentialType {
	name = 'paymentGatewayPaymentLinkApi';

	displayName = 'Payment Gateway Payment Link API';

	icon = credentialIcon;

	documentationUrl = credentialDocsUrl;

	properties: INodeProperties[] = merchantChannelProperties('Payment Link');

	authenticate = merchantKeyHeaders;
}
