import type {
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { fieldFromParameter } from '../n8n-internals';
import { credentialTest } from '../PaymentGateway/methods';
import { checkNotificationSecret } from '../webhook/headers';
import { publishAddress, unpublishAddress } from './address';
import { receiveResults } from './receive';

/**
 * Receives the service's bulk payout results (posted to a batch's callback_url), applies each row
 * to the account's payout ledger and runs the workflow with the rows that changed it.
 */
export class PaymentGatewayPayoutTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Payment Gateway Payout Results Trigger',
		name: 'paymentGatewayPayoutTrigger',
		icon: {
			light: 'file:../../icons/paymentGateway.svg',
			dark: 'file:../../icons/paymentGateway.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: '={{"POST /webhook/" + $parameter["path"]}}',
		description:
			"Starts the workflow when the service reports payout results (paid with the bank's UTR, failed, rejected, reversed), after recording them in the account's payout ledger",
		defaults: { name: 'Payout Results' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'paymentGatewayPayoutApi', required: true, testedBy: 'testPayoutCredential' },
			{
				name: 'paymentGatewayWebhookApi',
				required: false,
				testedBy: 'checkNotificationSecret',
			},
		],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				// Empty: n8n answers with the node's webhookResponse (the counts of the post).
				responseData: '',
				// Resolved without n8n's expression engine for each post (the path holds no expression).
				...fieldFromParameter('path', 'path'),
				isFullPath: true,
			},
		],
		properties: [
			{
				displayName:
					"Publish this workflow: its Production URL becomes the payout account's results address, which Bulk Create uses (with the account's token) when its Callback URL is empty. Each row result is recorded in the account's payout ledger; only rows that changed it start the workflow, one item each.",
				name: 'setupNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Path',
				name: 'path',
				type: 'string',
				default: 'payout-results',
				required: true,
				placeholder: 'payout-results',
				description:
					"The results address's path after /webhook/. Keep it short: the address with its token must fit the service's 100 characters of callback URL.",
			},
		],
	};

	methods = { credentialTest: { ...credentialTest, checkNotificationSecret } };

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				// Always (re)recorded on activation: n8n's URL or the path may have changed.
				return false;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return await publishAddress(this);
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return await unpublishAddress(this);
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await receiveResults(this);
	}
}
