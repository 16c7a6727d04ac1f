import type {
	IDataObject,
	IWebhookDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';

import { classifyEvent } from '../../../PaymentGatewayTrigger/events';
import { sameSecret } from '../../../PaymentGatewayTrigger/headers';
import { addIsoDates } from '../../helpers/dates';
import { outcomeOf, routed } from './waitForPayment.outcome';

const SECRET_HEADER = 'notification-secret';

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
	const response = ctx.getResponseObject();
	const headers = ctx.getHeaderData() as IDataObject;
	const credentials = await ctx.getCredentials('paymentGatewayWebhookApi');
	const given = headers[SECRET_HEADER];
	if (
		typeof given !== 'string' ||
		!sameSecret(given, String(credentials.notificationSecret ?? ''))
	) {
		response.status(401).json({ message: 'Invalid or missing notification-secret header' });
		return { noWebhookResponse: true };
	}
	const body = ctx.getBodyData() as unknown;
	// n8n also parses form bodies into objects; the service sends JSON only.
	const contentType = String(headers['content-type'] ?? '').toLowerCase();
	if (
		!contentType.includes('json') ||
		typeof body !== 'object' ||
		body === null ||
		Array.isArray(body) ||
		Object.keys(body).length === 0
	) {
		response.status(400).json({ message: 'Expected a JSON object body' });
		return { noWebhookResponse: true };
	}
	const payload = body as IDataObject;
	const orderId = awaitedOrder(ctx);
	if (String(payload.p_order_id ?? '') !== orderId)
		return acknowledged('not the order this execution waits for');
	const outcome = outcomeOf(payload.status, payload.order_status);
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
