import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import {
	WEBHOOK_RETRY_DELAYS_MS,
	startSandbox,
	webhookRefusal,
	type Sandbox,
	type WebhookEvent,
} from '../..';
import { orderData, sandboxClient } from '../../testClient';

let sandbox: Sandbox;
let api: ReturnType<typeof sandboxClient>;

beforeAll(async () => {
	sandbox = await startSandbox();
	api = sandboxClient(sandbox);
});
afterAll(() => sandbox.stop());
beforeEach(() => {
	// Retries after 10, 20, 40, 80, 160 ms instead of seconds.
	sandbox.state.updateSettings({ webhookRetryDelayScale: 0.01 });
});
afterEach(async () => {
	await sandbox.webhooks.idle();
	sandbox.state.resetSettings();
	await Promise.all(receivers.splice(0).map((r) => r.close()));
});

interface Received {
	method: string;
	path: string;
	headers: IncomingHttpHeaders;
	body: any;
}

/** What the receiver does with its n-th request (1-based): a status, or never answer. */
type Answer = (n: number) => number | 'hang';

interface Receiver {
	url: string;
	received: Received[];
	close(): Promise<void>;
}

const receivers: Receiver[] = [];

async function startReceiver(answer: Answer = () => 200): Promise<Receiver> {
	const received: Received[] = [];
	const hanging: ServerResponse[] = [];
	const server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const text = Buffer.concat(chunks).toString('utf8');
			received.push({
				method: req.method ?? '',
				path: req.url ?? '',
				headers: req.headers,
				body: JSON.parse(text),
			});
			const reply = answer(received.length);
			if (reply === 'hang') hanging.push(res);
			else res.writeHead(reply, { 'content-type': 'text/plain' }).end(String(reply));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	const receiver: Receiver = {
		url: `http://127.0.0.1:${port}/hook`,
		received,
		close: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
	receivers.push(receiver);
	return receiver;
}

/** Creates an AED 100 SALE order sending its webhooks to `webhookUrl` ('' = merchant default). */
async function createOrder(webhookUrl: string): Promise<string> {
	const data = orderData();
	data.urls.webhook_url = webhookUrl;
	const answer = await api.create(data);
	expect(answer.status).toBe(200);
	return String(answer.body.p_order_id);
}

const refund = (pOrderId: string, value: number) =>
	api.manage({
		action: 'REFUND',
		transaction_id: sandbox.state.transactionsByPOrderId.get(pOrderId)!.transaction_id,
		amount: { currencyCode: 'AED', value },
	});

const kinds = (bodies: Array<{ action: string; status: string; order_status: string }>) =>
	bodies.map((b) => [b.action, b.status, b.order_status]);

const attemptsOf = (event: WebhookEvent) =>
	sandbox.webhooks.attempts.filter((a) => a.eventId === event.id);

describe('webhook delivery', () => {
	test('a URL with a query string (an n8n resume URL with its token) is called with the query intact', async () => {
		const receiver = await startReceiver();
		const url = `${receiver.url.replace(/\/hook$/, '')}/webhook-waiting/123?signature=${'ab'.repeat(32)}&x=a%2Fb`;
		const id = await createOrder(url);
		sandbox.state.completeOrder(id, 'decline');
		await sandbox.webhooks.idle();
		expect(receiver.received.map((r) => r.path)).toEqual([
			`/webhook-waiting/123?signature=${'ab'.repeat(32)}&x=a%2Fb`,
		]);
		expect(receiver.received[0].body).toMatchObject({
			p_order_id: id,
			status: 'FAILED',
			order_status: 'FAILED',
		});
	});

	test('pay then two refunds: the payloads in order, JSON POST with the secret', async () => {
		const receiver = await startReceiver();
		const id = await createOrder(receiver.url);
		sandbox.state.completeOrder(id, 'pay');
		await sandbox.webhooks.idle();
		expect((await refund(id, 40)).status).toBe(200);
		expect((await refund(id, 60)).status).toBe(200);
		await sandbox.webhooks.idle();

		const events = sandbox.state.eventsOf(id);
		expect(kinds(receiver.received.map((r) => r.body))).toEqual([
			['SALE', 'SUCCESS', 'CAPTURED'],
			['REFUND', 'SUCCESS', 'PARTIALLY_REFUNDED'],
			['REFUND', 'SUCCESS', 'REFUNDED'],
		]);
		receiver.received.forEach((request, i) => {
			expect(request).toMatchObject({ method: 'POST', path: '/hook' });
			expect(request.headers['content-type']).toBe('application/json');
			expect(request.headers['notification-secret']).toBe(sandbox.keys.webhook.notificationSecret);
			expect(request.body).toEqual(events[i].payload);
		});
		for (const event of events) {
			expect(event).toMatchObject({ pending: false, delivery: 'delivered', attempts: 1 });
			expect(attemptsOf(event)).toEqual([
				{
					eventId: event.id,
					url: receiver.url,
					attempt: 1,
					ok: true,
					status: 200,
					at: expect.any(Number),
					durationMs: expect.any(Number),
				},
			]);
		}
	});

	test('a 500 once: retried after the first (scaled) delay, one 200', async () => {
		const receiver = await startReceiver((n) => (n === 1 ? 500 : 200));
		const id = await createOrder(receiver.url);
		sandbox.state.completeOrder(id, 'pay');
		await sandbox.webhooks.idle();

		const [event] = sandbox.state.eventsOf(id);
		const [first, second] = attemptsOf(event);
		expect(attemptsOf(event)).toHaveLength(2);
		expect(first).toMatchObject({ attempt: 1, ok: false, status: 500 });
		expect(second).toMatchObject({ attempt: 2, ok: true, status: 200 });
		const wait = second.at - (first.at + first.durationMs);
		expect(wait).toBeGreaterThanOrEqual(WEBHOOK_RETRY_DELAYS_MS[0] * 0.01 - 2);
		expect(receiver.received).toHaveLength(2);
		expect(receiver.received[1].body).toEqual(receiver.received[0].body);
		expect(event).toMatchObject({ pending: false, delivery: 'delivered', attempts: 2 });
	});

	test("an order's later event waits until the earlier one is delivered", async () => {
		const receiver = await startReceiver((n) => (n === 1 ? 503 : 200));
		const id = await createOrder(receiver.url);
		sandbox.state.completeOrder(id, 'pay');
		// No idle() here: the refund event is stored while the payment is still being retried.
		await refund(id, 100);
		await sandbox.webhooks.idle();
		expect(kinds(receiver.received.map((r) => r.body))).toEqual([
			['SALE', 'SUCCESS', 'CAPTURED'],
			['SALE', 'SUCCESS', 'CAPTURED'],
			['REFUND', 'SUCCESS', 'REFUNDED'],
		]);
	});

	test('a receiver that never answers: timed out, retried to the maximum, failed', async () => {
		sandbox.state.updateSettings({ webhookTimeoutMs: 50, webhookRetryDelayScale: 0.001 });
		const receiver = await startReceiver(() => 'hang');
		const id = await createOrder(receiver.url);
		sandbox.state.completeOrder(id, 'pay');
		await sandbox.webhooks.idle();

		const [event] = sandbox.state.eventsOf(id);
		const tries = WEBHOOK_RETRY_DELAYS_MS.length + 1;
		expect(receiver.received).toHaveLength(tries);
		expect(attemptsOf(event).map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6]);
		for (const attempt of attemptsOf(event)) {
			expect(attempt).toMatchObject({ ok: false, error: 'timeout after 50 ms' });
			expect(attempt.status).toBeUndefined();
			expect(attempt.durationMs).toBeGreaterThanOrEqual(45);
		}
		expect(event).toMatchObject({ pending: false, delivery: 'failed', attempts: tries });
	});

	test('connection refused: retried to the maximum, then failed', async () => {
		const receiver = await startReceiver();
		await receiver.close();
		sandbox.state.updateSettings({ webhookRetryDelayScale: 0 });
		const id = await createOrder(receiver.url);
		sandbox.state.completeOrder(id, 'pay');
		await sandbox.webhooks.idle();
		const [event] = sandbox.state.eventsOf(id);
		expect(attemptsOf(event)).toHaveLength(6);
		expect(attemptsOf(event)[0].error).toMatch(/ECONNREFUSED/);
		expect(event.delivery).toBe('failed');
	});

	test('plain HTTP to a non-loopback host is refused: one attempt, no request', async () => {
		sandbox.state.settings.defaultWebhookUrl = 'http://10.255.255.1/hook';
		const id = await createOrder('');
		sandbox.state.completeOrder(id, 'pay');
		await sandbox.webhooks.idle();
		const [event] = sandbox.state.eventsOf(id);
		expect(event).toMatchObject({ url: 'http://10.255.255.1/hook', delivery: 'failed' });
		expect(attemptsOf(event)).toEqual([
			expect.objectContaining({
				attempt: 1,
				ok: false,
				error: expect.stringMatching(/^refused: http:\/\/ to 10\.255\.255\.1 is not HTTPS/),
			}),
		]);
		expect(attemptsOf(event)[0].durationMs).toBeLessThan(50);
	});

	test.each([
		'https://hooks.merchant.com/x',
		'http://localhost:5678/webhook',
		'http://app.localhost/x',
		'http://127.0.0.1/hook',
		'http://127.8.9.10:81/hook',
		'http://[::1]:5678/hook',
	])('webhookRefusal(%s): sent', (url) => {
		expect(webhookRefusal(url)).toBe('');
	});

	test.each(['http://hooks.merchant.com/x', 'http://192.168.1.10/x', 'ftp://localhost/x', 'nope'])(
		'webhookRefusal(%s): refused',
		(url) => {
			expect(webhookRefusal(url)).toMatch(/^refused: /);
		},
	);

	test('reserved example hosts are not looked up: failed attempts at once', async () => {
		sandbox.state.updateSettings({ webhookRetryDelayScale: 0 });
		const id = await createOrder('https://merchant.example/hook');
		sandbox.state.completeOrder(id, 'pay');
		await sandbox.webhooks.idle();
		const [event] = sandbox.state.eventsOf(id);
		expect(attemptsOf(event)).toHaveLength(6);
		expect(attemptsOf(event)[0].error).toBe(
			'ENOTFOUND merchant.example (reserved name, not looked up)',
		);
	});

	test('the merchant default URL is used when the order sets none', async () => {
		const receiver = await startReceiver();
		sandbox.state.updateSettings({ defaultWebhookUrl: receiver.url });
		const id = await createOrder('');
		sandbox.state.completeOrder(id, 'decline');
		await sandbox.webhooks.idle();
		const [event] = sandbox.state.eventsOf(id);
		expect(event).toMatchObject({ url: receiver.url, delivery: 'delivered' });
		expect(kinds(receiver.received.map((r) => r.body))).toEqual([['SALE', 'FAILED', 'FAILED']]);
		expect(receiver.received[0].body.p_order_id).toBe(id);
	});

	test('no URL anywhere: nothing to deliver, idle() resolves at once', async () => {
		const id = await createOrder('');
		sandbox.state.completeOrder(id, 'pay');
		await sandbox.webhooks.idle();
		const [event] = sandbox.state.eventsOf(id);
		expect(event).toMatchObject({ url: '', pending: false, delivery: 'none', attempts: 0 });
		await expect(sandbox.webhooks.redeliver(event.id)).rejects.toThrow('has no webhook URL');
	});

	test('webhookDuplicate: each event arrives twice, the copy after a success', async () => {
		const receiver = await startReceiver();
		sandbox.state.updateSettings({ webhookDuplicate: true });
		const id = await createOrder(receiver.url);
		sandbox.state.completeOrder(id, 'pay');
		await refund(id, 100);
		await sandbox.webhooks.idle();
		expect(kinds(receiver.received.map((r) => r.body))).toEqual([
			['SALE', 'SUCCESS', 'CAPTURED'],
			['SALE', 'SUCCESS', 'CAPTURED'],
			['REFUND', 'SUCCESS', 'REFUNDED'],
			['REFUND', 'SUCCESS', 'REFUNDED'],
		]);
		expect(receiver.received[1].body).toEqual(receiver.received[0].body);
		const [sale] = sandbox.state.eventsOf(id);
		expect(attemptsOf(sale)).toEqual([
			expect.objectContaining({ attempt: 1, ok: true }),
			expect.objectContaining({ attempt: 2, ok: true, duplicate: true }),
		]);
		expect(attemptsOf(sale)[0].duplicate).toBeUndefined();
	});

	test('manual mode: nothing sent until deliverPending({ order: reverse })', async () => {
		const receiver = await startReceiver();
		sandbox.state.updateSettings({ webhookDelivery: 'manual' });
		const id = await createOrder(receiver.url);
		sandbox.state.completeOrder(id, 'pay');
		await refund(id, 30);
		await refund(id, 70);
		await sandbox.webhooks.idle();
		expect(receiver.received).toEqual([]);
		expect(sandbox.state.eventsOf(id).map((e) => e.delivery)).toEqual(Array(3).fill('pending'));

		const delivered = await sandbox.webhooks.deliverPending({ order: 'reverse' });
		expect(delivered.map((e) => e.id)).toEqual(
			sandbox.state
				.eventsOf(id)
				.map((e) => e.id)
				.reverse(),
		);
		expect(kinds(receiver.received.map((r) => r.body))).toEqual([
			['REFUND', 'SUCCESS', 'REFUNDED'],
			['REFUND', 'SUCCESS', 'PARTIALLY_REFUNDED'],
			['SALE', 'SUCCESS', 'CAPTURED'],
		]);
		expect(await sandbox.webhooks.deliverPending()).toEqual([]);
		expect(receiver.received).toHaveLength(3);
	});

	test('redeliver: a new run for a delivered event, attempt numbers continue', async () => {
		const receiver = await startReceiver((n) => (n === 2 ? 500 : 200));
		const id = await createOrder(receiver.url);
		sandbox.state.completeOrder(id, 'pay');
		await sandbox.webhooks.idle();
		const [event] = sandbox.state.eventsOf(id);
		expect(await sandbox.webhooks.redeliver(event.id)).toBe(event);
		expect(attemptsOf(event).map((a) => [a.attempt, a.status])).toEqual([
			[1, 200],
			[2, 500],
			[3, 200],
		]);
		expect(receiver.received).toHaveLength(3);
		expect(event.delivery).toBe('delivered');
		await expect(sandbox.webhooks.redeliver('evt_nope')).rejects.toThrow(
			'Event evt_nope not found',
		);
	});
});

