// What `npm start`'s demo prints, and following its addresses as a user would: the demo started as
// a user starts it (its default folder, free ports, --reset), stopped with everything under it.
import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');
let demo: ChildProcess | undefined;
let output = '';
/** The demo's default n8n folder (its n8n.log is shown when an address fails). */
export const folder = join(ROOT, '.tools/demo-n8n');

/** What the demo has printed so far. */
export const printed = () => output;

/** Starts the demo and resolves with what it printed once it is ready (or rejects on exit). */
export function startDemo(port: number, sandboxPort: number): Promise<string> {
	const { DEMO_N8N_FOLDER: _ignored, ...env } = process.env;
	const child = spawn(
		'npm',
		['start', '--', '--reset', '--port', String(port), '--sandbox-port', String(sandboxPort)],
		{ cwd: ROOT, detached: true, env },
	);
	demo = child;
	return new Promise((done, fail) => {
		child.stdout?.on('data', (chunk: Buffer) => {
			output += chunk.toString();
			if (output.includes('Ctrl-C stops n8n and the sandbox.')) done(output);
		});
		child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.once('exit', (code) => fail(new Error(`demo ended (${code}):\n${output}`)));
	});
}

/** Ends the demo's whole process group (npm, the start script and the demo under it). */
export async function stopDemo(): Promise<void> {
	if (demo?.pid && demo.exitCode === null) {
		const exited = new Promise((done) => demo?.once('exit', done));
		process.kill(-demo.pid, 'SIGINT');
		await Promise.race([exited, new Promise((done) => setTimeout(done, 30_000))]);
	}
}

/** Every address printed, with the method printed before it (GET when none). */
export function addresses(text: string): Array<{ method: string; url: string }> {
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
export async function follow({ method, url }: { method: string; url: string }): Promise<Followed> {
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
export function saidAbout(url: string): string {
	const at = output.indexOf(url);
	const rest = output.slice(at + url.length);
	const next = rest.search(/https?:\/\//);
	return rest.slice(0, next < 0 ? undefined : next);
}

/** The address printed after `label` (the first one on its line). */
export function printedAfter(label: RegExp): string {
	const match = new RegExp(`${label.source}[^\\n]*?(https?://[^\\s'"()]+)`).exec(output);
	if (!match) throw new Error(`npm start printed no ${label.source}:\n${output}`);
	return match[1].replace(/\/$/, '');
}
