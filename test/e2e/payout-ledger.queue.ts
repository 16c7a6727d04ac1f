// The payout ledger in queue mode: main + one `n8n webhook` + two `n8n worker`s (concurrency 1
// each, so two payroll runs started together run in two processes), PostgreSQL and Redis. Two
// workflows paying overlapping references at the same time pay each once: their claims take turns
// through the account's lock in n8n's Redis (ledger/sharedLock.ts).
import { startSandbox, type Sandbox } from '../sandbox';
import { N8n, type Execution } from './n8n';
import {
	importPayoutCredential,
	items,
	queuedTimes,
	rowsCode,
	runByWebhook,
	webhookPayroll,
} from './payout-ledger';
import { ClusterProcess, queueEnvironment, redisKeyCount } from './queue';

const AT_ONCE = ['e2eLedgerQueueA', 'e2eLedgerQueueB'] as const;

let sandbox: Sandbox;
let main: N8n;
let hooks: ClusterProcess;
let workers: ClusterProcess[];

beforeAll(async () => {
	Object.assign(process.env, queueEnvironment());
	sandbox = await startSandbox({ seed: 43, transactionCount: 1 });
	main = await N8n.create();
	await importPayoutCredential(main, sandbox);
	const overlapping = [
		['QUE-0', 'QUE-1', 'QUE-2', 'QUE-3'],
		['QUE-2', 'QUE-3', 'QUE-4', 'QUE-5'],
	];
	const workflows = AT_ONCE.map((id, i) =>
		webhookPayroll(id, rowsCode(overlapping[i], `Run ${i}`)),
	);
	await main.importWorkflows(workflows);
	for (const workflow of workflows) await main.publish(workflow.id);
	await main.start();
	[hooks, ...workers] = await Promise.all([
		ClusterProcess.start('webhook', 10),
		ClusterProcess.start('worker', 1),
		ClusterProcess.start('worker', 1),
	]);
	await main.publicApiKey();
	await hooks.n8n.waitForWebhooks(AT_ONCE.map((id) => `${hooks.n8n.baseUrl}/webhook/${id}`));
}, 900_000);

afterAll(async () => {
	await Promise.all([hooks?.stop(), ...(workers ?? []).map(async (w) => await w.stop())]);
	await main?.dispose();
	await sandbox?.stop();
}, 120_000);

/** The worker that ran the execution (it logs its start). */
const ranOn = (execution: Execution) =>
	workers.findIndex((w) => w.log().includes(`Worker started execution ${execution.id} `));

describe('queue mode: the payout ledger across workers', () => {
	it('two workflows paying overlapping references at the same time, on two workers, pay each reference once', async () => {
		const runs = await Promise.all(
			AT_ONCE.map(async (id) => await runByWebhook(main, id, hooks.n8n.baseUrl)),
		);
		const counts = queuedTimes(sandbox, 'QUE-');
		expect(counts).toEqual(Object.fromEntries(Object.keys(counts).map((ref) => [ref, 1])));
		expect(Object.keys(counts).length).toBeGreaterThanOrEqual(4);
		// Two processes: what a process lock alone does not cover.
		expect(new Set(runs.map(ranOn))).toEqual(new Set([0, 1]));
		expect(runs.map((run) => run.status)).toContain('success');
		for (const run of runs.filter((r) => r.status === 'success'))
			expect(String(items(run, 'Payouts')[0].ledger)).toMatch(/^data table "Payout ledger /);
		// Every holder released the account's lock.
		expect(redisKeyCount('*payout-ledger-lock*')).toBe(0);
		console.info(
			`queue at once: ${runs.map((r) => `${r.workflowId} worker ${ranOn(r)} ${r.status} ${String(r.data?.resultData.error?.message ?? '')}`).join('; ')}; queued ${JSON.stringify(counts)}`,
		);
	});
});
