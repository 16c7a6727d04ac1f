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
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { freePortPair } from './n8n';

const ROOT = resolve(__dirname, '../..');
let demo: ChildProcess | undefined;
let printed = '';
/** The demo's default n8n folder (its n8n.log is shown when an address fails). */
const folder = join(ROOT, '.tools/demo-n8n');

/** Starts the demo and resolves with what it printed once it is ready (or rejects on exit). */
function startDemo(port: number, sandboxPort: number): Promise<string> {
	const { DEMO_N8N_FOLDER: _ignored, ...env } = process.env;
	const child = spawn(
		'npm',
		['start', '--', '--reset', '--port', String(port), '--sandbox-port', String(sandboxPort)],
		{ cwd: ROOT, detached: true, env },
	);
	demo = child;
	return new Promise((done, fail) => {
		child.stdout?.on('data', (chunk: Buffer) => {
			printed += chunk.toString();
			if (printed.includes('Ctrl-C stops n8n and the sandbox.')) done(printed);
		});
		child.stderr?.on('data', (chunk: Buffer) => (printed += chunk.toString()));
		child.once('exit', (code) => fail(new Error(`demo ended (${code}):\n${printed}`)));
	});
}

/** Every address printed, with the method printed before it (GET when none). */
function addresses(text: string): Array<{ method: string; url: string }> {
	const found = new Map<string, string>();
	for (const match of text.matchAll(
		/(?:\b(POST|PUT|GET|DELETE|PATCH)\s+)?(https?:\/\/[^\s'"()]+)/g,
	)) {
		const url = match[2].replace(/[.,]$/, '');
		const method = match[1] ?? (/-X POST\s+$/.test(text.slice(0, match.index)) ? 'POST' : 'GET');
		if (!found.has(url) || method !== 'GET') found.set(url, method);
	}
	return [...found].map(([url, method]) => ({ method, url }));
}

/**
 * How long an address may take to answer (status and headers): the first use of a path can load
 * n8n modules, slow on a busy machine; then how long its body may take to end.
 */
const HEADERS_WITHIN_MS = 90_000;
const BODY_WITHIN_MS = 30_000;

interface Followed {
	status: string;
	/** The answer ended within the time limit; false: it was still streaming. */
	ended: boolean;
	contentType: string;
	/** How long the status line and headers took. */
	headersMs: number;
}

/** Reads the body until it ends or the deadline passes (an MCP address streams for ever). */
async function readsToEnd(response: Response, deadline: number): Promise<boolean> {
	const reader = response.body?.getReader();
	if (!reader) return true;
	let timer: NodeJS.Timeout | undefined;
	const late = new Promise<'late'>((done) => {
		timer = setTimeout(() => done('late'), Math.max(0, deadline - Date.now()));
	});
	try {
		for (;;) {
			const chunk = await Promise.race([reader.read(), late]);
			if (chunk === 'late') return false;
			if (chunk.done) return true;
		}
	} finally {
		clearTimeout(timer);
		await reader.cancel().catch(() => undefined);
	}
}

/** Follows an address as a browser (GET) or a CORS preflight (other methods), with a time limit. */
async function follow({ method, url }: { method: string; url: string }): Promise<Followed> {
	const started = Date.now();
	const noHeaders = new AbortController();
	const timer = setTimeout(
		() => noHeaders.abort(new DOMException('no headers in time', 'TimeoutError')),
		HEADERS_WITHIN_MS,
	);
	const signal = noHeaders.signal;
	try {
		// Uncompressed: n8n's compression holds back an event stream's first bytes (headers
		// included), so a browser or curl asking for gzip sees nothing at all; this way the stream
		// shows itself by its content type while pages answer as usual.
		const response =
			method === 'GET'
				? await fetch(url, {
						redirect: 'follow',
						signal,
						headers: { 'accept-encoding': 'identity' },
					})
				: await fetch(url, {
						method: 'OPTIONS',
						headers: { origin: 'http://localhost', 'access-control-request-method': method },
						signal,
					});
		clearTimeout(timer);
		const contentType = response.headers.get('content-type') ?? '';
		const headersMs = Date.now() - started;
		return {
			status: String(response.status),
			ended: await readsToEnd(response, Date.now() + BODY_WITHIN_MS),
			contentType,
			headersMs,
		};
	} catch (error) {
		clearTimeout(timer);
		const status = `no answer (${(error as Error).name})`;
		return { status, ended: false, contentType: '', headersMs: Date.now() - started };
	}
}

/** The printed lines from an address to the next address: what is said about it. */
function saidAbout(url: string): string {
	const at = printed.indexOf(url);
	const rest = printed.slice(at + url.length);
	const next = rest.search(/https?:\/\//);
	return rest.slice(0, next < 0 ? undefined : next);
}

beforeAll(async () => {
	const port = await freePortPair();
	const sandboxPort = await freePortPair();
	// The demo boots n8n several times (import, then start): minutes on a busy machine.
	await startDemo(port, sandboxPort);
}, 1_200_000);

afterAll(async () => {
	if (demo?.pid && demo.exitCode === null) {
		const exited = new Promise((done) => demo?.once('exit', done));
		// The whole group: npm, the start script and the demo under it.
		process.kill(-demo.pid, 'SIGINT');
		await Promise.race([exited, new Promise((done) => setTimeout(done, 30_000))]);
	}
}, 60_000);

describe('the addresses npm start prints', () => {
	it('prints the editor, the sandbox, its controls, checkout and payout addresses', () => {
		const urls = addresses(printed).map((a) => a.url);
		expect(urls.some((u) => /\/__sandbox\/$/.test(u))).toBe(true);
		expect(urls.some((u) => /\/checkout$/.test(u))).toBe(true);
		expect(urls.some((u) => /\/payout$/.test(u))).toBe(true);
		expect(urls.some((u) => /\/workflow\//.test(u))).toBe(true);
	});

	it('answers every one of them in time (none 404), each page ending; a stream is said to be one', async () => {
		const results: string[] = [];
		const streams: string[] = [];
		for (const address of addresses(printed)) {
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

/** The address printed after `label` (the first one on its line). */
function printedAfter(label: RegExp): string {
	const match = new RegExp(`${label.source}[^\\n]*?(https?://[^\\s'"()]+)`).exec(printed);
	if (!match) throw new Error(`npm start printed no ${label.source}:\n${printed}`);
	return match[1].replace(/\/$/, '');
}

/** The demo owner's session cookie for the editor's REST API. */
async function ownerCookie(editor: string): Promise<string> {
	const login = await fetch(`${editor}/rest/login`, {
		method: 'POST',
		headers: REST_HEADERS,
		body: JSON.stringify({ emailOrLdapLoginId: 'demo@example.com', password: 'Demo-Passw0rd' }),
	});
	expect(login.status).toBe(200);
	return login.headers
		.getSetCookie()
		.map((c) => c.split(';')[0])
		.join('; ');
}
const REST_HEADERS = { 'content-type': 'application/json', 'browser-id': 'start-output-suite' };

interface Run {
	id: string;
	status: string;
}

/** The demo's executions of one workflow, read as its owner through the editor's REST API. */
async function executionsOf(editor: string, workflowId: string): Promise<Run[]> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const answer = await fetch(`${editor}/rest/executions?filter=${filter}`, {
		headers: { ...REST_HEADERS, cookie: await ownerCookie(editor) },
	});
	return ((await answer.json()) as { data: { results: Run[] } }).data.results;
}

/** n8n's flatted form (every object and string an entry, referenced by its index as text). */
function unflatten(text: string): unknown {
	const input = JSON.parse(text) as unknown[];
	const revived = new Map<number, unknown>();
	const at = (index: number): unknown => {
		if (revived.has(index)) return revived.get(index);
		const value = input[index];
		if (typeof value !== 'object' || value === null) return value;
		const out: Record<string, unknown> = Array.isArray(value) ? ([] as never) : {};
		revived.set(index, out);
		for (const [key, item] of Object.entries(value))
			out[key] = typeof item === 'string' ? at(Number(item)) : item;
		return out;
	};
	return at(0);
}

type RunData = Record<
	string,
	Array<{ data?: { main?: Array<Array<{ json: Record<string, unknown> }>> } }>
>;

/** One execution's run data (node name → its runs), as n8n saved it. */
async function runDataOf(editor: string, id: string): Promise<RunData> {
	const answer = await fetch(`${editor}/rest/executions/${id}`, {
		headers: { ...REST_HEADERS, cookie: await ownerCookie(editor) },
	});
	const { data } = (await answer.json()) as { data: { data: string } };
	return (unflatten(data.data) as { resultData: { runData: RunData } }).resultData.runData;
}

/** Polls `read` every half second until `done` holds or `ms` pass; the last value read. */
async function until<T>(
	read: () => Promise<T>,
	done: (value: T) => boolean,
	ms: number,
): Promise<T> {
	let value = await read();
	for (const deadline = Date.now() + ms; !done(value) && Date.now() < deadline; ) {
		await new Promise((resolve) => setTimeout(resolve, 500));
		value = await read();
	}
	return value;
}

describe('the payout results workflow in the demo', () => {
	it("is published and its printed address is the payout account's results address", async () => {
		const editor = printedAfter(/n8n editor/);
		const address = printedAfter(/Payout results address:/);
		expect(address).toBe(`${editor}/webhook/payout-results`);
		expect(printed).toMatch(/ {2}Payout results {2}\[published\]/);
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
		expect(printed).toContain(
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
