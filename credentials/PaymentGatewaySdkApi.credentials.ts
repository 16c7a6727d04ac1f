import type { ICredentialType, INodeProperties } from 'n8n-workflow';

import { credentialIcon, merchantChannelProperties, merchantKeyHeaders } from './shared/channel';

export class PaymentGatewaySdkApi implements ICredentialType {
	name = 'paymentGatewaySdkApi';

	displayName = 'Payment Gateway SDK API';

	icon = credentialIcon;

	documentationUrl =
		'https://github.com/n8n-nodes-payment-gateway/n8n-nodes-payment-gateway/blob/main/docs/credentials.md#sdk-api';

	properties: INodeProperties[] = merchantChannelProperties('SDK/plugins');

	authenticate = merchantKeyHeaders;
}
