// Payout results posted to callback_url, against the sandbox's HTTP server and a local receiver.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { DEFAULT_REASONS, payoutUtr, startSandbox, type Sandbox } from '../..';
import { sandboxClient } from '../../testClient';
import { MODE, newToken, row, uploadTo, xlsx, type RowInput, type Upload } from './fixtures';

interface Received {
	at: number;
	url: string;
	headers: IncomingHttpHeaders;
	raw: string;
	body: any;
}

let sandbox: Sandbox;
let api: ReturnType<typeof sandboxClient>;
let token: string;
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
/** Status for the n-th post received (0-based). */
let answerFor: (n: number) => number = () => 200;

beforeAll(async () => {
	sandbox = await startSandbox({ transactionCount: 1 });
	api = sandboxClient(sandbox);
	token = await newToken(sandbox);
	receiver = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			const raw = Buffer.concat(chunks).toString('utf8');
			const form = /x-www-form-urlencoded/.test(req.headers['content-type'] ?? '');
			const text = form ? (new URLSearchParams(raw).get('payload') ?? '') : raw;
			const entry = { at: Date.now(), url: req.url ?? '', headers: req.headers, raw };
			received.push({ ...entry, body: JSON.parse(text) });
			res.writeHead(answerFor(received.length - 1)).end();
		});
	});
	await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
	receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(async () => {
	await sandbox.stop();
	await new Promise<void>((resolve) => {
		receiver.close(() => resolve());
		receiver.closeAllConnections();
	});
});
beforeEach(() => {
	received.length = 0;
	answerFor = () => 200;
	// Fast schedules; each test sets what it is about.
	Object.assign(sandbox.state.settings, {
		payoutCallbackDelayMs: 0,
		payoutResultStepMs: 0,
		payoutCallbackRetryDelayScale: 0.001,
	});
});
afterEach(() => sandbox.state.resetSettings());

/** Uploads rows with a callback URL, waits until every post and retry is over. */
async function sendBatch(rows: RowInput[], over: Upload = {}) {
	const answer = await uploadTo(sandbox, token, {
		callback_url: `${receiverUrl}/payout-results?token=acct-7f3c`,
		file: await xlsx(rows),
		...over,
	});
	expect(answer.status).toBe(200);
	await sandbox.state.payoutCallbacks.idle();
	return { requestId: answer.requestId, batch: sandbox.state.payoutBatches.get(answer.requestId)! };
}

const statuses = (post: Received) =>
	post.body.results.map((r: any) => `${r.reference_no}:${r.status}`);
const iso = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

