// `npm start`'s demo (scripts/start.sh, then scripts/demo.js: the sandbox and n8n with this package,
// the examples imported), started as a user starts it: `npm start` from the clone, in its default
// folder (.tools/demo-n8n). Two things differ, each on purpose: free ports instead of 5678/5680 (a
// developer's own demo may hold those), and --reset, so the run begins as on a fresh clone (it
// removes an earlier demo folder of this clone). Every address it prints is followed as a user
// would and none answers 404; the payout results example is published and its printed address is
// the one recorded for the payout account; a payment made on the sandbox runs the payment-events workflow once. Pages and the sandbox's addresses are opened with GET; webhook
// addresses printed with a method are asked with a CORS preflight for that method, which n8n
// answers from its registered webhooks (404 in n8n 1.x, 500 in 2.41 when none) without running the workflow. Each answer
// must start within 90 s and end 30 s later, except an event stream (the MCP server), which the
// output must call one.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import {
	addresses,
	folder,
	follow,
	printed,
	printedAfter,
	saidAbout,
	startDemo,
	stopDemo,
} from './demo-output';
import { REST_HEADERS, executionsOf, ownerCookie, runDataOf, until } from './demo-rest';
import { freePortPair } from './n8n';

beforeAll(async () => {
	const port = await freePortPair();
	const sandboxPort = await freePortPair();
	// The demo boots n8n several times (import, then start): minutes on a busy machine.
	await startDemo(port, sandboxPort);
}, 1_200_000);

afterAll(async () => await stopDemo(), 60_000);

