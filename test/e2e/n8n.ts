// Drives a real n8n (the release of ./version.ts, installed by scripts/n8n.sh) with this package loaded, for the e2e suite.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { recordImportedVersion } from './history';
import { n8nAtLeast } from './version';

const ROOT = resolve(__dirname, '../..');
const NODE24 = join(ROOT, 'scripts/node24.sh');
const N8N_SH = join(ROOT, 'scripts/n8n.sh');

export const PACKAGE = 'n8n-nodes-payment-gateway';
export const GATEWAY_TYPE = `${PACKAGE}.paymentGateway`;
export const TRIGGER_TYPE = `${PACKAGE}.paymentGatewayTrigger`;

export const OWNER = {
	email: 'owner@e2e.local',
	firstName: 'E2e',
	lastName: 'Owner',
	password: 'E2e-Passw0rd',
};
const REST_HEADERS = { 'content-type': 'application/json', 'browser-id': 'n8n-e2e' };

export interface CredentialEntry {
	id: string;
	name: string;
	type: string;
	data: Record<string, unknown>;
}

export interface WorkflowJson {
	id: string;
	name: string;
	nodes: Array<Record<string, unknown>>;
	connections: Record<string, unknown>;
	[key: string]: unknown;
}

export interface CliResult {
	code: number | null;
	/** Set when the process ended by a signal (then code is null). */
	signal?: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
}

export interface Item {
	json: Record<string, any>;
	[key: string]: unknown;
}

/** What `n8n execute` printed: the run (IRun) when found, plus the raw output. */
export interface ExecuteResult extends CliResult {
	run?: { status?: string; data: { resultData: { runData: Record<string, any[]>; error?: any } } };
	/** Items of a node's first main output in its first run; [] when it did not run. */
	items(node: string): Item[];
}

export interface Execution {
	id: string;
	workflowId: string;
	status: string;
	finished: boolean;
	mode: string;
	data?: { resultData: { runData: Record<string, any[]>; error?: any } };
}

