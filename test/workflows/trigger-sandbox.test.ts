import type { IDataObject } from 'n8n-workflow';

import type { WebhookHarness } from '../harness';
import { startWebhookWorkflow } from '../harness';
import type { Sandbox } from '../sandbox';
import { startSandbox } from '../sandbox';
import { runGateway } from './support';

/**
 * The service and the trigger together: orders created and refunded with the action node, paid on
 * the sandbox's hosted page, and the sandbox's own webhook deliveries arriving at the trigger.
 */
let sandbox: Sandbox;
let trigger: WebhookHarness;

beforeAll(async () => {
	sandbox = await startSandbox();
	sandbox.state.settings.webhookRetryDelayScale = 0.01;
});
afterAll(async () => await sandbox.stop());
beforeEach(async () => {
	trigger = await startWebhookWorkflow(
		{
			nodes: [
				{
					name: 'Trigger',
					type: 'n8n-nodes-payment-gateway.paymentGatewayTrigger',
					parameters: {},
					credentials: { paymentGatewayWebhookApi: { id: 'webhook' } },
				},
				{ name: 'Fulfil', type: 'harness.noOp', parameters: {} },
			],
			connections: { Trigger: { main: [[{ node: 'Fulfil', type: 'main', index: 0 }]] } },
		},
		{
			credentials: [
				{
					id: 'webhook',
					type: 'paymentGatewayWebhookApi',
					data: { notificationSecret: sandbox.keys.webhook.notificationSecret },
				},
			],
		},
	);
});
afterEach(async () => await trigger.stop());

async function createOrder(amount: number): Promise<string> {
	const result = await runGateway(sandbox, {
		parameters: {
			resource: 'order',
			operation: 'createPayment',
			amount,
			currency: 'AED',
			urls: { webhookUrl: trigger.url },
		},
	});
	expect(result.error).toBeUndefined();
	return String(result.outputs.Gateway[0].json.p_order_id);
}

async function refund(transactionId: string, amount: number) {
	const result = await runGateway(sandbox, {
		parameters: {
			resource: 'payment',
			operation: 'refund',
			transactionId,
			amount,
			currency: 'AED',
		},
	});
	expect(result.error).toBeUndefined();
}

/** Each execution's trigger item, in order. */
const received = () => trigger.executions.map((run) => run.outputs.Trigger[0].json as IDataObject);

it('create, pay on the hosted page and refund in two parts: the trigger sees each change once, in order', async () => {
	const pOrderId = await createOrder(100);
	const page = await fetch(`${sandbox.checkoutUrl}/pay/${pOrderId}`);
	expect(page.status).toBe(200);
	const { order } = sandbox.state.completeOrder(pOrderId, 'pay');
	await sandbox.webhooks.idle();
	const transactionId = String(order.transaction_id);

	await refund(transactionId, 40);
	await sandbox.webhooks.idle();
	await refund(transactionId, 60);
	await sandbox.webhooks.idle();

	expect(received().map((item) => [item.event, item.p_order_id, item.order_status])).toEqual([
		['payment_captured', pOrderId, 'CAPTURED'],
		['payment_partially_refunded', pOrderId, 'PARTIALLY_REFUNDED'],
		['payment_refunded', pOrderId, 'REFUNDED'],
	]);
	// Fulfilment downstream got the same items.
	expect(trigger.executions.map((run) => run.outputs.Fulfil[0].json.event)).toEqual([
		'payment_captured',
		'payment_partially_refunded',
		'payment_refunded',
	]);
});

it('a trigger answering 500 once is retried by the sandbox and the event is processed exactly once', async () => {
	trigger.setResponseFailure(1, 500);
	const pOrderId = await createOrder(25);
	sandbox.state.completeOrder(pOrderId, 'pay');
	await sandbox.webhooks.idle();

	const attempts = sandbox.webhooks.attempts.filter((a) => a.url === trigger.url);
	expect(attempts.map((a) => a.status)).toEqual([500, 200]);
	expect(received().map((item) => item.event)).toEqual(['payment_captured']);
});

it('a duplicate delivery from the service starts no second execution', async () => {
	sandbox.state.settings.webhookDuplicate = true;
	try {
		const pOrderId = await createOrder(30);
		sandbox.state.completeOrder(pOrderId, 'decline');
		await sandbox.webhooks.idle();
		expect(trigger.deliveries.map((d) => d.status)).toEqual([200, 200]);
		expect(received().map((item) => item.event)).toEqual(['payment_failed']);
	} finally {
		sandbox.state.settings.webhookDuplicate = false;
	}
});