describe('the addresses npm start prints', () => {
	it('prints the editor, the sandbox, its controls, checkout and payout addresses', () => {
		const urls = addresses(printed()).map((a) => a.url);
		expect(urls.some((u) => /\/__sandbox\/$/.test(u))).toBe(true);
		expect(urls.some((u) => /\/checkout$/.test(u))).toBe(true);
		expect(urls.some((u) => /\/payout$/.test(u))).toBe(true);
		expect(urls.some((u) => /\/workflow\//.test(u))).toBe(true);
	});

	it('answers every one of them in time (none 404), each page ending; a stream is said to be one', async () => {
		const results: string[] = [];
		const streams: string[] = [];
		for (const address of addresses(printed())) {
			const { status, ended, contentType, headersMs } = await follow(address);
			const stream = !ended && contentType.startsWith('text/event-stream');
			if (stream) streams.push(address.url);
			results.push(
				`${status} ${ended ? 'ended' : stream ? 'stream' : 'did not end'} ${address.method} ${address.url} (headers in ${headersMs} ms)`,
			);
		}
		const failed = results.filter((line) => /^(404|5\d\d|no answer)|did not end/.test(line));
		const log = join(folder, 'n8n.log');
		const tail = failed.length > 0 && existsSync(log) ? readFileSync(log, 'utf8').slice(-6000) : '';
		console.log(`${results.join('\n')}${tail ? `\n--- n8n.log (end) ---\n${tail}` : ''}`);
		expect(failed).toEqual([]);
		expect(results.length).toBeGreaterThan(6);
		// The example MCP server's address is a stream, and the output says so and what to use.
		expect(streams.some((url) => /\/mcp\//.test(url))).toBe(true);
		for (const url of streams) {
			expect({ url, said: saidAbout(url) }).toEqual({
				url,
				said: expect.stringMatching(/event stream[^]*MCP client/),
			});
		}
	}, 600_000);
});

describe('the payout results workflow in the demo', () => {
	it("is published and its printed address is the payout account's results address", async () => {
		const editor = printedAfter(/n8n editor/);
		const address = printedAfter(/Payout results address:/);
		expect(address).toBe(`${editor}/webhook/payout-results`);
		expect(printed()).toMatch(/ {2}Payout results {2}\[published\]/);
		// Recorded by the trigger when n8n activated it: the workflow id and its production URL.
		const cookie = await ownerCookie(editor);
		const rowsOfResultsTable = async () => {
			const listed = (await (
				await fetch(`${editor}/rest/data-tables-global`, { headers: { ...REST_HEADERS, cookie } })
			).json()) as { data: { data: Array<{ id: string; name: string; projectId: string }> } };
			const table = listed.data.data.find((t) => t.name.startsWith('Payout results '));
			if (!table) return [];
			const rows = (await (
				await fetch(`${editor}/rest/projects/${table.projectId}/data-tables/${table.id}/rows`, {
					headers: { ...REST_HEADERS, cookie },
				})
			).json()) as { data: { data: Array<Record<string, unknown>> } };
			return rows.data.data.filter((row) => row.url).map((row) => [row.workflow_id, row.url]);
		};
		const recorded = await until(rowsOfResultsTable, (rows) => rows.length > 0, 60_000);
		expect(recorded).toEqual([['exPayoutResults', address]]);
	}, 120_000);
});

describe('a payment in the demo', () => {
	it("prints the trigger's exactly-once mode, the documented one", () => {
		expect(printed()).toContain(
			'trigger       exactly-once mode: memory + database rows + execution check',
		);
	});

	it('an order placed on the checkout webhook and paid on the sandbox runs "payment events" once', async () => {
		const editor = printedAfter(/n8n editor/);
		const sandbox = printedAfter(/\nSandbox /);
		const order = await fetch(`${editor}/webhook/checkout`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ order_id: `WEB-${Date.now()}`, amount: 25, currency: 'AED' }),
		});
		expect(order.status).toBe(200);
		const { p_order_id: pOrderId } = (await order.json()) as { p_order_id: number };
		const paid = await fetch(`${sandbox}/__sandbox/orders/${pOrderId}/complete`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ outcome: 'pay' }),
		});
		expect(paid.status).toBe(200);
		// Judged by state: the sandbox's delivery record and the execution n8n saved.
		let event: { delivery?: string; attempts?: number } | undefined;
		let runs: Array<{ status: string }> = [];
		for (let tries = 0; tries < 240; tries++) {
			const events = (await (
				await fetch(`${sandbox}/__sandbox/events`, { headers: { accept: 'application/json' } })
			).json()) as { data: Array<{ p_order_id: string; delivery: string; attempts: number }> };
			event = events.data.find((e) => e.p_order_id === String(pOrderId));
			runs = await executionsOf(editor, 'exPaymentEvents');
			if (event?.delivery !== undefined && event.delivery !== 'pending' && runs.length > 0) break;
			await new Promise((done) => setTimeout(done, 500));
		}
		const log = existsSync(join(folder, 'n8n.log'))
			? readFileSync(join(folder, 'n8n.log'), 'utf8').slice(-4000)
			: '';
		expect({
			event,
			runs: runs.map((r) => r.status),
			log: event?.attempts === 1 ? '' : log,
		}).toEqual({
			event: expect.objectContaining({ delivery: 'delivered', attempts: 1 }),
			runs: ['success'],
			log: '',
		});
	}, 180_000);

	it('the pay-and-wait example, paid during its wait, resumes on Paid ("Fulfil order")', async () => {
		const editor = printedAfter(/n8n editor/);
		const sandbox = printedAfter(/\nSandbox /);
		const started = await fetch(`${editor}/webhook/pay-by-link`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({
				order_id: `WAIT-${Date.now()}`,
				amount: 25,
				currency: 'AED',
				customer: { name: 'Aisha Khan', email: 'aisha@example.com' },
				wait_minutes: 10,
			}),
		});
		expect(started.status).toBe(200);
		const [waiting] = await until(
			async () =>
				(await executionsOf(editor, 'exPayAndWait')).filter((r) => r.status === 'waiting'),
			(runs) => runs.length > 0,
			120_000,
		);
		expect(waiting).toBeDefined();
		const created = (await runDataOf(editor, waiting.id))['Create Payment'];
		const pOrderId = created?.[0]?.data?.main?.[0]?.[0]?.json.p_order_id;
		expect(pOrderId).toEqual(expect.any(Number));
		const paid = await fetch(`${sandbox}/__sandbox/orders/${String(pOrderId)}/complete`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ outcome: 'pay' }),
		});
		expect(paid.status).toBe(200);
		const ended = await until(
			async () => (await executionsOf(editor, 'exPayAndWait')).find((r) => r.id === waiting.id),
			(run) => run?.status !== 'waiting',
			120_000,
		);
		const runData = await runDataOf(editor, waiting.id);
		expect({ status: ended?.status, fulfilled: 'Fulfil order' in runData }).toEqual({
			status: 'success',
			fulfilled: true,
		});
		expect('E-mail reminder' in runData).toBe(false);
	}, 300_000);
});