function killGroup(pid: number, signal: NodeJS.Signals): boolean {
	try {
		process.kill(-pid, signal);
		return true;
	} catch {
		return false; // group already gone
	}
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function portFree(port: number): Promise<boolean> {
	return new Promise((done) => {
		const server = createServer();
		server.once('error', () => done(false));
		server.listen(port, '127.0.0.1', () => server.close(() => done(true)));
	});
}

/**
 * A free port whose next port is free too: n8n's task broker listens on port + 1. Below Linux's
 * ephemeral range (32768+), so an outgoing connection cannot take it before n8n listens.
 */
export async function freePortPair(): Promise<number> {
	for (let tries = 0; tries < 200; tries += 1) {
		const port = 20000 + Math.floor(Math.random() * 12000);
		if ((await portFree(port)) && (await portFree(port + 1))) return port;
	}
	throw new Error('no free port pair found');
}

/** Items of a node's first main output in its first run, from resultData.runData. */
export function nodeItems(runData: Record<string, any[]> | undefined, node: string): Item[] {
	return (runData?.[node]?.[0]?.data?.main?.[0] as Item[] | undefined) ?? [];
}

export class N8n {
	readonly baseUrl: string;

	private server?: ChildProcess;

	private serverLog: string[] = [];

	private apiKey?: string;

	private cookie?: string;

	// Process groups still running; dispose() kills any left. A crashed or interrupted jest cannot
	// clean up from here (exit handlers on a test file's `process` never fire), so each n8n process
	// watches jest's pid itself (N8N_WATCH_PID) and user folders live in the run folder that
	// scripts/test-e2e.sh removes (N8N_E2E_TMP).
	private readonly groups = new Set<number>();

	private constructor(
		readonly userFolder: string,
		readonly port: number,
		private readonly ui: boolean,
		private readonly env: NodeJS.ProcessEnv = {},
	) {
		this.baseUrl = `http://127.0.0.1:${port}`;
	}

	/**
	 * A fresh user folder (temporary; inside `parent` when given), free ports, and the built package
	 * linked in as n8n's installer lays it out; `env` is added to every n8n command's environment.
	 */
	static async create(
		options: { ui?: boolean; parent?: string; env?: NodeJS.ProcessEnv } = {},
	): Promise<N8n> {
		const parent = options.parent ?? process.env.N8N_E2E_TMP ?? tmpdir();
		const folder = mkdtempSync(join(parent, 'n8n-e2e-'));
		const n8n = new N8n(folder, await freePortPair(), options.ui ?? false, options.env);
		const link = spawnSync('bash', [NODE24, 'bash', N8N_SH, 'link', folder], { encoding: 'utf8' });
		if (link.status !== 0) throw new Error(`n8n.sh link failed: ${link.stderr}`);
		return n8n;
	}

	/** One n8n CLI command (each boots n8n: seconds). JSON logs, so output can be parsed. */
	cli(args: string[], timeoutMs = 180_000): Promise<CliResult> {
		const child = this.spawn(args);
		let stdout = '';
		let stderr = '';
		child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
		child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
		const timer = setTimeout(() => killGroup(child.pid!, 'SIGKILL'), timeoutMs);
		return new Promise((done, fail) => {
			child.once('error', fail);
			child.once('close', (code, signal) => {
				clearTimeout(timer);
				// The task runner child may outlive the CLI process: take the whole group down.
				killGroup(child.pid!, 'SIGKILL');
				this.groups.delete(child.pid!);
				// JSON logs go to stdout: a kill would otherwise leave the failure message empty.
				if (signal) stderr += `\n(n8n ${args[0]} ended by ${signal})`;
				done({ code, signal, stdout, stderr });
			});
		});
	}

	async importCredentials(credentials: CredentialEntry[]): Promise<void> {
		await this.importFile('credentials', credentials);
	}

	async importWorkflow(workflow: WorkflowJson): Promise<void> {
		await this.importWorkflows([workflow]);
	}

	/** Several workflows in one `import:workflow` (each CLI command boots n8n: seconds). */
	async importWorkflows(workflows: WorkflowJson[]): Promise<void> {
		// n8n 2.0 refuses a workflow without a versionId (later releases make one).
		const withVersions = workflows.map((workflow) => ({ versionId: randomUUID(), ...workflow }));
		await this.importFile('workflow', withVersions.length === 1 ? withVersions[0] : withVersions);
		for (const workflow of workflows) recordImportedVersion(this.userFolder, workflow.id);
	}

	/** `n8n execute --id`: the workflow must start with a Manual Trigger. Exit 1 on failure. */
	async execute(id: string): Promise<ExecuteResult> {
		let result = await this.cli(['execute', `--id=${id}`, '--rawOutput']);
		let run = findRun(result.stdout) ?? findRun(result.stderr);
		if (!run && result.signal) {
			// The CLI process itself was killed before it ran anything (seen once on a loaded CI
			// machine): said in the log and tried once more, so a real failure still fails.
			console.warn(`n8n execute ${id} ended by ${result.signal} with no run:\n${tail(result)}`);
			result = await this.cli(['execute', `--id=${id}`, '--rawOutput']);
			run = findRun(result.stdout) ?? findRun(result.stderr);
		}
		result = exitOfFinishedRun(id, result, run);
		return { ...result, run, items: (node) => nodeItems(run?.data.resultData.runData, node) };
	}

	/** Activates a workflow (2.x: publish; 1.x: update --active); do it before start(). */
	async publish(id: string): Promise<void> {
		const args = n8nAtLeast('2.0.0')
			? ['publish:workflow', `--id=${id}`]
			: ['update:workflow', `--id=${id}`, '--active=true'];
		const result = await this.cli(args);
		if (result.code !== 0) throw new Error(`publish:workflow ${id} failed:\n${tail(result)}`);
	}

	/**
	 * `n8n start`, resolved once /healthz/readiness answers 200. The limit is a safety net for a hung
	 * start: on a loaded 2-core machine a fresh n8n took over two minutes (migrations, then its
	 * workflows), so callers' hooks and tests allow 900 s.
	 */
	async start(timeoutMs = 600_000): Promise<void> {
		if (this.server) throw new Error('already started');
		const child = this.spawn(['start']);
		this.server = child;
		this.serverLog = [];
		const keep = (chunk: Buffer) => {
			this.serverLog.push(chunk.toString());
			if (this.serverLog.length > 400) this.serverLog.splice(0, 100);
		};
		child.stdout!.on('data', keep);
		child.stderr!.on('data', keep);
		let exited = false;
		child.once('exit', () => (exited = true));
		// Readiness answers 200 once the database is migrated; n8n 1.x registers its REST routes and
		// activates workflows only after that, then prints this line (every release does).
		let started = false;
		let recent = '';
		// Looked for before trimming: the line can arrive in one chunk with longer lines after it.
		const seeStarted = (chunk: Buffer) => {
			const text = recent + chunk.toString();
			if (text.includes('Editor is now accessible via')) started = true;
			recent = text.slice(-200);
		};
		child.stdout!.on('data', seeStarted);
		child.stderr!.on('data', seeStarted);
		const deadline = Date.now() + timeoutMs;
		while (Date.now() < deadline) {
			if (exited) throw new Error(`n8n start exited early:\n${this.log().slice(-4000)}`);
			const status = await fetch(`${this.baseUrl}/healthz/readiness`).then(
				(r) => r.status,
				() => 0,
			);
			if (status === 200 && started) {
				child.stdout!.off('data', seeStarted);
				child.stderr!.off('data', seeStarted);
				return;
			}
			await sleep(250);
		}
		throw new Error(`n8n not ready after ${timeoutMs} ms:\n${this.log().slice(-4000)}`);
	}

	/** What `n8n start` printed so far (for failure messages). */
	log(): string {
		return this.serverLog.join('');
	}

	/** SIGTERM to the process group (n8n + task runner), SIGKILL after 15 s. */
	async stop(): Promise<void> {
		const child = this.server;
		if (!child) return;
		this.server = undefined;
		this.apiKey = undefined;
		this.cookie = undefined;
		const pid = child.pid!;
		if (child.exitCode === null && child.signalCode === null) {
			let timer: NodeJS.Timeout | undefined;
			const exited = new Promise((done) => {
				child.once('exit', done);
				timer = setTimeout(done, 15_000);
			});
			killGroup(pid, 'SIGTERM');
			await exited;
			clearTimeout(timer);
		}
		killGroup(pid, 'SIGKILL');
		this.groups.delete(pid);
	}

	/** Stops n8n and deletes the user folder. */
	async dispose(): Promise<void> {
		await this.stop();
		for (const pid of this.groups) killGroup(pid, 'SIGKILL');
		rmSync(this.userFolder, { recursive: true, force: true });
	}

	/** Production URL of a trigger whose node has a webhookId (not a Webhook node's full path). */
	webhookUrl(webhookId: string, path: string): string {
		return `${this.baseUrl}/webhook/${webhookId}/${path}`;
	}

	/**
	 * Resolves once every URL has a registered webhook: readiness comes before a published
	 * workflow's webhooks are. A CORS preflight probes them (404 in n8n 1.x, 500 in 2.41 when none) and runs nothing.
	 */
	async waitForWebhooks(urls: string[], method = 'POST', timeoutMs = 60_000): Promise<void> {
		const probe = (url: string) =>
			fetch(url, {
				method: 'OPTIONS',
				headers: { origin: 'http://probe.localhost', 'access-control-request-method': method },
			}).then((r) => r.status);
		const deadline = Date.now() + timeoutMs;
		// Not registered yet: n8n 1.x answers the preflight 404, 2.41 answers it 500 ("not registered").
		const notYet = (status: number) => status === 404 || status >= 500;
		while ((await Promise.all(urls.map(probe))).some(notYet)) {
			if (Date.now() > deadline)
				throw new Error(
					`webhooks never registered: ${urls.join(', ')}\n${this.log().slice(-4000)}`,
				);
			await sleep(250);
		}
	}

	/** Executions through the public API, newest first, with their data. */
	async executions(workflowId?: string): Promise<Execution[]> {
		const key = await this.publicApiKey();
		const query = new URLSearchParams({ includeData: 'true', limit: '250' });
		if (workflowId) query.set('workflowId', workflowId);
		const response = await fetch(`${this.baseUrl}/api/v1/executions?${query}`, {
			headers: { 'X-N8N-API-KEY': key },
		});
		if (!response.ok)
			throw new Error(`GET /api/v1/executions: ${response.status} ${await response.text()}`);
		return ((await response.json()) as { data: Execution[] }).data;
	}

	/** Polls until `accept` holds for the workflow's executions (they are saved after the reply). */
	async waitForExecutions(
		workflowId: string,
		accept: (executions: Execution[]) => boolean,
		timeoutMs = 30_000,
	): Promise<Execution[]> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const executions = await this.executions(workflowId);
			if (accept(executions)) return executions;
			if (Date.now() > deadline) return executions;
			await sleep(300);
		}
	}

	/** A REST call as the owner (signed in on first use), JSON in and out. */
	async rest(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
		const response = await fetch(`${this.baseUrl}${path}`, {
			method,
			headers: { ...REST_HEADERS, cookie: await this.ownerCookie() },
			...(body !== undefined && { body: JSON.stringify(body) }),
		});
		const text = await response.text();
		let parsed: unknown = text;
		try {
			parsed = JSON.parse(text);
		} catch {
			// not JSON: kept as text
		}
		return { status: response.status, body: parsed };
	}

	/** A public API key, made headless the first time (POST /rest/api-keys as the owner). */
	async publicApiKey(): Promise<string> {
		if (this.apiKey) return this.apiKey;
		let created: Response | undefined;
		// Right after setup n8n sometimes refuses the new cookie for a moment, longer on a busy
		// machine: retry, signing in afresh, for up to 45 s.
		for (const deadline = Date.now() + 45_000; Date.now() < deadline; ) {
			const cookie = await this.ownerCookie().catch(() => '');
			if (cookie) {
				created = await fetch(`${this.baseUrl}/rest/api-keys`, {
					method: 'POST',
					headers: { ...REST_HEADERS, cookie },
					body: JSON.stringify({
						label: `e2e ${Date.now()}`,
						expiresAt: null,
						scopes: ['execution:read', 'execution:list', 'workflow:read', 'workflow:list'],
					}),
				});
				if (created.ok) break;
				this.cookie = undefined;
			}
			await sleep(500);
		}
		if (!created?.ok) throw new Error(`api key: ${created?.status} ${await created?.text()}`);
		const body = (await created.json()) as { data: { rawApiKey: string } };
		this.apiKey = body.data.rawApiKey;
		return this.apiKey;
	}

	/**
	 * The owner's auth cookie: owner setup the first time, a login after. The same browser-id header
	 * on every call: the auth cookie is bound to it.
	 */
	private async ownerCookie(): Promise<string> {
		if (this.cookie) return this.cookie;
		const post = (path: string, body: unknown) =>
			fetch(`${this.baseUrl}${path}`, {
				method: 'POST',
				headers: REST_HEADERS,
				body: JSON.stringify(body),
			});
		const cookieOf = (response: Response) =>
			response.headers
				.getSetCookie()
				.map((c) => c.split(';')[0])
				.join('; ');
		const setup = await post('/rest/owner/setup', OWNER);
		if (!setup.ok && setup.status !== 400)
			throw new Error(`owner setup: ${setup.status} ${await setup.text()}`);
		if (setup.ok) return (this.cookie = cookieOf(setup));
		for (const deadline = Date.now() + 45_000; Date.now() < deadline; await sleep(500)) {
			const login = await post('/rest/login', {
				// 1.x names the field `email`, 2.x `emailOrLdapLoginId`.
				email: OWNER.email,
				emailOrLdapLoginId: OWNER.email,
				password: OWNER.password,
			});
			if (login.ok) return (this.cookie = cookieOf(login));
		}
		throw new Error('owner login failed');
	}

	private async importFile(kind: 'credentials' | 'workflow', content: unknown): Promise<void> {
		const file = join(this.userFolder, `import-${kind}-${Date.now()}.json`);
		writeFileSync(file, JSON.stringify(content, null, 2));
		const result = await this.cli([`import:${kind}`, `--input=${file}`]);
		if (result.code !== 0) throw new Error(`import:${kind} failed:\n${tail(result)}`);
	}

	/** Own process group (detached), so stop() reaches the task runner too. */
	private spawn(args: string[]): ChildProcess {
		const child = spawn(
			'bash',
			[NODE24, 'bash', N8N_SH, 'run', this.userFolder, String(this.port), ...args],
			{
				detached: true,
				stdio: ['ignore', 'pipe', 'pipe'],
				env: {
					...process.env,
					...this.env,
					N8N_LOG_FORMAT: 'json',
					N8N_LOG_LEVEL: 'info',
					N8N_DISABLE_UI: String(!this.ui),
					N8N_WATCH_PID: String(process.pid),
				},
			},
		);
		this.groups.add(child.pid!);
		return child;
	}
}

