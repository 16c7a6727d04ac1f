// The package's action workflows on n8n's distributed engine: main + one `n8n webhook` + two
// `n8n worker`s, queue mode, PostgreSQL, binary data in the database. Each workflow is started
// through the webhook process and runs in a worker. Registered by queue-mode.queue.ts in its own
// cluster: one cluster start less in the queue run.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

import { type Sandbox } from '../sandbox';
import { GATEWAY_TYPE, nodeItems, type Execution, type N8n, type WorkflowJson } from './n8n';
import { type ClusterProcess } from './queue';
import { link, node, webhookNode } from './queue-mode.cluster';

const LIST_ID = 'qTransactions001';
const PAYOUTS_ID = 'qPayoutsBulk0001';

/** The cluster the tests run in, as the suite that registers them started it. */
export interface Cluster {
	sandbox: Sandbox;
	main: N8n;
	webhook: ClusterProcess;
	workers: ClusterProcess[];
}

/** The action workflows the cluster is started with. */
export function actionWorkflows(): WorkflowJson[] {
	const payouts = JSON.parse(
		readFileSync(resolve(__dirname, '../../examples/scheduled-payouts.json'), 'utf8'),
	) as WorkflowJson;
	const triggers = ['Sticky Note', 'Run now', 'Every Friday 09:00'];
	const connections = Object.fromEntries(
		Object.entries(payouts.connections).filter(([from]) => !triggers.includes(from)),
	);
	return [
		{
			...payouts,
			id: PAYOUTS_ID,
			name: 'Queue payouts',
			active: false,
			nodes: [
				webhookNode('queue-payouts'),
				...payouts.nodes.filter((n) => !triggers.includes(String(n.name))),
			],
			connections: { ...link('Start', 'Payout rows'), ...connections },
		},
		{
			id: LIST_ID,
			name: 'Queue transactions',
			active: false,
			settings: { executionOrder: 'v1' },
			nodes: [
				webhookNode('queue-transactions'),
				node(
					'Payment Gateway',
					GATEWAY_TYPE,
					{
						authentication: 'hosted',
						resource: 'transaction',
						operation: 'getMany',
						returnAll: false,
						limit: 5,
					},
					{
						credentials: {
							paymentGatewayHostedApi: {
								id: 'pgExampleHosted',
								name: 'Payment Gateway Hosted (example)',
							},
						},
					},
				),
			],
			connections: link('Start', 'Payment Gateway'),
		},
	];
}

/** Starts a webhook workflow through the webhook process; its one execution, once finished. */
async function runThroughWebhookProcess(
	{ main, webhook }: Cluster,
	path: string,
	workflowId: string,
): Promise<Execution> {
	const answer = await fetch(`${webhook.n8n.baseUrl}/webhook/${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: '{}',
	});
	expect(answer.status).toBe(200);
	const executions = await main.waitForExecutions(
		workflowId,
		(e) => e.some((x) => x.finished || x.status === 'error'),
		120_000,
	);
	expect(executions).toHaveLength(1);
	return executions[0];
}

/** Which worker logged "Worker started execution <id>". */
function workerOf({ workers }: Cluster, executionId: string): number {
	return workers.findIndex((w) => w.log().includes(`Worker started execution ${executionId} `));
}

/** The action workflows' tests, in the cluster `cluster()` gives once it is started. */
export function describeActionWorkflows(cluster: () => Cluster): void {
	describe('queue mode: main + webhook process + two workers, PostgreSQL, binary data in the database', () => {
		it('Transaction > Get Many runs in a worker: five transactions from the sandbox', async () => {
			const execution = await runThroughWebhookProcess(cluster(), 'queue-transactions', LIST_ID);
			expect(execution).toMatchObject({ status: 'success', mode: 'webhook' });
			expect(workerOf(cluster(), execution.id)).toBeGreaterThanOrEqual(0);
			const items = nodeItems(execution.data?.resultData.runData, 'Payment Gateway');
			expect(items).toHaveLength(5);
			const known = new Set(
				cluster().sandbox.state.transactions.map((t) => String(t.transaction_id)),
			);
			for (const item of items) expect(known.has(String(item.json.transaction_id))).toBe(true);
		});

		it('Payout Bulk Create from items runs in a worker: the .xlsx kept in the database, one batch queued', async () => {
			const execution = await runThroughWebhookProcess(cluster(), 'queue-payouts', PAYOUTS_ID);
			expect(execution).toMatchObject({ status: 'success', mode: 'webhook' });
			expect(workerOf(cluster(), execution.id)).toBeGreaterThanOrEqual(0);
			const [report] = nodeItems(execution.data?.resultData.runData, 'Validate payouts');
			expect(report.json.valid).toBe(true);
			const binary = (report as { binary?: Record<string, { id?: string; fileName?: string }> })
				.binary?.data;
			expect(binary?.fileName).toMatch(/\.xlsx$/);
			expect(binary?.id).toMatch(/^database:/);
			const [submitted] = nodeItems(execution.data?.resultData.runData, 'Submit payouts');
			expect(submitted.json).toMatchObject({
				request_id: report.json.request_id,
				total_records: 3,
				payouts_queued: 3,
			});
			expect([...cluster().sandbox.state.payoutBatches.keys()]).toEqual([report.json.request_id]);
		});
	});
}
