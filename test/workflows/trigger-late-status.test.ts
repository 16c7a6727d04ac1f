// Late Status through n8n-core's engine: a Payment Gateway Trigger receives an order's statuses at
// the URL the order side builds (nodes/webhook/late-status.ts) and passes them on to the execution
// waiting in Wait for Payment, whose address answers as n8n's /webhook-waiting/ does
// (test/harness/waiting.ts). The real n8n runs of it: test/e2e/wait-for-payment.
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import type { IDataObject } from 'n8n-workflow';

import { SECRET_HEADER } from '../../nodes/webhook/delivery';
import { lateStatusUrl } from '../../nodes/webhook/late-status';
import { runWorkflow, startWebhookWorkflow, WaitingExecutions } from '../harness';
import type {
	HarnessCredential,
	HarnessWorkflow,
	RunOptions,
	WaitingExecution,
	WebhookHarness,
} from '../harness';
import { orderSandbox, WEBHOOK_CREDENTIAL as WEBHOOK, waitForPaymentNode } from './order/support';
import { sandboxCredentials } from './support';

const { box, runOrder } = orderSandbox(43);
const ref = (type: string) => ({ [type]: { id: type, name: type } });

const webhookCredential = (): HarnessCredential => ({
	id: WEBHOOK,
	name: WEBHOOK,
	type: WEBHOOK,
	data: { notificationSecret: box.sandbox.keys.webhook.notificationSecret },
});

/** Start → Wait for Payment for `orderId`, each of its outputs into a node of its own. */
function waitWorkflow(orderId: string): { definition: HarnessWorkflow; options: RunOptions } {
	const outputs = ['Timed Out', 'Paid', 'Failed'];
	return {
		definition: {
			nodes: [
				{ name: 'Start', type: 'harness.start', parameters: { items: [{}], binary: [] } },
				waitForPaymentNode(orderId),
				...outputs.map((name) => ({ name, type: 'harness.noOp', parameters: {} })),
			],
			connections: {
				Start: { main: [[{ node: 'Gateway', type: 'main', index: 0 }]] },
				Gateway: { main: outputs.map((node) => [{ node, type: 'main', index: 0 }]) },
			},
		},
		options: { credentials: [...sandboxCredentials(box.sandbox), webhookCredential()] },
	};
}

const TRIGGER_WORKFLOW: HarnessWorkflow = {
	nodes: [
		{
			name: 'Trigger',
			type: 'n8n-nodes-payment-gateway.paymentGatewayTrigger',
			parameters: {},
			credentials: ref(WEBHOOK),
		},
		{ name: 'After', type: 'harness.noOp', parameters: {} },
	],
	connections: { Trigger: { main: [[{ node: 'After', type: 'main', index: 0 }]] } },
};

let waiting: WaitingExecutions;
let trigger: WebhookHarness;
let orderId: string;
let execution: WaitingExecution;

/** A pending order and an execution waiting for it in Wait for Payment. */
beforeEach(async () => {
	const created = await runOrder('createPayment', {
		amount: 12,
		currency: 'AED',
		merchantOrderId: `LATE-${Date.now()}-${Math.random()}`,
	});
	expect(created.error).toBeUndefined();
	orderId = String(created.outputs.Gateway[0].json.p_order_id);
	const { definition, options } = waitWorkflow(orderId);
	const run = await runWorkflow(definition, options);
	expect(run.run?.status).toBe('waiting');
	waiting = new WaitingExecutions();
	execution = waiting.add(definition, run, options);
	trigger = await startWebhookWorkflow(TRIGGER_WORKFLOW, {
		credentials: [webhookCredential()],
		waiting,
	});
});

afterEach(async () => await trigger.stop());

const status = (orderStatus: string, more: IDataObject = {}): IDataObject => ({
	action: 'SALE',
	status: orderStatus === 'FAILED' ? 'FAILED' : 'SUCCESS',
	order_status: orderStatus,
	p_order_id: orderId,
	transaction_id: `T-${orderId}`,
	transaction_time: '2024-05-01 10:00:00',
	...more,
});