/**
 * n8n's CLI (1.123 and 2.41 here, on Node.js 24) crashes with SIGSEGV in up to half the `execute`s while
 * exiting, after it printed and stored the finished run: reproduced with a Manual Trigger and a Set
 * node alone (no node of this package), never with N8N_EXPRESSION_ENGINE=legacy, so in the shutdown
 * of its default vm expression engine. The printed run's status then gives the exit code the CLI
 * would have returned (1 on failure); the crash is said in the log.
 */
function exitOfFinishedRun(id: string, result: CliResult, run: ExecuteResult['run']): CliResult {
	const ended = run?.status === 'success' || run?.status === 'error';
	if (result.signal !== 'SIGSEGV' || !ended) return result;
	console.warn(
		`n8n execute ${id}: the run ended (${run.status}), then n8n crashed on exit (SIGSEGV)`,
	);
	return { ...result, code: run.status === 'success' ? 0 : 1 };
}

/** The run JSON among JSON log lines: the line whose message parses to an object with data.resultData. */
function findRun(output: string): ExecuteResult['run'] {
	for (const line of output.split('\n')) {
		if (!line.startsWith('{')) continue;
		try {
			const entry = JSON.parse(line) as { message?: unknown };
			if (typeof entry.message !== 'string' || !entry.message.startsWith('{')) continue;
			const run = JSON.parse(entry.message);
			if (run?.data?.resultData) return run;
		} catch {
			// not a JSON log line
		}
	}
	return undefined;
}

function tail(result: CliResult): string {
	return `exit ${result.code}\n${(result.stdout + result.stderr).slice(-4000)}`;
}