describe('webhook HTTP controls', () => {
	test('deliver (reverse), idle, attempts, redeliver', async () => {
		const receiver = await startReceiver();
		await api.send('PUT', '/__sandbox/settings', { webhookDelivery: 'manual' });
		const id = await createOrder(receiver.url);
		sandbox.state.completeOrder(id, 'pay');
		await refund(id, 100);
		const ids = sandbox.state.eventsOf(id).map((e) => e.id);

		const deliver = await api.postJson('/__sandbox/webhooks/deliver', { order: 'reverse' });
		expect(deliver.status).toBe(202);
		expect(deliver.body).toEqual({ status: 'success', data: [...ids].reverse() });
		expect((await api.call('/__sandbox/webhooks/idle')).status).toBe(200);
		expect(kinds(receiver.received.map((r) => r.body))).toEqual([
			['REFUND', 'SUCCESS', 'REFUNDED'],
			['SALE', 'SUCCESS', 'CAPTURED'],
		]);

		const attempts = await api.call(`/__sandbox/webhooks/attempts?event_id=${ids[0]}`);
		expect(attempts.body.data).toEqual([
			expect.objectContaining({ eventId: ids[0], attempt: 1, ok: true, status: 200 }),
		]);

		const again = await api.call(`/__sandbox/events/${ids[0]}/redeliver`, { method: 'POST' });
		expect(again.status).toBe(202);
		expect(again.body.data).toMatchObject({ id: ids[0], delivery: 'pending' });
		await api.call('/__sandbox/webhooks/idle');
		expect(receiver.received).toHaveLength(3);

		const unknown = await api.call('/__sandbox/events/evt_nope/redeliver', { method: 'POST' });
		expect(unknown.status).toBe(404);
		const bad = await api.postJson('/__sandbox/webhooks/deliver', { order: 'random' });
		expect(bad.status).toBe(400);
		expect((await api.postJson('/__sandbox/webhooks/deliver', {})).body.data).toEqual([]);

		expect((await api.call('/__sandbox/webhooks/attempts', { method: 'DELETE' })).status).toBe(200);
		expect(sandbox.webhooks.attempts).toEqual([]);
	});

	test.each([
		[{ webhookDelivery: 'sometimes' }, "settings.webhookDelivery must be 'auto' or 'manual'"],
		[{ webhookTimeoutMs: 0 }, 'settings.webhookTimeoutMs must be a positive integer'],
		[{ webhookRetryDelayScale: -1 }, 'settings.webhookRetryDelayScale must be a non-negative'],
		[{ webhookDuplicate: 'yes' }, 'settings.webhookDuplicate must be a boolean'],
	])('PUT settings %j → 400', async (patch, message) => {
		const answer = await api.send('PUT', '/__sandbox/settings', patch);
		expect(answer.status).toBe(400);
		expect(answer.body.message).toContain(message);
	});
});