describe('payout results: outcomes', () => {
	test('mixed outcomes arrive as documented, the reversal a step after processed', async () => {
		Object.assign(sandbox.state.settings, { payoutCallbackDelayMs: 50, payoutResultStepMs: 200 });
		const { requestId, batch } = await sendBatch([
			row(1),
			row(2, { Remark: 'sbx:failed=Account_closed' }),
			row(3, { 'Reference No': 'REF-3 sbx:rejected' }),
			row(4, { Remark: 'June sbx:reversed' }),
			row(5, { ...MODE.IMPSP2P, Amount: '99.9', Remark: 'sbx:processed=UTR777' }),
			row(6, { Remark: 'sbx:queued' }),
		]);
		expect(received).toHaveLength(2);
		const [first, second] = received;
		expect(first.url).toBe('/payout-results?token=acct-7f3c');
		expect(first.headers['content-type']).toBe('application/json');
		expect(first.headers['notification-secret']).toBe(sandbox.keys.webhook.notificationSecret);
		expect(first.at - batch.queuedAt).toBeGreaterThanOrEqual(45);
		const entry = (reference: string, status: string, more: object = {}) => ({
			reference_no: reference,
			status,
			amount: '1500.50',
			currency: 'INR',
			updated_at: iso,
			...more,
		});
		const utr4 = payoutUtr(requestId, 'REF-4', 'NEFT');
		expect(utr4).toMatch(/^SBXN\d{12}$/);
		expect(first.body).toEqual({
			event: 'payout.results',
			request_id: requestId,
			sent_at: iso,
			results: [
				entry('REF-1', 'processed', { utr: payoutUtr(requestId, 'REF-1', 'NEFT') }),
				entry('REF-2', 'failed', { reason: 'Account closed' }),
				entry('REF-3 sbx:rejected', 'rejected', { reason: DEFAULT_REASONS.rejected }),
				entry('REF-4', 'processed', { utr: utr4 }),
				entry('REF-5', 'processed', { amount: '99.90', utr: 'UTR777' }),
				entry('REF-6', 'queued', { updated_at: new Date(batch.queuedAt).toISOString() }),
			],
		});
		expect(second.body.results).toEqual([
			entry('REF-4', 'reversed', { utr: utr4, reason: DEFAULT_REASONS.reversed }),
		]);
		// "A while after": a step (200 ms) after the row was processed.
		const processedAt = Date.parse(first.body.results[3].updated_at);
		expect(Date.parse(second.body.results[0].updated_at) - processedAt).toBeGreaterThanOrEqual(200);
		expect(second.at).toBeGreaterThanOrEqual(processedAt + 200);
		expect(batch.results.map((r) => r.status)).toEqual([
			'processed',
			'failed',
			'rejected',
			'reversed',
			'processed',
			'queued',
		]);
		expect(batch.callbackAttempts).toEqual([
			expect.objectContaining({ post: 1, copy: 1, attempt: 1, ok: true, status: 200 }),
			expect.objectContaining({ post: 2, copy: 1, attempt: 1, ok: true, status: 200 }),
		]);
		expect(batch.callbackAttempts[1].results).toEqual([
			{ reference_no: 'REF-4', status: 'reversed' },
		]);
	});

	test('the default outcome applies to rows without a marker; a marker wins', async () => {
		sandbox.state.settings.payoutDefaultOutcome = 'failed';
		const { batch } = await sendBatch([row(1), row(2, { Remark: 'sbx:PROCESSED' })]);
		expect(received[0].body.results).toEqual([
			expect.objectContaining({ status: 'failed', reason: DEFAULT_REASONS.failed }),
			expect.objectContaining({ status: 'processed', utr: expect.any(String) }),
		]);
		expect(received[0].body.results[0].utr).toBeUndefined();
		expect(batch.results.map((r) => r.decidedBy)).toEqual(['default', 'remark']);
	});

	test('a form body carries the same JSON in payload; no secret when none is set', async () => {
		Object.assign(sandbox.state.settings, {
			payoutResultsForm: true,
			payoutResultsSendSecret: false,
		});
		const { requestId } = await sendBatch([row(1)]);
		expect(received[0].headers['content-type']).toBe('application/x-www-form-urlencoded');
		expect(received[0].raw).toMatch(/^payload=%7B/);
		expect(received[0].headers['notification-secret']).toBeUndefined();
		expect(received[0].body).toMatchObject({ event: 'payout.results', request_id: requestId });
	});

	test('no callback_url: nothing posted, the rows still reach their states', async () => {
		const { batch } = await sendBatch([row(1, { Remark: 'sbx:reversed' })], { callback_url: '' });
		expect(received).toHaveLength(0);
		expect(batch.callbackAttempts).toEqual([]);
		expect(batch.results[0].history.map((h) => h.status)).toEqual([
			'queued',
			'processed',
			'reversed',
		]);
	});
});

describe('payout results: repeats and order', () => {
	test('each post repeated N times, one row per post when set', async () => {
		Object.assign(sandbox.state.settings, { payoutResultsRepeat: 2, payoutResultsRowsPerPost: 1 });
		const { batch } = await sendBatch([row(1), row(2, { Remark: 'sbx:failed' })]);
		expect(received.map(statuses)).toEqual([
			['REF-1:processed'],
			['REF-1:processed'],
			['REF-2:failed'],
			['REF-2:failed'],
		]);
		expect(received[1].raw).toBe(received[0].raw);
		expect(batch.callbackAttempts.map((a) => [a.post, a.copy])).toEqual([
			[1, 1],
			[1, 2],
			[2, 1],
			[2, 2],
		]);
	});

	test('out of order: the later states are posted before the earlier ones', async () => {
		Object.assign(sandbox.state.settings, {
			payoutResultsQueuedFirst: true,
			payoutResultsOutOfOrder: true,
			payoutResultStepMs: 20,
		});
		await sendBatch([row(1), row(2, { Remark: 'sbx:reversed' })]);
		expect(received.map(statuses)).toEqual([
			['REF-2:reversed'],
			['REF-1:processed', 'REF-2:processed'],
			['REF-1:queued', 'REF-2:queued'],
		]);
		const updated = received.map((post) => Date.parse(post.body.results.at(-1).updated_at));
		expect(updated[0]).toBeGreaterThan(updated[1]);
		expect(updated[1]).toBeGreaterThan(updated[2]);
	});

	test('in order, queued first: queued, then processed, then reversed', async () => {
		sandbox.state.settings.payoutResultsQueuedFirst = true;
		await sendBatch([row(1), row(2, { Remark: 'sbx:reversed' })]);
		expect(received.map(statuses)).toEqual([
			['REF-1:queued', 'REF-2:queued'],
			['REF-1:processed', 'REF-2:processed'],
			['REF-2:reversed'],
		]);
	});
});

