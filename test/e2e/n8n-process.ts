// One real n8n's processes (the release of ./version.ts, installed by scripts/n8n.sh), each in its
// own process group: CLI commands and `n8n start`, stopped and cleaned up with everything they started.
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';

import type { CliResult } from './n8n-data';

const ROOT = resolve(__dirname, '../..');
export const NODE24 = join(ROOT, 'scripts/node24.sh');
export const N8N_SH = join(ROOT, 'scripts/n8n.sh');

export function killGroup(pid: number, signal: NodeJS.Signals): boolean {
	try {
		process.kill(-pid, signal);
		return true;
	} catch {
		return false; // group already gone
	}
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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

/** The processes of one n8n user folder and port: CLI commands, `n8n start`, stop and clean-up. */
export class N8nProcess {
	readonly baseUrl: string;

	private server?: ChildProcess;

	private serverLog: string[] = [];

	// Process groups still running; dispose() kills any left. A crashed or interrupted jest cannot
	// clean up from here (exit handlers on a test file's `process` never fire), so each n8n process
	// watches jest's pid itself (N8N_WATCH_PID) and user folders live in the run folder that
	// scripts/test-e2e.sh removes (N8N_E2E_TMP).
	private readonly groups = new Set<number>();

	protected constructor(
		readonly userFolder: string,
		readonly port: number,
		private readonly ui: boolean,
		private readonly env: NodeJS.ProcessEnv = {},
	) {
		this.baseUrl = `http://127.0.0.1:${port}`;
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
