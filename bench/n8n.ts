// Runs workflows in the pinned real n8n (scripts/n8n.sh) and reads each node's execution time and
// the n8n process's peak RSS (VmHWM, polled: the process is n8n itself, exec'd by the scripts).
import { spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { N8n, type CredentialEntry, type WorkflowJson } from '../test/e2e/n8n';

const ROOT = resolve(__dirname, '..');
const NODE24 = join(ROOT, 'scripts/node24.sh');
const N8N_SH = join(ROOT, 'scripts/n8n.sh');

export interface NodeRun {
	/** n8n's executionTime of the node, ms. */
	ms: number;
	items: number;
	error?: string;
	/** The n8n process's RSS growth while the node ran (peak in its time window minus RSS at its start), MB. */
	rssGrowthMb: number;
}

export interface Execution {
	nodes: Record<string, NodeRun>;
	/** Peak RSS of the n8n process running the workflow, MB. */
	peakRssMb: number;
}

function memoryMb(pid: number, field: 'VmHWM' | 'VmRSS'): number | undefined {
	try {
		const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
		return match ? Number(match[1]) / 1024 : undefined;
	} catch {
		return undefined; // gone
	}
}

/** The run JSON among JSON log lines: the line whose message parses to an object with data.resultData. */
function findRun(output: string): { data: { resultData: { runData: Record<string, any[]>; error?: any } } } | undefined {
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

/** Highest RSS sampled while a node ran, minus the last sample before it started. */
function growth(samples: Array<[number, number]>, start: number, end: number): number {
	const before = samples.filter(([time]) => time <= start).at(-1)?.[1] ?? samples[0]?.[1] ?? 0;
	const during = samples.filter(([time]) => time >= start && time <= end).map(([, mb]) => mb);
	return Math.max(0, Math.max(before, ...during) - before);
}

export class BenchN8n {
	private constructor(private readonly n8n: N8n) {}

	static async create(credentials: CredentialEntry[], workflows: WorkflowJson[]): Promise<BenchN8n> {
		const n8n = await N8n.create();
		await n8n.importCredentials(credentials);
		// One import of them all: each CLI command boots n8n (seconds).
		if (workflows.length) await n8n.importWorkflows(workflows);
		return new BenchN8n(n8n);
	}

	/** `n8n execute --id` once; every node's time and item count, and the process's peak RSS. */
	execute(id: string): Promise<Execution> {
		// Output to a file, not a pipe: n8n exits before a pipe drains a large run (100,000 items).
		const outFile = join(this.n8n.userFolder, `execute-${id}.log`);
		const fd = openSync(outFile, 'w');
		const child = spawn(
			'bash',
			[NODE24, 'bash', N8N_SH, 'run', this.n8n.userFolder, String(this.n8n.port), 'execute', `--id=${id}`, '--rawOutput'],
			{
				detached: true,
				stdio: ['ignore', fd, fd],
				env: { ...process.env, N8N_LOG_FORMAT: 'json', N8N_LOG_LEVEL: 'info', N8N_DISABLE_UI: 'true', N8N_WATCH_PID: String(process.pid) },
			},
		);
		closeSync(fd);
		let peak = 0;
		// RSS over time, to tell what a node's own run added (printing the run data comes after).
		const samples: Array<[time: number, mb: number]> = [];
		const poll = setInterval(() => {
			peak = Math.max(peak, memoryMb(child.pid!, 'VmHWM') ?? 0);
			const rss = memoryMb(child.pid!, 'VmRSS');
			if (rss !== undefined) samples.push([Date.now(), rss]);
		}, 25);
		return new Promise((done, fail) => {
			child.once('error', fail);
			child.once('close', () => {
				clearInterval(poll);
				try {
					process.kill(-child.pid!, 'SIGKILL');
				} catch {
					// group already gone
				}
				const out = readFileSync(outFile, 'utf8');
				rmSync(outFile, { force: true });
				const run = findRun(out);
				if (!run) return fail(new Error(`n8n execute ${id}: no run found\n${out.slice(-3000)}`));
				const nodes: Record<string, NodeRun> = {};
				for (const [name, tasks] of Object.entries(run.data.resultData.runData)) {
					const task = tasks[0];
					// A node inside a loop runs once per batch: its time and items are the sum of its runs.
					const all = tasks as Array<{ executionTime: number; error?: { message: string }; data?: { main?: unknown[][] } }>;
					nodes[name] = {
						ms: all.reduce((sum, t) => sum + Number(t.executionTime), 0),
						items: all.reduce((sum, t) => sum + (t.data?.main?.[0]?.length ?? 0), 0),
						error: all.find((t) => t.error)?.error?.message,
						rssGrowthMb: growth(samples, Number(task.startTime), Number(task.startTime) + Number(task.executionTime)),
					};
				}
				done({ nodes, peakRssMb: peak });
			});
		});
	}

	async dispose(): Promise<void> {
		await this.n8n.dispose();
	}
}
