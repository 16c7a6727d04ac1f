// The cases of Order > Wait for Payment, run by the regular-mode and the queue-mode suites.
import {
	deliver,
	BROKEN_ID,
	BROKEN_TRIGGER_PATH,
	EARLY_ID,
	EXAMPLE,
	lastEvent,
	ran,
	startWaiting,
	triggerUrlFor,
	untilExecution,
	untilFinished,
	waitOutputs,
	type WaitEnv,
	type Waiting,
} from './wait-for-payment';
import type { Execution } from './n8n';
import { PAYMENT_EVENTS } from './wait-for-payment';

/** The payment-events workflow's executions started by a status of this order. */
async function lateRuns(env: WaitEnv, pOrderId: string): Promise<Execution[]> {
	const executions = await env.main.executions(PAYMENT_EVENTS.id);
	return executions.filter((e) =>
		ran(e, 'Payment Gateway Trigger').some((item) => String(item.json.p_order_id) === pOrderId),
	);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Outputs as [timedOut, paid, failed] item counts. */
const counts = (execution: Execution) =>
	[0, 1, 2].map((i) => (waitOutputs(execution)[i] ?? []).length);

/** `afterResume` adds the suite's own checks (queue mode: the worker that finished it). */
export function waitForPaymentCases(
	getEnv: () => WaitEnv,
	prefix: string,
	afterResume: (execution: Execution) => void = () => undefined,
): void {
	const ref = (name: string) => `${prefix}-${name}-${Date.now().toString(36)}`;
	let unpaid: Waiting;
	let missed: Waiting;

	// First, so that its wait limit (n8n checks once a minute) runs out alongside the other cases.
	it('an order left unpaid: its execution waits, with a one-minute wait limit', async () => {
		unpaid = await startWaiting(getEnv(), ref('unpaid'), 1);
	});

	it(`the trigger path broken (${BROKEN_ID}: Late Status Trigger URL of an unpublished trigger): an order paid during a one-minute wait`, async () => {
		const env = getEnv();
		missed = await startWaiting(env, ref('missed'), 1, 'pay-by-link-broken', BROKEN_TRIGGER_PATH);
		env.sandbox.state.completeOrder(missed.pOrderId, 'pay');
	});

	it('paid: resumed once on Paid with the service payload; a repeated delivery starts nothing', async () => {
		const env = getEnv();
		const waiting = await startWaiting(env, ref('paid'));
		env.sandbox.state.completeOrder(waiting.pOrderId, 'pay');
		const execution = await untilFinished(env, waiting);
		expect(execution.status).toBe('success');
		expect(counts(execution)).toEqual([0, 1, 0]);
		const [item] = waitOutputs(execution)[1];
		expect(item.json).toMatchObject({
			outcome: 'paid',
			source: 'webhook',
			event: 'payment_captured',
			p_order_id: waiting.pOrderId,
			m_order_id: waiting.ref,
			order_status: 'CAPTURED',
			status: 'SUCCESS',
		});
		expect(item.json.transaction_time_iso).toMatch(/^\d{4}-\d{2}-\d{2}T/);
		expect(ran(execution, 'Fulfil order')).toEqual([
			expect.objectContaining({
				json: expect.objectContaining({
					p_order_id: waiting.pOrderId,
					order_id: waiting.ref,
					outcome: 'paid',
				}),
			}),
		]);
		expect(ran(execution, 'Tell customer')).toEqual([]);
		expect(ran(execution, 'E-mail reminder')).toEqual([]);
		afterResume(execution);

		const before = (await env.main.executions(EXAMPLE.id)).length;
		const event = lastEvent(env.sandbox, waiting.pOrderId);
		const again = await deliver(
			waiting.resumeUrl,
			env.sandbox.keys.webhook.notificationSecret,
			event.payload,
		);
		expect(again.status).toBe(409);
		// The same status again through the trigger: the order was handled, nothing runs there either.
		const passedOn = await deliver(
			waiting.webhookUrl,
			env.sandbox.keys.webhook.notificationSecret,
			event.payload,
		);
		expect([passedOn.status, JSON.parse(passedOn.body)]).toEqual([
			200,
			{ received: true, processed: false, reason: 'order handled' },
		]);
		await env.sandbox.webhooks.idle();
		expect((await env.main.executions(EXAMPLE.id)).length).toBe(before);
		const after = await untilFinished(env, waiting);
		expect(after.data?.resultData.runData['Fulfil order']).toHaveLength(1);
		expect(await lateRuns(env, waiting.pOrderId)).toEqual([]);
	});

	it('declined: resumed on Failed with the payload', async () => {
		const env = getEnv();
		const waiting = await startWaiting(env, ref('declined'));
		env.sandbox.state.completeOrder(waiting.pOrderId, 'decline');
		const execution = await untilFinished(env, waiting);
		expect(execution.status).toBe('success');
		expect(counts(execution)).toEqual([0, 0, 1]);
		expect(waitOutputs(execution)[2][0].json).toMatchObject({
			outcome: 'failed',
			event: 'payment_failed',
			p_order_id: waiting.pOrderId,
			status: 'FAILED',
			order_status: 'FAILED',
			reason: 'Declined by issuer',
		});
		expect(ran(execution, 'Tell customer')[0].json).toMatchObject({
			p_order_id: waiting.pOrderId,
			outcome: 'failed',
			to: 'aisha@example.com',
		});
		expect(ran(execution, 'Fulfil order')).toEqual([]);
	});

	it('wrong or missing secret → 401; another order or a non-final status → acknowledged; it waits for its own final status', async () => {
		const env = getEnv();
		const secret = env.sandbox.keys.webhook.notificationSecret;
		const [waiting, other] = await Promise.all([
			startWaiting(env, ref('guarded')),
			startWaiting(env, ref('other')),
		]);
		// The customer of the other order pays: its delivery goes to the other execution; a copy to this one.
		env.sandbox.state.completeOrder(other.pOrderId, 'pay');
		const otherPayload = lastEvent(env.sandbox, other.pOrderId).payload;
		const ownFinal = { ...otherPayload, p_order_id: waiting.pOrderId, m_order_id: waiting.ref };
		expect(await deliver(waiting.resumeUrl, 'not-the-secret', ownFinal)).toMatchObject({
			status: 401,
		});
		expect(await deliver(waiting.resumeUrl, undefined, ownFinal)).toMatchObject({ status: 401 });
		const forOther = await deliver(waiting.resumeUrl, secret, otherPayload);
		expect(forOther.status).toBe(200);
		expect(JSON.parse(forOther.body)).toMatchObject({ received: true, resumed: false });
		const pending = await deliver(waiting.resumeUrl, secret, {
			...ownFinal,
			status: 'SUCCESS',
			order_status: 'PENDING',
		});
		expect(pending.status).toBe(200);
		expect(JSON.parse(pending.body)).toMatchObject({ received: true, resumed: false });
		await sleep(1000);
		expect((await untilExecution(env.main, waiting.executionId, () => true)).status).toBe(
			'waiting',
		);
		expect((await untilFinished(env, other)).status).toBe('success');

		env.sandbox.state.completeOrder(waiting.pOrderId, 'pay');
		const execution = await untilFinished(env, waiting);
		expect(counts(execution)).toEqual([0, 1, 0]);
		expect(waitOutputs(execution)[1][0].json.p_order_id).toBe(waiting.pOrderId);
	});

	it('the final status delivered three times at once: resumed once', async () => {
		const env = getEnv();
		const waiting = await startWaiting(env, ref('thrice'));
		env.sandbox.state.completeOrder(waiting.pOrderId, 'pay');
		const { payload } = lastEvent(env.sandbox, waiting.pOrderId);
		const secret = env.sandbox.keys.webhook.notificationSecret;
		const answers = await Promise.all([
			deliver(waiting.resumeUrl, secret, payload),
			deliver(waiting.resumeUrl, secret, payload),
		]);
		const execution = await untilFinished(env, waiting);
		await env.sandbox.webhooks.idle();
		expect(
			answers.filter((a) => a.status === 200 && a.body.includes('"resumed":true')).length,
		).toBeLessThanOrEqual(1);
		expect(execution.status).toBe('success');
		expect(execution.data?.resultData.runData['Fulfil order']).toHaveLength(1);
		expect(counts(execution)).toEqual([0, 1, 0]);
	});

	it('20 executions waiting at once: each resumed by its own payment only', async () => {
		const env = getEnv();
		const started = await Promise.all(
			Array.from({ length: 20 }, (_, i) => startWaiting(env, ref(`burst${i}`))),
		);
		// Newest first, half paid, half declined.
		for (const [i, waiting] of [...started.entries()].reverse())
			env.sandbox.state.completeOrder(waiting.pOrderId, i % 2 === 0 ? 'pay' : 'decline');
		const executions = await Promise.all(
			started.map(async (waiting) => await untilFinished(env, waiting, 120_000)),
		);
		executions.forEach((execution, i) => {
			const output = i % 2 === 0 ? 1 : 2;
			expect(execution.status).toBe('success');
			expect(counts(execution)).toEqual(output === 1 ? [0, 1, 0] : [0, 0, 1]);
			expect(waitOutputs(execution)[output][0].json).toMatchObject({
				p_order_id: started[i].pOrderId,
				m_order_id: started[i].ref,
			});
		});
	}, 240_000);

	it('paid before the wait began: routed to Paid at once from the order status', async () => {
		const env = getEnv();
		const order = ref('early');
		const answer = await fetch(`${env.hookBase}/webhook/pay-early`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({
				order_id: order,
				amount: 30,
				currency: 'AED',
				customer: { email: 'early@example.com' },
			}),
		});
		expect(answer.status).toBe(200);
		const mine = (e: Execution) =>
			ran(e, 'Create Payment')[0]?.json.m_order_id === order &&
			(e.finished || e.status === 'error');
		const executions = await env.main.waitForExecutions(
			EARLY_ID,
			(list) => list.some(mine),
			60_000,
		);
		const execution = executions.find(mine)!;
		expect(execution.status).toBe('success');
		expect(counts(execution)).toEqual([0, 1, 0]);
		expect(waitOutputs(execution)[1][0].json).toMatchObject({
			outcome: 'paid',
			source: 'lookup',
			m_order_id: order,
			status: 'CAPTURED',
		});
		// The service's delivery came while the execution ran (or after it ended): n8n refused it, 409.
		await env.sandbox.webhooks.idle();
		const event = lastEvent(env.sandbox, String(waitOutputs(execution)[1][0].json.p_order_id));
		const answers = env.sandbox.webhooks.attempts
			.filter((a) => a.eventId === event.id)
			.map((a) => a.status);
		expect(answers.length).toBeGreaterThan(0);
		expect(new Set(answers)).toEqual(new Set([409]));
	});

	it("paid during the wait, its status never delivered: the last look at the limit takes Paid; the trigger's later delivery of it runs nothing", async () => {
		const env = getEnv();
		const execution = await untilFinished(env, missed, 170_000);
		await env.sandbox.webhooks.idle();
		const event = lastEvent(env.sandbox, missed.pOrderId);
		// Every delivery of the payment reached no trigger.
		const answers = env.sandbox.webhooks.attempts
			.filter((a) => a.eventId === event.id)
			.map((a) => a.status);
		expect(answers.length).toBeGreaterThan(0);
		expect(new Set(answers)).toEqual(new Set([404]));
		expect(execution.status).toBe('success');
		expect(counts(execution)).toEqual([0, 1, 0]);
		expect(waitOutputs(execution)[1][0].json).toMatchObject({
			outcome: 'paid',
			source: 'lookup',
			p_order_id: missed.pOrderId,
			m_order_id: missed.ref,
			status: 'CAPTURED',
		});
		expect(ran(execution, 'Fulfil order')).toHaveLength(1);
		expect(ran(execution, 'E-mail reminder')).toEqual([]);
		afterResume(execution);
		// The trigger's delivery of that payment arrives after all (its path fixed): the order was
		// handled by the last look, so the trigger's workflow does not run it as a late payment.
		const secret = env.sandbox.keys.webhook.notificationSecret;
		const passedOn = await deliver(
			triggerUrlFor(env.hookBase, missed.resumeUrl),
			secret,
			event.payload,
		);
		expect([passedOn.status, JSON.parse(passedOn.body)]).toEqual([
			200,
			{ received: true, processed: false, reason: 'order handled' },
		]);
		expect(await lateRuns(env, missed.pOrderId)).toEqual([]);
		expect(
			(await untilFinished(env, missed)).data?.resultData.runData['Fulfil order'],
		).toHaveLength(1);
	}, 260_000);

	it('no final status within the wait limit: Timed Out with the order, the other outputs untouched', async () => {
		const env = getEnv();
		const execution = await untilFinished(env, unpaid, 170_000);
		expect(execution.status).toBe('success');
		expect(counts(execution)).toEqual([1, 0, 0]);
		expect(waitOutputs(execution)[0][0].json).toMatchObject({
			outcome: 'timedOut',
			p_order_id: unpaid.pOrderId,
			m_order_id: unpaid.ref,
			order_status: 'PENDING',
		});
		// The status as read once more at the wait limit, not when the wait began.
		const { statusReadAt, waitedUntil } = waitOutputs(execution)[0][0].json;
		expect(Date.parse(statusReadAt)).toBeGreaterThanOrEqual(Date.parse(waitedUntil));
		const [reminder] = ran(execution, 'E-mail reminder');
		expect(reminder.json).toMatchObject({
			outcome: 'timedOut',
			p_order_id: unpaid.pOrderId,
			to: 'aisha@example.com',
		});
		expect(reminder.json.payment_link).toContain(`/checkout/pay/${unpaid.pOrderId}`);
		expect(waitOutputs(execution)[0][0].json.laterPayment).toMatch(
			/^A payment of this order after now starts the workflow of the Payment Gateway Trigger at .*\/webhook\/5f0f9c1e-2f52-4c4e-9a34-7c1d2b8e6a01\/payment-gateway, once, with late: true\.$/,
		);
		afterResume(execution);
		// The customer pays after the time-out: the payment-events workflow runs once with it, marked
		// late; the timed-out execution stays as it was.
		env.sandbox.state.completeOrder(unpaid.pOrderId, 'pay');
		const deadline = Date.now() + 60_000;
		let late = await lateRuns(env, unpaid.pOrderId);
		while (!late.some((e) => e.finished) && Date.now() < deadline) {
			await sleep(500);
			late = await lateRuns(env, unpaid.pOrderId);
		}
		await env.sandbox.webhooks.idle();
		const event = lastEvent(env.sandbox, unpaid.pOrderId);
		const secret = env.sandbox.keys.webhook.notificationSecret;
		// The service delivering it again starts nothing more.
		expect((await deliver(unpaid.webhookUrl, secret, event.payload)).status).toBe(200);
		late = await lateRuns(env, unpaid.pOrderId);
		expect(late).toHaveLength(1);
		expect(ran(late[0], 'Payment Gateway Trigger')[0].json).toMatchObject({
			late: true,
			lateForExecution: unpaid.executionId,
			event: 'payment_captured',
			m_order_id: unpaid.ref,
		});
		expect(ran(late[0], 'Fulfil order')).toHaveLength(1);
		expect(
			(await untilFinished(env, unpaid)).data?.resultData.runData['Fulfil order'],
		).toBeUndefined();
	}, 260_000);
}
