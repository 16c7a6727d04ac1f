import type { ICredentialType, INodeProperties } from 'n8n-workflow';

import {
	credentialDocsUrl,
	credentialIcon,
	merchantChannelProperties,
	merchantKeyHeaders,
} from './shared/channel';

export class PaymentGatewayHostedApi implements ICredentialType {
	name = 'paymentGatewayHostedApi';

	displayName = 'Payment Gateway Hosted Solution API';

	icon = credentialIcon;

	documentationUrl = credentialDocsUrl;

	properties: INodeProperties[] = merchantChannelProperties('Hosted Solution');

	authenticate = merchantKeyHeaders;
}
