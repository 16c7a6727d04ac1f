// The execute side of Order > Wait for Payment and "Send Final Status to This Execution", through
// n8n-core's engine against the sandbox. Resuming and time-outs are n8n's: test/e2e/wait-for-payment.
import type { IDataObject, INodeParameters } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { PaymentGateway } from '../../../nodes/PaymentGateway/PaymentGateway.node';
import { runAfterWaitLimit, runWorkflow } from '../../harness';
import type { HarnessWorkflow, RunOptions } from '../../harness';
import { requestsTo, sandboxCredentials } from '../support';
import { CREATE, orderSandbox, WEBHOOK_CREDENTIAL, waitForPaymentNode } from './support';

const { box, runOrder, sentData } = orderSandbox(19);
const LIST = '/orders/v1/transaction-list';

async function newOrder(): Promise<string> {
	const result = await runOrder('createPayment', {
		amount: 12,
		currency: 'AED',
		merchantOrderId: `W-${Date.now()}-${Math.random()}`,
	});
	expect(result.error).toBeUndefined();
	return String(result.outputs.Gateway[0].json.p_order_id);
}

/** Start → Wait for Payment with the hosted keys and the webhook credential (`secret`). */
function waitFor(
	orderId: string,
	more: IDataObject = {},
	extra: { items?: object[]; continueOnFail?: boolean; secret?: string } = {},
) {
	const { definition, options } = waitWorkflow(orderId, more, extra);
	return runWorkflow(definition, options);
}

