import type { ICredentialType, INodeProperties } from 'n8n-workflow';

import { credentialIcon, merchantChannelProperties, merchantKeyHeaders } from './shared/channel';

export class PaymentGatewayS2sApi implements ICredentialType {
	name = 'paymentGatewayS2sApi';

	displayName = 'Payment Gateway S2S API';

	icon = credentialIcon;

	documentationUrl =
		'https://github.com/n8n-nodes-payment-gateway/n8n-nodes-payment-gateway/blob/main/docs/credentials.md#s2s-api';

	properties: INodeProperties[] = merchantChannelProperties('S2S (server-to-server)');

	authenticate = merchantKeyHeaders;
}
