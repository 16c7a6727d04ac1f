import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeProperties,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { authenticationProperties, requestOptionsProperty } from './actions/common.descriptions';
import { toolDescriptionProperties } from './actions/tool.descriptions';
import { router } from './actions/router';
import { operationsBut, resourceProperty, resourcesProperties } from './actions/resources';
import { NODE_OUTPUTS_EXPRESSION } from './actions/outputs';
import { armTimeOutLook } from './actions/timeOutTurns';
import {
	waitForPaymentWebhook,
	waitForPaymentWebhooks,
} from './actions/order/waitForPayment.webhook';
import { checkNotificationSecret } from '../webhook/headers';
import { credentialTest } from './methods';
import { RESUMED_AT_CHECKS } from './actions/payout/waitForResults.checks';
import { operationSubtitle } from './methods/subtitle';
import { CHANNEL_CREDENTIAL_CONDITIONS as CHANNEL } from './methods/credentials';

// n8n loads this module before it runs a waiting execution's time-out (it builds the workflow
// first), in whichever process runs it: from then on Wait for Payment's time-out turn and Wait for
// Results' checks run there.
void armTimeOutLook();

const properties: INodeProperties[] = [
	...authenticationProperties,
	resourceProperty,
	...resourcesProperties,
	requestOptionsProperty,
	...toolDescriptionProperties,
];

export class PaymentGateway implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Payment Gateway',
		name: 'paymentGateway',
		icon: {
			light: 'file:../../icons/paymentGateway.svg',
			dark: 'file:../../icons/paymentGateway.dark.svg',
		},
		group: ['transform'],
		version: [1, 2, 3],
		defaultVersion: 3,
		// In words, operation then resource, from the Resource and Operation lists.
		subtitle: operationSubtitle(properties),
		description:
			'Take and manage card payments, saved cards, split payments, refunds, transactions, invoice items, subscription plans, payment links and bulk payouts',
		defaults: { name: 'Payment Gateway' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		// Three outputs for Order > Wait for Payment and Payout > Wait for Results, one for every other.
		outputs: NODE_OUTPUTS_EXPRESSION,
		webhooks: waitForPaymentWebhooks,
		// n8n's editor labels a selector shown by Resource rather than by Authentication "Credential
		// for <type>"; n8n's own nodes read "Credential", so those selectors name themselves.
		credentials: [
			{
				name: 'paymentGatewayHostedApi',
				required: true,
				testedBy: 'testHostedCredential',
				displayOptions: CHANNEL.hosted,
			},
			{
				name: 'paymentGatewayS2sApi',
				required: true,
				testedBy: 'testS2sCredential',
				displayOptions: CHANNEL.s2s,
			},
			{
				name: 'paymentGatewaySdkApi',
				required: true,
				testedBy: 'testSdkCredential',
				displayOptions: CHANNEL.sdk,
			},
			{
				name: 'paymentGatewayPosApi',
				displayName: 'Credential',
				required: true,
				testedBy: 'testPosCredential',
				displayOptions: CHANNEL.pos,
			},
			{
				// Checks the deliveries that resume Order > Wait for Payment. Hidden by operation rather
				// than shown by it (an operation in `show` makes n8n's editor hide Resource): hidden for
				// every other order operation, read from the resource map.
				name: 'paymentGatewayWebhookApi',
				displayName: 'Webhook Credential',
				required: true,
				testedBy: 'checkNotificationSecret',
				displayOptions: {
					show: { resource: ['order'] },
					hide: { operation: operationsBut('order', ['waitForPayment']) },
				},
			},
			{
				name: 'paymentGatewayInvoiceApi',
				displayName: 'Credential',
				required: true,
				testedBy: 'testInvoiceCredential',
				displayOptions: { show: { resource: ['invoiceItem'] } },
			},
			{
				name: 'paymentGatewaySubscriptionApi',
				displayName: 'Credential',
				required: true,
				testedBy: 'testSubscriptionCredential',
				displayOptions: { show: { resource: ['subscriptionPlan'] } },
			},
			{
				name: 'paymentGatewayPaymentLinkApi',
				displayName: 'Credential',
				required: true,
				testedBy: 'testPaymentLinkCredential',
				displayOptions: { show: { resource: ['paymentLink'] } },
			},
			{
				name: 'paymentGatewayPayoutApi',
				displayName: 'Credential',
				required: true,
				testedBy: 'testPayoutCredential',
				displayOptions: { show: { resource: ['payout'] } },
			},
		],
		properties,
	};

	methods = { credentialTest: { ...credentialTest, checkNotificationSecret } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		// Payout > Wait for Results reads the ledger at its checks; a call at its address resumes nothing.
		if (this.getNodeParameter('resource', 'order') === 'payout')
			return { webhookResponse: { received: true, resumed: false, reason: RESUMED_AT_CHECKS } };
		return await waitForPaymentWebhook.call(this);
	}
}
