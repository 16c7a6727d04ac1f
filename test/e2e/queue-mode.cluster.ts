// The queue-mode cluster the suites start: main + one `n8n webhook` + two `n8n worker`s, PostgreSQL
// and Redis (scripts/test-queue.sh), the example credentials filled in for the sandbox; and the
// workflow builders the suites share.
import { randomUUID } from 'node:crypto';

import { startSandbox, type Sandbox } from '../sandbox';
import { N8n, type CredentialEntry, type WorkflowJson } from './n8n';
import { ClusterProcess, queueEnvironment } from './queue';

const { fillCredentials } = require('../../examples/fill-credentials.js') as {
	fillCredentials: (values: unknown) => CredentialEntry[];
};

export interface Cluster {
	sandbox: Sandbox;
	main: N8n;
	webhook: ClusterProcess;
	workers: ClusterProcess[];
}

/** The sandbox, then main with `workflows` published, one webhook process and two workers. */
export async function startCluster(workflows: WorkflowJson[]): Promise<Cluster> {
	Object.assign(process.env, queueEnvironment());
	const sandbox = await startSandbox({ seed: 41, transactionCount: 40 });
	const main = await N8n.create();
	await main.importCredentials(fillCredentials(sandbox));
	for (const workflow of workflows) {
		await main.importWorkflow(workflow);
		await main.publish(workflow.id);
	}
	await main.start();
	const webhook = await ClusterProcess.start('webhook');
	const workers = await Promise.all([
		ClusterProcess.start('worker'),
		ClusterProcess.start('worker'),
	]);
	return { sandbox, main, webhook, workers };
}

/** Stops what was started: the webhook process and workers, then main and the sandbox. */
export async function stopCluster(cluster: Partial<Cluster>): Promise<void> {
	await Promise.all([
		cluster.webhook?.stop(),
		...(cluster.workers ?? []).map(async (w) => await w.stop()),
	]);
	await cluster.main?.dispose();
	await cluster.sandbox?.stop();
}

/** The first error lines the processes logged (JSON logs), for the figures. */
export function errorLines(processes: Array<{ log(): string } | undefined>): string {
	const lines = processes
		.map((p) => p?.log() ?? '')
		.join('\n')
		.split('\n');
	return lines
		.filter((line) => line.includes('"level":"error"'))
		.slice(0, 3)
		.map((line) => line.slice(0, 600))
		.join('\n');
}

export const node = (
	name: string,
	type: string,
	parameters: Record<string, unknown>,
	extra: Record<string, unknown> = {},
) => ({
	id: randomUUID(),
	name,
	type,
	typeVersion: 1,
	position: [0, 0],
	parameters,
	...extra,
});
export const webhookNode = (path: string) =>
	node(
		'Start',
		'n8n-nodes-base.webhook',
		{ httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
		{
			typeVersion: 2,
			webhookId: randomUUID(),
		},
	);
export const link = (from: string, to: string) => ({
	[from]: { main: [[{ node: to, type: 'main', index: 0 }]] },
});
