// Real n8n receives the sandbox's webhook deliveries on a published Payment Gateway Trigger workflow.
import { randomUUID } from 'node:crypto';

import { startSandbox, type Sandbox } from '../sandbox';
import { orderData, sandboxClient } from '../sandbox/testClient';
import { CREDENTIAL_IDS, sandboxCredentials, TRIGGER_PATH, triggerWorkflow } from './fixtures';
import { N8n, nodeItems, type Execution } from './n8n';
import { N8N_VERSION } from './version';

let sandbox: Sandbox;
let n8n: N8n;
let url: string;

const WORKFLOW_ID = 'e2ePaymentEvents';
const webhookId = randomUUID();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const post = (body: unknown, secret?: string) =>
	fetch(url, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			...(secret !== undefined && { 'notification-secret': secret }),
		},
		body: JSON.stringify(body),
	});

beforeAll(async () => {
	sandbox = await startSandbox({ seed: 12, transactionCount: 20 });
	n8n = await N8n.create();
	url = n8n.webhookUrl(webhookId, TRIGGER_PATH);
	await n8n.importCredentials(sandboxCredentials(sandbox));
	await n8n.importWorkflow(triggerWorkflow(WORKFLOW_ID, webhookId));
	await n8n.publish(WORKFLOW_ID);
	await n8n.start();
	// Readiness comes before the published workflows' webhooks are registered: wait for the route.
	// A wrong secret is refused by the node itself, so the probe starts nothing.
	const deadline = Date.now() + 60_000;
	for (;;) {
		const status = (await post({ probe: true }, 'probe')).status;
		if (status !== 404) break;
		if (Date.now() > deadline)
			throw new Error(`webhook never registered at ${url}:\n${n8n.log().slice(-4000)}`);
		await sleep(250);
	}
}, 900_000);

afterAll(async () => {
	await n8n?.dispose();
	await sandbox?.stop();
});

/** Creates a hosted order over the sandbox's HTTP API whose webhook_url is the trigger's URL. */
async function createOrder(amount: number): Promise<string> {
	const data = orderData({ urls: { success: '', cancel: '', failure: '', webhook_url: url } });
	data.order_details.amount = amount;
	const response = await sandboxClient(sandbox).create(data);
	const body = response.body as { p_order_id?: number };
	expect([response.status, body.p_order_id]).toEqual([200, expect.any(Number)]);
	return String(body.p_order_id);
}

const succeeded = (executions: Execution[]) => executions.filter((e) => e.status === 'success');

