import type { ICredentialType, INodeProperties } from 'n8n-workflow';

import {
	credentialDocsUrl,
	credentialIcon,
	merchantChannelProperties,
	merchantKeyHeaders,
} from './shared/channel';

export class PaymentGatewaySubscriptionApi implements ICredentialType {
	name = 'paymentGatewaySubscriptionApi';

	displayName = 'Payment Gateway Subscription API';

	icon = credentialIcon;

	documentationUrl = credentialDocsUrl;

	properties: INodeProperties[] = merchantChannelProperties('Subscription');

	authenticate = merchantKeyHeaders;
}
