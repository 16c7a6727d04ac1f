// `npm start`'s demo (scripts/demo.js: the sandbox and n8n with this package, the examples
// imported), run in a temporary n8n folder on free ports: every address it prints is followed as a
// user would and none answers 404. Pages and the sandbox's addresses are opened with GET; webhook
// addresses printed with a method are asked with a CORS preflight for that method, which n8n
// answers from its registered webhooks (404 when none) without running the workflow.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { freePortPair } from './n8n';

const ROOT = resolve(__dirname, '../..');
let demo: ChildProcess | undefined;
let printed = '';

/** Starts the demo and resolves with what it printed once it is ready (or rejects on exit). */
function startDemo(port: number, sandboxPort: number): Promise<string> {
	const folder = mkdtempSync(join(process.env.N8N_E2E_TMP ?? tmpdir(), 'demo-n8n-'));
	const child = spawn(
		'node',
		['scripts/demo.js', '--port', String(port), '--sandbox-port', String(sandboxPort)],
		{ cwd: ROOT, detached: true, env: { ...process.env, DEMO_N8N_FOLDER: folder } },
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

/** The status an address answers with; only the head is read (an MCP address streams). */
async function follow({ method, url }: { method: string; url: string }): Promise<string> {
	const signal = AbortSignal.timeout(30_000);
	try {
		const response =
			method === 'GET'
				? await fetch(url, { redirect: 'follow', signal })
				: await fetch(url, {
						method: 'OPTIONS',
						headers: { origin: 'http://localhost', 'access-control-request-method': method },
						signal,
					});
		await response.body?.cancel();
		return String(response.status);
	} catch (error) {
		return `no answer (${(error as Error).name})`;
	}
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
		process.kill(demo.pid, 'SIGINT');
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

	it('answers every one of them (none 404)', async () => {
		const results: string[] = [];
		for (const address of addresses(printed)) {
			results.push(`${await follow(address)} ${address.method} ${address.url}`);
		}
		console.log(results.join('\n'));
		expect(results.filter((line) => /^(404|5\d\d|no answer)/.test(line))).toEqual([]);
		expect(results.length).toBeGreaterThan(6);
	}, 300_000);
});