describe('Payment Gateway Trigger in real n8n', () => {
	let pOrderId: string;
	let first: Execution;

	it('a paid order: the sandbox delivers to n8n, one successful execution with payment_captured', async () => {
		pOrderId = await createOrder(10);
		const completed = await fetch(`${sandbox.baseUrl}/__sandbox/orders/${pOrderId}/complete`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ outcome: 'pay' }),
		});
		expect(completed.status).toBe(200);

		await sandbox.webhooks.idle();
		const events = sandbox.state.eventsOf(pOrderId);
		expect(events).toHaveLength(1);
		expect(events[0].delivery).toBe('delivered');
		const attempts = sandbox.webhooks.attempts.filter((a) => a.eventId === events[0].id);
		expect(attempts.map((a) => [a.url, a.status, a.ok])).toEqual([[url, 200, true]]);

		const executions = await n8n.waitForExecutions(WORKFLOW_ID, (e) => succeeded(e).length >= 1);
		expect(executions).toHaveLength(1);
		first = executions[0];
		expect(first).toMatchObject({ status: 'success', finished: true, mode: 'webhook' });
		const [trigger] = nodeItems(first.data?.resultData.runData, 'Payment Gateway Trigger');
		expect(trigger.json).toMatchObject({
			event: 'payment_captured',
			p_order_id: pOrderId,
			order_status: 'CAPTURED',
			currency: 'AED',
		});
		expect(trigger.json).not.toHaveProperty('headers');
		expect(nodeItems(first.data?.resultData.runData, 'Received')[0].json).toEqual(trigger.json);
	});

	it("n8n's log names, once, the internals found and the exactly-once mode in effect", () => {
		const lines = n8n
			.log()
			.split('\n')
			.filter((line) => line.includes('Payment Gateway nodes on n8n'));
		expect(lines).toHaveLength(1);
		const { level, message } = JSON.parse(lines[0]) as { level: string; message: string };
		expect(level).toBe('info');
		expect(message).toContain(
			`Payment Gateway nodes on n8n ${N8N_VERSION}: exactly-once mode of the trigger: memory + database rows + execution check.`,
		);
		expect(message).toContain('queue Redis: no (regular mode)');
		expect(message).toContain('stored credential: yes');
	});

	it('a delivery with a wrong or missing notification-secret: 401 and no new execution', async () => {
		const payload = sandbox.state.eventsOf(pOrderId)[0].payload;
		const wrong = await post(payload, 'not-the-secret');
		expect(wrong.status).toBe(401);
		expect(await wrong.json()).toEqual({
			message: 'Invalid or missing notification-secret header',
		});
		expect((await post(payload)).status).toBe(401);

		// Executions are saved after the reply: give a wrongly started one time to show up.
		await sleep(2000);
		const executions = await n8n.executions(WORKFLOW_ID);
		expect(executions.map((e) => e.id)).toEqual([first.id]);
	});

	it("a redelivery of an event already run is acknowledged and starts nothing (kept in n8n's processed-data store)", async () => {
		const [event] = sandbox.state.eventsOf(pOrderId);
		await sandbox.webhooks.redeliver(event.id);
		const attempts = sandbox.webhooks.attempts.filter((a) => a.eventId === event.id);
		expect(attempts.map((a) => [a.attempt, a.status, a.ok])).toEqual([
			[1, 200, true],
			[2, 200, true],
		]);
		// The same payload once more, to see the answer the service gets.
		const again = await post(event.payload, sandbox.keys.webhook.notificationSecret);
		expect(again.status).toBe(200);
		expect(await again.json()).toEqual({
			received: true,
			processed: false,
			reason: 'duplicate delivery',
		});

		await sleep(2000);
		expect((await n8n.executions(WORKFLOW_ID)).map((e) => e.id)).toEqual([first.id]);
	});

	it('a secret changed in the credential applies to the very next delivery, an expression secret resolved', async () => {
		const original = sandbox.keys.webhook.notificationSecret;
		const setSecret = async (notificationSecret: string) => {
			const answer = await n8n.rest('PATCH', `/rest/credentials/${CREDENTIAL_IDS.webhook}`, {
				name: 'Sandbox Webhook',
				type: 'paymentGatewayWebhookApi',
				data: { notificationSecret },
			});
			expect(answer.status).toBe(200);
		};
		const [event] = sandbox.state.eventsOf(pOrderId);
		let n = 0;
		const fresh = () => ({ ...event.payload, transaction_id: `rotation-${++n}` });
		try {
			await setSecret('rotated-secret-1');
			expect((await post(fresh(), original)).status).toBe(401);
			expect((await post(fresh(), 'rotated-secret-1')).status).toBe(200);
			const expression = '={{ "rotated-" + "secret-2" }}';
			await setSecret(expression);
			expect((await post(fresh(), 'rotated-secret-1')).status).toBe(401);
			expect((await post(fresh(), expression)).status).toBe(401);
			expect((await post(fresh(), 'rotated-secret-2')).status).toBe(200);
		} finally {
			await setSecret(original);
		}
		expect((await post(fresh(), original)).status).toBe(200);
		const executions = await n8n.waitForExecutions(WORKFLOW_ID, (e) => e.length >= 4);
		expect(executions).toHaveLength(4);
	});
});
