import type {
	IDataObject,
	IWebhookDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { classifyEvent } from '../../../webhook/events';
import { checkDelivery } from '../../../webhook/delivery';
import { finalOutcome } from '../../../webhook/outcome';
import { addIsoDates } from '../../helpers/dates';
import { routed } from './waitForPayment.outcome';

/**
 * The resume webhook of a waiting execution, called at `$execution.resumeUrl` (path '' — no
 * suffix). n8n never registers restart webhooks on activation; it calls them only for an execution
 * waiting in this node. Answering without workflowData keeps the execution waiting.
 */
export const waitForPaymentWebhooks: IWebhookDescription[] = [
	{
		name: 'default',
		httpMethod: 'POST',
		responseMode: 'onReceived',
		// Empty: n8n answers with webhookResponse instead of the first item's JSON.
		responseData: '',
		path: '',
		restartWebhook: true,
		isFullPath: true,
	},
];

/** The order this execution waits for: kept in the Timed Out item that Wait for Payment set up. */
function awaitedOrder(ctx: IWebhookFunctions): string {
	const kept = ctx.evaluateExpression('{{ $json.p_order_id }}', 0);
	if (kept !== undefined && kept !== null && String(kept) !== '') return String(kept);
	return String(ctx.getNodeParameter('orderId', '') ?? '');
}

const acknowledged = (reason: string): IWebhookResponseData => ({
	webhookResponse: { received: true, resumed: false, reason },
});

/** Checks one delivery; resumes the execution only with the awaited order's final status. */
async function handleDelivery(ctx: IWebhookFunctions): Promise<IWebhookResponseData> {
	const delivery = await checkDelivery(ctx);
	if (!delivery) return { noWebhookResponse: true };
	const { payload } = delivery;
	const orderId = awaitedOrder(ctx);
	if (String(payload.p_order_id ?? '') !== orderId)
		return acknowledged('not the order this execution waits for');
	const outcome = finalOutcome(payload.status, payload.order_status);
	if (!outcome)
		return acknowledged(
			`order status ${String(payload.order_status ?? '') || 'missing'} is not final`,
		);
	const json: IDataObject = {
		outcome,
		event: classifyEvent(payload),
		source: 'webhook',
		...addIsoDates(payload, ['transaction_time'], ctx.getTimezone()),
	};
	return {
		webhookResponse: { received: true, resumed: true },
		workflowData: routed(outcome, { json, pairedItem: { item: 0 } }),
	};
}

export async function waitForPaymentWebhook(
	this: IWebhookFunctions,
): Promise<IWebhookResponseData> {
	try {
		return await handleDelivery(this);
	} catch {
		// A webhook that throws makes n8n resume the execution with an error: answer 500 instead, so
		// the execution keeps waiting and the service delivers again.
		this.getResponseObject()
			.status(500)
			.json({ message: 'The delivery could not be checked; deliver it again' });
		return { noWebhookResponse: true };
	}
}
