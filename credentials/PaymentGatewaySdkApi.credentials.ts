import type { ICredentialType, INodeProperties } from 'n8n-workflow';

import {
	credentialDocsUrl,
	credentialIcon,
	merchantChannelProperties,
	merchantKeyHeaders,
} from './shared/channel';

export class PaymentGatewaySdkApi implements ICredentialType {
	name = 'paymentGatewaySdkApi';

	displayName = 'Payment Gateway SDK API';

	icon = credentialIcon;

	documentationUrl = credentialDocsUrl;

	properties: INodeProperties[] = merchantChannelProperties('SDK/plugins');

	authenticate = merchantKeyHeaders;
}
