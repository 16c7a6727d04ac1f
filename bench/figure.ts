// One figure of the performance table, and the anchor process every figure is timed against.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

import type { WorkflowJson } from '../test/e2e/n8n';
import type { BenchN8n } from './n8n';
import type { Row } from './stats';

export interface AnchorResult {
	ms: number;
	count: number;
	baseRssMb: number;
	peakRssMb: number;
}

export function anchor(args: string[]): Promise<AnchorResult> {
	const child = spawn(process.execPath, [resolve(__dirname, 'anchor.js'), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
	let out = '';
	child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
	return new Promise((done, fail) =>
		child.once('close', (code) => (code === 0 ? done(JSON.parse(out) as AnchorResult) : fail(new Error(`anchor ${args[0]} exit ${code}`)))),
	);
}

export interface Figure {
	key: string;
	workflows(): WorkflowJson[] | Promise<WorkflowJson[]>;
	round(n8n: BenchN8n, round: number): Promise<void>;
	rows(): Row[];
	/** Stops what the figure started for itself (its own n8n processes). */
	dispose?(): Promise<void>;
}