function waitWorkflow(
	orderId: string,
	more: IDataObject = {},
	extra: { items?: object[]; continueOnFail?: boolean; secret?: string } = {},
): { definition: HarnessWorkflow; options: RunOptions } {
	const credentials = [
		...sandboxCredentials(box.sandbox),
		{
			id: WEBHOOK_CREDENTIAL,
			name: WEBHOOK_CREDENTIAL,
			type: WEBHOOK_CREDENTIAL,
			data: { notificationSecret: extra.secret ?? box.sandbox.keys.webhook.notificationSecret },
		},
	];
	return {
		definition: {
			nodes: [
				{
					name: 'Start',
					type: 'harness.start',
					parameters: { items: (extra.items ?? [{}]) as INodeParameters[], binary: [] },
				},
				{
					...waitForPaymentNode(orderId, more),
					...(extra.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
				},
			],
			connections: { Start: { main: [[{ node: 'Gateway', type: 'main', index: 0 }]] } },
		},
		options: { credentials },
	};
}

describe('order operations: Send Final Status to This Execution', () => {
	it.each(['createPayment', 'authorize', 'saveCard', 'createSplitPayment'])(
		'%s sends the execution resume URL as urls.webhook_url',
		async (operation) => {
			const parameters: IDataObject = {
				amount: 10,
				currency: 'AED',
				sendStatusToThisExecution: true,
			};
			if (operation === 'authorize') parameters.captureMethod = 'MANUAL';
			if (operation === 'saveCard') parameters.customerId = 'CUST-19';
			if (operation === 'createSplitPayment') {
				parameters.transactionAction = 'SALE';
				parameters.splitRecipients = { recipient: [{ splitId: 'SUB-1', type: 'P', value: 50 }] };
			}
			const result = await runOrder(operation, parameters);
			expect(result.error).toBeUndefined();
			const url = new URL(String((sentData().urls as Record<string, unknown>).webhook_url));
			expect(url.pathname).toMatch(/\/webhook-waiting\/[^/]+$/);
		},
	);

	it('refuses it together with a Webhook URL, and sends nothing', async () => {
		const result = await runOrder('createPayment', {
			amount: 10,
			currency: 'AED',
			sendStatusToThisExecution: true,
			urls: { webhookUrl: 'https://hooks.example.com/pay' },
		});
		expect(result.error?.message).toMatch(
			/urls\.webhook_url.*must be empty when Send Final Status to This Execution is on/s,
		);
		expect(requestsTo(box.sandbox, CREATE)).toHaveLength(0);
	});

	it('leaves the webhook URL alone when off', async () => {
		await runOrder('createPayment', {
			amount: 10,
			currency: 'AED',
			urls: { webhookUrl: 'https://hooks.example.com/pay' },
		});
		expect((sentData().urls as Record<string, unknown>).webhook_url).toBe(
			'https://hooks.example.com/pay',
		);
	});
});

describe('order.waitForPayment (execute side)', () => {
	it('puts the execution to wait for a pending order, the Timed Out item ready on its input', async () => {
		const orderId = await newOrder();
		const before = Date.now();
		const result = await waitFor(
			orderId,
			{},
			{ items: [{ payment_link: 'https://pay.example/x' }] },
		);
		expect(result.error).toBeUndefined();
		expect(result.run?.status).toBe('waiting');
		const waitTill = result.run?.waitTill as Date;
		expect(waitTill.getTime() - before).toBeGreaterThanOrEqual(2 * 3_600_000 - 1000);
		expect(waitTill.getTime() - before).toBeLessThan(2 * 3_600_000 + 60_000);
		const [stacked] = result.run!.data.executionData!.nodeExecutionStack;
		expect(stacked.node.name).toBe('Gateway');
		expect(stacked.data.main[0]).toEqual([
			expect.objectContaining({
				json: expect.objectContaining({
					outcome: 'timedOut',
					p_order_id: orderId,
					order_status: 'PENDING',
					input: { payment_link: 'https://pay.example/x' },
				}),
			}),
		]);
		expect(requestsTo(box.sandbox, LIST)[0].query).toMatchObject({ p_order_id: orderId });
	});

	it.each([
		['pay', 1, { outcome: 'paid', source: 'lookup', status: 'CAPTURED' }],
		['decline', 2, { outcome: 'failed', source: 'lookup', status: 'FAILED' }],
	] as const)(
		'an order already completed (%s) is routed at once, without waiting',
		async (outcome, output, expected) => {
			const orderId = await newOrder();
			box.sandbox.state.completeOrder(orderId, outcome);
			const result = await waitFor(orderId);
			expect(result.run?.status).not.toBe('waiting');
			const outputs = result.allOutputs.Gateway;
			expect(outputs.map((items) => items.length)).toEqual(
				[0, 1, 2].map((i) => (i === output ? 1 : 0)),
			);
			expect(outputs[output][0].json).toMatchObject({ ...expected, p_order_id: orderId });
		},
	);

	it('refuses more than one item: one wait per execution', async () => {
		const orderId = await newOrder();
		const result = await waitFor(orderId, {}, { items: [{}, {}] });
		expect(result.error?.message).toBe(
			'Wait for Payment waits for one order per execution; it received 2 items',
		);
	});

	it('refuses an unknown order, a missing Order ID and a wait limit of 0', async () => {
		expect((await waitFor('999999999')).error?.message).toBe('No order with Order ID 999999999');
		expect((await waitFor('')).error?.message).toMatch(/Order ID.*is required/s);
		const orderId = await newOrder();
		expect((await waitFor(orderId, { waitLimit: 0 })).error?.message).toMatch(/Wait Limit/);
		expect(
			(await waitFor(orderId, { waitLimit: 400, waitLimitUnit: 'days' })).error?.message,
		).toMatch(/at most 366 days/);
	});

	it('refuses to wait without a notification secret to check the deliveries with', async () => {
		const orderId = await newOrder();
		const result = await waitFor(orderId, {}, { secret: '' });
		expect(result.error?.message).toBe(
			'The Payment Gateway Webhook API credential has no notification secret',
		);
		expect(result.run?.status).not.toBe('waiting');
	});

	it('with continue-on-fail the failure is an item on the first output', async () => {
		const result = await waitFor('999999999', {}, { continueOnFail: true });
		expect(result.error).toBeUndefined();
		expect(result.allOutputs.Gateway[0][0].json.error).toBe('No order with Order ID 999999999');
	});
});

describe('order.waitForPayment at the wait limit (n8n runs the waiting execution on)', () => {
	/** A pending order's execution waiting, then `during` (the customer pays…), then the limit. */
	async function atLimit(
		during: (orderId: string) => void = () => undefined,
		more: IDataObject = {},
	) {
		const orderId = await newOrder();
		const { definition, options } = waitWorkflow(orderId, more, {
			items: [{ payment_link: 'https://pay.example/y' }],
		});
		const waiting = await runWorkflow(definition, options);
		expect(waiting.run?.status).toBe('waiting');
		during(orderId);
		box.sandbox.clearRequests();
		const after = await runAfterWaitLimit(definition, waiting, options);
		return { orderId, waiting, after, outputs: after.allOutputs.Gateway ?? [] };
	}
	const counts = (outputs: unknown[][]) => [0, 1, 2].map((i) => (outputs[i] ?? []).length);

	it.each([
		['pay', 1, { outcome: 'paid', source: 'lookup', status: 'CAPTURED' }],
		['decline', 2, { outcome: 'failed', source: 'lookup', status: 'FAILED' }],
	] as const)(
		'paid or declined during the wait, its status never delivered (%s): the last look routes it',
		async (outcome, output, expected) => {
			const { orderId, after, outputs } = await atLimit((id) =>
				box.sandbox.state.completeOrder(id, outcome),
			);
			expect(after.error).toBeUndefined();
			expect(counts(outputs)).toEqual([0, 1, 2].map((i) => (i === output ? 1 : 0)));
			expect(outputs[output][0].json).toMatchObject({ ...expected, p_order_id: orderId });
			expect(outputs[output][0].json.transaction_date_iso).toMatch(/^\d{4}-\d{2}-\d{2}T/);
			expect(requestsTo(box.sandbox, LIST).map((r) => r.query.p_order_id)).toEqual([orderId]);
			// Kept with the execution, for a Payment Gateway Trigger that gets this status later.
			expect(after.run?.data.resultData.metadata).toEqual({
				paymentGatewayLastLook: `${expected.outcome}:${orderId}`,
			});
		},
	);

	it('still pending: Timed Out with the status read now and the input item', async () => {
		const { orderId, waiting, after, outputs } = await atLimit();
		expect(after.error).toBeUndefined();
		expect(counts(outputs)).toEqual([1, 0, 0]);
		const before = waiting.run!.data.executionData!.nodeExecutionStack[0].data.main[0]![0].json;
		const item = outputs[0][0].json;
		expect(item).toMatchObject({
			outcome: 'timedOut',
			p_order_id: orderId,
			order_status: 'PENDING',
			input: { payment_link: 'https://pay.example/y' },
			waitedUntil: before.waitedUntil,
		});
		expect(Date.parse(String(item.statusReadAt))).toBeGreaterThan(
			Date.parse(String(before.statusReadAt)),
		);
		expect(requestsTo(box.sandbox, LIST)).toHaveLength(1);
		expect(after.run?.data.resultData.metadata).toEqual({
			paymentGatewayLastLook: `timedOut:${orderId}`,
		});
	});

	it("a wait set up without the time-out note (an earlier version of the node): n8n's time-out as before", async () => {
		const orderId = await newOrder();
		const { definition, options } = waitWorkflow(orderId);
		const waiting = await runWorkflow(definition, options);
		delete waiting.run!.data.executionData!.contextData['node:Gateway'];
		box.sandbox.state.completeOrder(orderId, 'pay');
		box.sandbox.clearRequests();
		const after = await runAfterWaitLimit(definition, waiting, options);
		expect(counts(after.allOutputs.Gateway)).toEqual([1, 0, 0]);
		expect(after.allOutputs.Gateway[0][0].json).toMatchObject({ order_status: 'PENDING' });
		expect(requestsTo(box.sandbox, LIST)).toHaveLength(0);
	});

	it('the last look fails: an error saying nothing was routed and what to do, no output', async () => {
		const { after, outputs } = await atLimit(() =>
			box.sandbox.faults.inject({
				kind: 'bodyFail',
				path: LIST,
				count: 10,
				body: { status: 'fail', code: 'E0500', message: 'Service unavailable' },
			}),
		);
		expect(after.error?.message).toMatch(/Service unavailable/);
		expect((after.error as { description?: string }).description).toMatch(
			/^Wait for Payment read the order once more at the wait limit and could not: nothing left on Timed Out, Paid or Failed/,
		);
		expect(counts(outputs)).toEqual([0, 0, 0]);
	});
});

describe('node description for Wait for Payment', () => {
	const { description } = new PaymentGateway();
	const webhookCredential = description.credentials!.find(
		(c) => c.name === 'paymentGatewayWebhookApi',
	)!;
	const shown = (operation: string) =>
		NodeHelpers.displayParameter(
			{ resource: 'order', operation, authentication: 'hosted' },
			webhookCredential,
			null,
			null,
		);

	it('asks for the webhook credential on Wait for Payment only', () => {
		const operations = (
			description.properties.find(
				(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes('order'),
			)!.options ?? []
		).map((o) => String((o as { value: string }).value));
		expect(operations.filter(shown)).toEqual(['waitForPayment']);
	});

	it('has three outputs for Wait for Payment, one otherwise, and one resume webhook', () => {
		expect(description.outputs).toMatch(/waitForPayment/);
		expect(description.webhooks).toEqual([
			expect.objectContaining({ httpMethod: 'POST', path: '', restartWebhook: true }),
		]);
	});
});
