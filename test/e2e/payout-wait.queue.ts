// Payout → Wait for Results in queue mode: main (its wait tracker resumes waiting executions) + one
// `n8n webhook` + one `n8n worker`, PostgreSQL and Redis. WEBHOOK_URL is the webhook process for all
// of them, so the account's results address, recorded when the results workflow is published,
// points there: the sandbox's results reach the Payout Results Trigger through the webhook process.
// A payroll execution waits in Wait for Results on the worker, is run again by n8n at its check (at
// its Wait Limit of 15 s, the first check being no earlier with PAYMENT_GATEWAY_RESULTS_CHECK_SCALE)
// and routes each row to Paid, Failed or Still Pending; a batch whose results came first routes at
// once. Judged by state.
import { randomUUID } from 'node:crypto';

import { payoutAccount } from '../../nodes/PaymentGateway/actions/payout/ledger/account';
import { startSandbox, type Sandbox } from '../sandbox';
import { N8n, type Execution, type WorkflowJson } from './n8n';
import { connect, items, runByWebhook, webhook } from './payout-ledger';
import {
	RESULTS_PATH,
	credentialsOf,
	payroll,
	recordedToken,
	resultsWorkflow,
	tableRows,
} from './payout-results';
import { ended, executionWhere, SHORT_CHECKS, waitNode, waitRows } from './payout-wait';
import { ClusterProcess, queueEnvironment } from './queue';
import { RESUMES_ON_EVERY_OUTPUT } from './version';

const WAITS = 'e2eQueueWaitPayroll';
const PAYS = 'e2eQueueWaitPays';
const WAIT_ONLY = 'e2eQueueWaitOnly';

let sandbox: Sandbox;
let main: N8n;
let hooks: ClusterProcess;
let worker: ClusterProcess;
let ledgerName: string;
let resultsName: string;

/**
 * The payroll (Bulk Create, results address) → Wait for Results, Wait Limit 15 s: its one check is
 * at the limit (n8n looks for due waits once a minute: each further check would cost a minute).
 */
function payrollWithWait(): WorkflowJson {
	const base = payroll(WAITS, [
		['QWAIT-0', 'Nov sbx:processed'],
		['QWAIT-1', 'Nov sbx:failed'],
		['QWAIT-2', 'Nov sbx:queued'],
	]);
	const nodes = [...base.nodes, waitNode(660, { waitLimit: 0.25, waitLimitUnit: 'minutes' })];
	return { ...base, nodes, connections: connect(nodes.map((node) => String(node.name))) };
}

/** Webhook → Wait for Results for the batch whose request_id is posted. */
const waitOnly = (): WorkflowJson => {
	const start = { id: randomUUID(), position: [0, 0], ...webhook(WAIT_ONLY) };
	const wait = waitNode(220, { requestIds: '={{ $json.body.request_id }}' });
	return {
		id: WAIT_ONLY,
		name: `E2E ${WAIT_ONLY}`,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [start, wait],
		connections: connect([start.name, wait.name]),
	};
};

beforeAll(async () => {
	Object.assign(process.env, queueEnvironment());
	sandbox = await startSandbox({ seed: 45, transactionCount: 1 });
	const hookFolder = await N8n.create();
	process.env.N8N_E2E_WEBHOOK_URL = `${hookFolder.baseUrl}/`;
	main = await N8n.create({ env: SHORT_CHECKS });
	const credentials = credentialsOf(sandbox);
	({ tableName: ledgerName, resultsTableName: resultsName } = payoutAccount(
		credentials[0].data as never,
	));
	await main.importCredentials(credentials);
	const workflows = [
		resultsWorkflow,
		payrollWithWait(),
		payroll(PAYS, [
			['QFIRST-0', 'Nov sbx:processed'],
			['QFIRST-1', 'Nov sbx:rejected'],
		]),
		waitOnly(),
	];
	await main.importWorkflows(workflows);
	for (const workflow of workflows) await main.publish(workflow.id);
	await main.start();
	[hooks, worker] = await Promise.all([
		ClusterProcess.start('webhook', 10, hookFolder, SHORT_CHECKS),
		ClusterProcess.start('worker', 5, undefined, SHORT_CHECKS),
	]);
	await main.publicApiKey();
	await main.waitForWebhooks(
		[RESULTS_PATH, WAITS, PAYS, WAIT_ONLY].map((path) => `${hooks.n8n.baseUrl}/webhook/${path}`),
	);
}, 900_000);

afterAll(async () => {
	await Promise.all([hooks?.stop(), worker?.stop()]);
	await main?.dispose();
	await sandbox?.stop();
	delete process.env.N8N_E2E_WEBHOOK_URL;
}, 120_000);

