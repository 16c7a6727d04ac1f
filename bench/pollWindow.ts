// The poll trigger's figure: one poll over a window of many transactions, against a bare fetch loop
// over the same pages; and the size of what the trigger remembers between polls.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';

import { windowDays } from '../nodes/PaymentGatewayPollTrigger/window';
import type { Sandbox } from '../test/sandbox';
import { startPollWorkflow } from '../test/harness';
import { anchor, type Figure } from './figure';
import { atMost, median, type Row } from './stats';

export interface PollResult {
	/** The steady poll: the window read and compared, nothing changed. */
	ms: number;
	/** The first poll (activation), which only records. */
	baselineMs: number;
	/** Transactions remembered, and the JSON size of the node's static data. */
	remembered: number;
	stateBytes: number;
}

/** In the child process: activate (the baseline), then time one poll without changes. */
export async function measurePoll([baseUrl, merchantKey, merchantSecret]: string[]): Promise<PollResult> {
	const trigger = await startPollWorkflow(
		{
			nodes: [
				{
					name: 'Poll Trigger',
					type: 'n8n-nodes-payment-gateway.paymentGatewayPollTrigger',
					parameters: { lookBackDays: 366 },
					credentials: { paymentGatewayHostedApi: { id: 'hosted' } },
				},
			],
			connections: {},
		},
		{ credentials: [{ id: 'hosted', type: 'paymentGatewayHostedApi', data: { baseUrl, merchantKey, merchantSecret } }] },
	);
	let started = performance.now();
	await trigger.activate();
	const baselineMs = performance.now() - started;
	started = performance.now();
	const round = await trigger.poll();
	const ms = performance.now() - started;
	if (round.executions.length !== 0) throw new Error(`a poll without changes started ${round.executions.length} executions`);
	const memory = trigger.saved['node:Poll Trigger'] as { t: Record<string, string> };
	const remembered = Object.values(memory.t).reduce((sum, ids) => sum + ids.split(',').length, 0);
	return { ms, baselineMs, remembered, stateBytes: JSON.stringify(memory).length };
}

function childPoll(box: Sandbox): Promise<PollResult> {
	const keys = box.keys.hosted;
	const child = spawn(process.execPath, [resolve(__dirname, 'poll.js'), box.baseUrl, keys.merchantKey, keys.merchantSecret], { stdio: ['ignore', 'pipe', 'inherit'] });
	let out = '';
	child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
	return new Promise((done, fail) =>
		child.once('close', (code) => (code === 0 ? done(JSON.parse(out.trim().split('\n').pop()!) as PollResult) : fail(new Error(`poll exit ${code}`)))),
	);
}

/** One poll over a window of `count` transactions (a year-long window over the generated year). */
export function pollWindowFigure(box: Sandbox, count: number): Figure {
	const poll: number[] = [];
	const loop: number[] = [];
	const bytes: number[] = [];
	return {
		key: 'pollWindow',
		workflows: () => [],
		async round(_n8n, round) {
			const runLoop = async () => {
				const keys = box.keys.hosted;
				// The poll's own query: the window's first day (UTC workflow, as in the child).
				const query = `from_date=${windowDays('UTC', 366, Date.now()).since}`;
				const result = await anchor(['fetch', `${box.baseUrl}/orders/v1/transaction-list`, '100', keys.merchantKey, keys.merchantSecret, query]);
				if (result.count !== count) throw new Error(`fetch loop got ${result.count} of ${count}`);
				loop.push(result.ms);
			};
			const runPoll = async () => {
				const result = await childPoll(box);
				if (result.remembered !== count) throw new Error(`the poll remembered ${result.remembered} of ${count}`);
				poll.push(result.ms);
				bytes.push(result.stateBytes);
			};
			if (round % 2) await runLoop().then(runPoll);
			else await runPoll().then(runLoop);
		},
		rows: (): Row[] => [
			{
				...atMost(`Poll Trigger: one poll over a window of ${count} transactions, no changes`, 'a bare fetch loop over the same pages (100 per page, same from_date)', poll, loop, 'ms', 1.3),
				note: `remembered between polls: ${median(bytes).toLocaleString('en-US')} bytes of static data (${(median(bytes) / count).toFixed(1)} bytes per transaction); each poll in a fresh process through n8n-core's PollContext`,
			},
		],
	};
}
