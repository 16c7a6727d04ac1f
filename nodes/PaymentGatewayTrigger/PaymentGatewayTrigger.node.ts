import type {
	IDataObject,
	IHookFunctions,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { addIsoDates } from '../PaymentGateway/helpers/dates';
import { classifyEvent, deliveryKey, EVENTS_SUBTITLE, PAYMENT_EVENTS } from '../webhook/events';
import { checkDelivery } from '../webhook/delivery';
import { executionOf } from '../webhook/late-status';
import { checkNotificationSecret, publicHeaders } from '../webhook/headers';
import { tableProperties } from '../PaymentGateway/fields/properties';
import { judgeDelivery } from './exactly-once';
import { assertExactlyOnce } from './exactly-once/activation';
import { optionsGroup, readOptions } from './options';
import { lateStatusResumeUrl, passLateStatus } from './late-status';

export class PaymentGatewayTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Payment Gateway Trigger',
		name: 'paymentGatewayTrigger',
		icon: {
			light: 'file:../../icons/paymentGateway.svg',
			dark: 'file:../../icons/paymentGateway.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: EVENTS_SUBTITLE,
		// n8n's nodes panel shows this text for the merged "Payment Gateway" entry (action node and
		// trigger), so it speaks of both.
		description:
			'Take card payments, refunds, payouts and more with the payment service, or start a workflow when it reports a payment status change',
		defaults: { name: 'Payment Gateway Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'paymentGatewayWebhookApi', required: true, testedBy: 'checkNotificationSecret' },
		],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				// Empty: n8n then answers with the node's webhookResponse or "Workflow was started",
				// instead of its default, the literal text firstEntryJson.
				responseData: '',
				path: 'payment-gateway',
			},
		],
		properties: [
			{
				displayName:
					"The service has no API to register webhooks. Copy this node's Production URL into the merchant dashboard as the default webhook URL, or pass it as Webhook URL when creating orders. Deliveries without the right notification-secret header are refused.",
				name: 'setupNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				options: [
					{ name: 'Any Event', value: '*', description: 'Every delivery' },
					...PAYMENT_EVENTS,
				],
				default: ['*'],
				required: true,
				description: 'The events that start the workflow; others are acknowledged and dropped',
			},
			...tableProperties([optionsGroup]),
		],
	};

	methods = {
		credentialTest: {
			checkNotificationSecret,
		},
	};

	// Nothing to register: the URL is entered in the merchant dashboard or sent with each order.
	// Activation still checks that deliveries can be told from their retries here.
	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				await assertExactlyOnce(this);
				return true;
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return true;
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return true;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const delivery = await checkDelivery(this);
		if (!delivery) return { noWebhookResponse: true };
		const { payload, headers } = delivery;
		const options = readOptions(this);
		if ('invalid' in options) {
			// Nothing starts and nothing is remembered: the service retries once the option is fixed.
			this.getResponseObject().status(500).json({ message: options.invalid });
			return { noWebhookResponse: true };
		}
		// A late status for a waiting execution goes there; only one after the wait ended runs here.
		const resume = lateStatusResumeUrl(this);
		if (resume) {
			const answered = await passLateStatus(this, resume, payload, headers, options);
			if (answered) return answered;
		}

		const event = classifyEvent(payload);
		const events = this.getNodeParameter('events', ['*']) as string[];
		if (!events.includes('*') && !events.includes(event)) {
			return {
				webhookResponse: { received: true, processed: false, reason: 'event not selected' },
			};
		}

		const key = deliveryKey(payload);
		if (options.dropDuplicates) {
			const verdict = await judgeDelivery(this, key, options);
			if (!verdict.run && verdict.duplicate) {
				return {
					webhookResponse: { received: true, processed: false, reason: 'duplicate delivery' },
				};
			}
			if (!verdict.run) {
				// Nothing ran and nothing is remembered: the service's retry of this delivery runs.
				this.getResponseObject()
					.status(503)
					.set('Retry-After', '5')
					.json({ message: verdict.message });
				return { noWebhookResponse: true };
			}
		}

		const json: IDataObject = {
			...addIsoDates(payload, ['transaction_time'], this.getTimezone()),
			event,
			deliveryKey: key,
		};
		if (resume) {
			// The execution that waited for this order had ended: its Timed Out item says so.
			json.late = true;
			json.lateForExecution = executionOf(resume);
		}
		if (options.includeHeaders) json.headers = publicHeaders(headers);
		return { workflowData: [this.helpers.returnJsonArray([json])] };
	}
}