describe('payout results: answers and retries', () => {
	test('5xx is retried with backoff and stops after 6 tries', async () => {
		answerFor = () => 503;
		const { batch } = await sendBatch([row(1)]);
		expect(received).toHaveLength(6);
		expect(batch.callbackAttempts.map((a) => [a.attempt, a.status, a.ok])).toEqual(
			[1, 2, 3, 4, 5, 6].map((n) => [n, 503, false]),
		);
		expect(new Set(received.map((r) => r.raw)).size).toBe(1);
		// Backoff: each wait at least as long as the one before (1, 2, 4, 8, 16 ms here).
		const gaps = batch.callbackAttempts.slice(1).map((a, i) => a.at - batch.callbackAttempts[i].at);
		expect(gaps[4]).toBeGreaterThanOrEqual(16);
	});

	test('401 then 500 then 200: three tries, the last one ok', async () => {
		answerFor = (n) => [401, 500][n] ?? 200;
		const { batch } = await sendBatch([row(1)]);
		expect(batch.callbackAttempts.map((a) => [a.attempt, a.status, a.ok])).toEqual([
			[1, 401, false],
			[2, 500, false],
			[3, 200, true],
		]);
	});

	test('a 400 is final: not retried', async () => {
		answerFor = () => 400;
		const { batch } = await sendBatch([row(1)]);
		expect(received).toHaveLength(1);
		expect(batch.callbackAttempts).toEqual([expect.objectContaining({ status: 400, ok: false })]);
	});

	test('no answer (connection refused) is retried, then given up', async () => {
		const closed = createServer();
		await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
		const { port } = closed.address() as AddressInfo;
		await new Promise<void>((resolve) => closed.close(() => resolve()));
		const { batch } = await sendBatch([row(1)], { callback_url: `http://127.0.0.1:${port}/cb` });
		expect(batch.callbackAttempts).toHaveLength(6);
		expect(batch.callbackAttempts.every((a) => a.error && a.status === undefined)).toBe(true);
	});

	test('stop() cancels scheduled posts and retries', async () => {
		const other = await startSandbox({ transactionCount: 1 });
		try {
			other.state.settings.payoutCallbackDelayMs = 300;
			const answer = await uploadTo(other, await newToken(other), {
				callback_url: `${receiverUrl}/late`,
			});
			expect(answer.status).toBe(200);
			expect(other.state.payoutCallbacks.pending).toBe(1);
		} finally {
			await other.stop();
		}
		expect(other.state.payoutCallbacks.pending).toBe(0);
		await new Promise((resolve) => setTimeout(resolve, 400));
		expect(received).toHaveLength(0);
	});
});

describe('payout results: settings and the page', () => {
	test('the settings are checked like the others', async () => {
		const put = await api.send('PUT', '/__sandbox/settings', {
			payoutDefaultOutcome: 'reversed',
			payoutResultsRepeat: 3,
		});
		expect(put.body.data).toMatchObject({
			payoutDefaultOutcome: 'reversed',
			payoutResultsRepeat: 3,
		});
		for (const [patch, rule] of [
			[{ payoutDefaultOutcome: 'paid' }, 'one of processed, failed, rejected, reversed, queued'],
			[{ payoutResultsRepeat: 0 }, 'an integer ≥ 1'],
			[{ payoutResultStepMs: 1.5 }, 'a non-negative integer'],
			[{ payoutCallbackDelayMs: -1 }, 'a non-negative integer'],
			[{ payoutResultsOutOfOrder: 'yes' }, 'a boolean'],
		] as const) {
			const wrong = await api.send('PUT', '/__sandbox/settings', patch);
			expect({ patch, status: wrong.status, message: wrong.body.message }).toEqual({
				patch,
				status: 400,
				message: expect.stringContaining(`must be ${rule}`),
			});
		}
	});

	test('a browser gets a page of batches, rows, states and posts; JSON stays JSON', async () => {
		answerFor = (n) => (n === 0 ? 500 : 200);
		const { requestId } = await sendBatch([
			row(1, { 'Reference No': 'EMP-<017>' }),
			row(2, { Remark: 'sbx:failed=IFSC_not_found' }),
		]);
		const html = await api.call('/__sandbox/payouts', {
			headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
		});
		expect(html.status).toBe(200);
		expect(html.headers.get('content-type')).toMatch(/^text\/html/);
		const text = html.text;
		expect(text).toContain(`<h2>${requestId}</h2>`);
		expect(text).toContain('EMP-&lt;017&gt;');
		expect(text).not.toContain('EMP-<017>');
		expect(text).toContain(`<td>${payoutUtr(requestId, 'EMP-<017>', 'NEFT')}</td>`);
		expect(text).toContain('<td>IFSC not found</td>');
		expect(text).toMatch(
			/<td>1<\/td><td>1<\/td><td>1<\/td><td>[^<]+<\/td><td>EMP-&lt;017&gt;: processed, REF-2: failed<\/td><td>500<\/td>/,
		);
		expect(text).toMatch(
			/<td>1<\/td><td>1<\/td><td>2<\/td><td>[^<]+<\/td><td>[^<]+<\/td><td>200<\/td>/,
		);
		for (const accept of ['application/json', '*/*']) {
			const listed = await api.call('/__sandbox/payouts', { headers: { accept } });
			const batch = listed.body.data.find((b: any) => b.request_id === requestId);
			expect(batch.results.map((r: any) => r.status)).toEqual(['processed', 'failed']);
			expect(batch.callbackAttempts).toHaveLength(2);
		}
	});
});