/** How many times the worker started the execution (its first part, then each check). */
const workerStarts = (execution: Execution) =>
	worker.log().split(`Worker started execution ${execution.id} `).length - 1;

/** The ledger's states of the references starting with `prefix`. */
const ledgerOf = async (prefix: string): Promise<Record<string, unknown>> =>
	Object.fromEntries(
		(await tableRows(main, ledgerName))
			.filter((row) => String(row.reference_no).startsWith(prefix))
			.map((row) => [row.reference_no, row.state]),
	);

/** Posts to a workflow's webhook on the webhook process; the execution it started, once `accept` holds. */
async function startThroughHooks(
	id: string,
	body: unknown,
	accept: (e: Execution) => boolean,
): Promise<Execution> {
	const before = new Set((await main.executions(id)).map((e) => e.id));
	const answer = await fetch(`${hooks.n8n.baseUrl}/webhook/${id}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	expect(answer.status).toBe(200);
	return await executionWhere(main, id, (e) => !before.has(e.id) && accept(e), 300_000);
}

const whereChecked = RESUMES_ON_EVERY_OUTPUT ? describe : describe.skip;

whereChecked('queue mode: Payout → Wait for Results', () => {
	it('the results address is the webhook process', async () => {
		const { addresses } = await recordedToken(main, resultsName);
		expect(addresses).toEqual([
			[resultsWorkflow.id, `${hooks.n8n.baseUrl}/webhook/${RESULTS_PATH}`],
		]);
	});

	it('the payroll waits on the worker; results posted meanwhile through the webhook process; n8n runs it again at its check, the Wait Limit: Paid, Failed and Still Pending', async () => {
		// The results 3 s after the upload: after Wait for Results' first read, before its check.
		Object.assign(sandbox.state.settings, { payoutCallbackDelayMs: 3000 });
		const waiting = await startThroughHooks(WAITS, {}, (e) => e.status === 'waiting' || ended(e));
		expect(waiting.status).toBe('waiting');
		expect(waitRows(waiting)).toEqual([[], [], []]);
		const [batch] = items(waiting, 'Payouts');
		expect(sandbox.state.payoutBatches.get(String(batch.request_id))?.callback_url).toMatch(
			new RegExp(`^${hooks.n8n.baseUrl}/webhook/${RESULTS_PATH}\\?t=`),
		);

		const done = await executionWhere(main, WAITS, (e) => e.id === waiting.id && ended(e), 300_000);
		sandbox.state.resetSettings();
		expect(done.status).toBe('success');
		expect(await ledgerOf('QWAIT-')).toEqual({
			'QWAIT-0': 'processed',
			'QWAIT-1': 'failed',
			'QWAIT-2': 'queued',
		});
		const [pending, paid, failed] = waitRows(done);
		expect(pending.map(([ref, state]) => [ref, state])).toEqual([['QWAIT-2', 'queued']]);
		expect(paid.map(([ref, state]) => [ref, state])).toEqual([['QWAIT-0', 'processed']]);
		expect(failed).toEqual([['QWAIT-1', 'failed', 'Beneficiary account is closed']]);
		expect(done.data?.resultData.runData.Wait).toHaveLength(1);
		// Its first part and its check, each on the worker.
		expect({ mode: done.mode, starts: workerStarts(done) }).toEqual({ mode: 'webhook', starts: 2 });
	}, 600_000);

	it('results that came first (applied through the webhook process before the wait): routed at once on the worker, never waiting', async () => {
		const run = await runByWebhook(main, PAYS, hooks.n8n.baseUrl);
		expect(run.status).toBe('success');
		const requestId = String(items(run, 'Payouts')[0].request_id);
		const deadline = Date.now() + 120_000;
		let states = await ledgerOf('QFIRST-');
		while (Object.values(states).some((s) => s === 'queued') && Date.now() < deadline)
			states = await ledgerOf('QFIRST-');
		expect(states).toEqual({ 'QFIRST-0': 'processed', 'QFIRST-1': 'rejected' });

		const done = await startThroughHooks(WAIT_ONLY, { request_id: requestId }, ended);
		expect(done.status).toBe('success');
		const [pending, paid, failed] = waitRows(done);
		expect(pending).toEqual([]);
		expect(paid.map(([ref, state]) => [ref, state])).toEqual([['QFIRST-0', 'processed']]);
		expect(failed).toEqual([['QFIRST-1', 'rejected', 'Beneficiary details are invalid']]);
		expect((await main.executions(WAIT_ONLY)).map((e) => e.status)).toEqual(['success']);
		expect(workerStarts(done)).toBe(1);
	}, 300_000);
});
