import type { ICredentialType, INodeProperties } from 'n8n-workflow';

import { credentialIcon } from './shared/channel';

// Used only by the trigger to check incoming deliveries; nothing is sent to the service with it.
export class PaymentGatewayWebhookApi implements ICredentialType {
	name = 'paymentGatewayWebhookApi';

	displayName = 'Payment Gateway Webhook API';

	icon = credentialIcon;

	documentationUrl =
		'https://github.com/n8n-nodes-payment-gateway/n8n-nodes-payment-gateway/blob/main/docs/credentials.md#webhook-api';

	properties: INodeProperties[] = [
		{
			displayName: 'Notification Secret',
			name: 'notificationSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description:
				'The notification secret configured in the merchant dashboard. Deliveries whose notification-secret header differs are refused.',
		},
	];
}