describe('stop()', () => {
	test('cancels a scheduled retry and aborts a delivery in flight', async () => {
		const own = await startSandbox({ transactionCount: 1 });
		const failing = await startReceiver(() => 500);
		const hanging = await startReceiver(() => 'hang');
		const ownApi = sandboxClient(own);
		const ids: string[] = [];
		for (const url of [failing.url, hanging.url]) {
			const data = orderData();
			data.urls.webhook_url = url;
			const id = String((await ownApi.create(data)).body.p_order_id);
			own.state.completeOrder(id, 'pay');
			ids.push(id);
		}
		// The 500 answer schedules a retry 1 s later; the other request stays open (5 s time-out).
		while (own.webhooks.attempts.length < 1 || hanging.received.length < 1) {
			await new Promise((resolve) => setImmediate(resolve));
		}
		// stop() waits for the runs to end: quick only if the retry and the request were cut short.
		const started = Date.now();
		await own.stop();
		expect(Date.now() - started).toBeLessThan(500);
		await own.webhooks.idle();
		expect(failing.received).toHaveLength(1);
		expect(own.webhooks.attempts).toEqual([
			expect.objectContaining({ status: 500 }),
			expect.objectContaining({ error: 'sandbox stopped' }),
		]);
		const events = ids.map((id) => own.state.eventsOf(id)[0]);
		expect(events.map((e) => e.pending)).toEqual([true, true]);
	});
});