/** The order's status, posted to the URL the order side gives the service. */
async function deliver(payload: IDataObject, resumeUrl?: string) {
	const origin = new URL(trigger.url).origin;
	const url = lateStatusUrl(trigger.url, resumeUrl ?? waiting.resumeUrl(execution, origin));
	const response = await fetch(url, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			[SECRET_HEADER]: box.sandbox.keys.webhook.notificationSecret,
		},
		body: JSON.stringify(payload),
	});
	return { status: response.status, body: (await response.json()) as IDataObject };
}

describe('Late Status: the trigger passes an order status on to the execution waiting for it', () => {
	test('while it waits: an open status keeps it waiting, the final one resumes it on Paid; the trigger runs nothing', async () => {
		expect(await deliver(status('PENDING'))).toEqual({
			status: 200,
			body: { received: true, resumed: false },
		});
		expect(execution.state).toBe('waiting');
		expect(await deliver(status('CAPTURED'))).toEqual({
			status: 200,
			body: { received: true, resumed: true },
		});
		const resumed = await execution.resumed!;
		expect(resumed.error).toBeUndefined();
		expect(resumed.outputs.Paid.map((item) => item.json)).toEqual([
			expect.objectContaining({ outcome: 'paid', p_order_id: orderId, source: 'webhook' }),
		]);
		expect(resumed.outputs['Timed Out']).toBeUndefined();
		expect(execution.state).toBe('ended');
		expect(trigger.executions).toHaveLength(0);
	});

	test("after the wait ended: the trigger's workflow runs once with the final status, marked late", async () => {
		execution.state = 'ended';
		const first = await deliver(status('CAPTURED'));
		expect(first.status).toBe(200);
		expect(trigger.executions).toHaveLength(1);
		expect(trigger.executions[0].outputs.After.map((item) => item.json)).toEqual([
			expect.objectContaining({
				p_order_id: orderId,
				event: 'payment_captured',
				late: true,
				lateForExecution: execution.id,
			}),
		]);
		// The service's retry, or a second final status of the same outcome: the order is handled.
		expect(await deliver(status('CAPTURED'))).toEqual({
			status: 200,
			body: { received: true, processed: false, reason: 'order handled' },
		});
		expect(trigger.executions).toHaveLength(1);
	});

	test('while it still runs: the status is held and tried again, then answered 503 to be delivered again', async () => {
		execution.state = 'running';
		const answered = await deliver(status('CAPTURED'));
		expect(answered).toEqual({
			status: 503,
			body: { message: 'The execution waiting for this order is still running; deliver it again' },
		});
		expect(execution.requests).toBeGreaterThan(2);
		expect(trigger.executions).toHaveLength(0);
		// Nothing was remembered of it: once the execution waits again, the retry resumes it.
		execution.state = 'waiting';
		expect((await deliver(status('CAPTURED'))).body).toEqual({ received: true, resumed: true });
		expect((await execution.resumed!).outputs.Paid).toHaveLength(1);
	}, 60_000);

	test("a resume URL of another host is ignored, with a warning: the status runs the trigger's workflow as any delivery", async () => {
		const warn = jest.spyOn(Container.get(Logger), 'warn');
		try {
			// The same server under another name: had the trigger followed it, the execution would count it.
			const port = new URL(trigger.url).port;
			const elsewhere = waiting.resumeUrl(execution, `http://localhost:${port}`);
			const answered = await deliver(status('CAPTURED'), elsewhere);
			expect(answered.status).toBe(200);
			expect(warn).toHaveBeenCalledWith(
				'Payment Gateway Trigger: a resume URL of another host was ignored',
			);
		} finally {
			warn.mockRestore();
		}
		expect(execution.requests).toBe(0);
		expect(execution.state).toBe('waiting');
		expect(trigger.executions).toHaveLength(1);
		expect(trigger.executions[0].outputs.After[0].json).not.toHaveProperty('late');
	});
});
