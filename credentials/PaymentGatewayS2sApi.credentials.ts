import type { ICredentialType, INodeProperties } from 'n8n-workflow';

import {
	credentialDocsUrl,
	credentialIcon,
	merchantChannelProperties,
	merchantKeyHeaders,
} from './shared/channel';

export class PaymentGatewayS2sApi implements ICredentialType {
	name = 'paymentGatewayS2sApi';

	displayName = 'Payment Gateway S2S API';

	icon = credentialIcon;

	documentationUrl = credentialDocsUrl;

	properties: INodeProperties[] = merchantChannelProperties('S2S (server-to-server)');

	authenticate = merchantKeyHeaders;
}
