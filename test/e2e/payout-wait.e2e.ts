// Payout → Wait for Results in real n8n 2.41.1: a payroll workflow (Webhook → rows → Bulk Create →
// Wait for Results) whose execution waits while the account's ledger rows are changed through
// n8n's own data table REST API (as the results receiver changes them), and is run again by n8n
// at its first check (1 minute) through the package's time-out look, ending with each row on its
// output. And a payroll whose results are in the ledger before Wait for Results runs (n8n's own
// Data Table node settles them first): no wait at all. Judged by the executions' state, polled.
import { randomUUID } from 'node:crypto';

import { payoutAccount } from '../../nodes/PaymentGateway/actions/payout/ledger/account';
import { startSandbox, type Sandbox } from '../sandbox';
import { GATEWAY_TYPE, N8n, type CredentialEntry, type Execution, type WorkflowJson } from './n8n';
import { CREDENTIAL, connect, payroll, rowsCode, webhook } from './payout-ledger';

const WAITS = 'e2eWaitPayroll';
const AT_ONCE = 'e2eWaitAtOnce';
const LONG = 600_000;

let sandbox: Sandbox;
let n8n: N8n;
let tableName: string;

const waitNode = (x: number) => ({
	id: randomUUID(),
	name: 'Wait',
	type: GATEWAY_TYPE,
	typeVersion: 3,
	position: [x, 0],
	parameters: { resource: 'payout', operation: 'waitForResults' },
	credentials: { paymentGatewayPayoutApi: CREDENTIAL },
});

/** Webhook → Rows → Payouts (Bulk Create) → [Settle: n8n's Data Table node] → Wait for Results. */
function payrollWithWait(id: string, refs: string[], settle = false): WorkflowJson {
	const base = payroll(id, webhook(id), rowsCode(refs, 'Salary'));
	const settleNode = {
		id: randomUUID(),
		name: 'Settle',
		type: 'n8n-nodes-base.dataTable',
		typeVersion: 1,
		position: [660, 0],
		// The service's results already in the ledger before the wait: every row of the batch paid.
		parameters: {
			resource: 'row',
			operation: 'update',
			dataTableId: { __rl: true, mode: 'name', value: tableName },
			filters: {
				conditions: [
					{ keyName: 'request_id', condition: 'eq', keyValue: '={{ $json.request_id }}' },
				],
			},
			columns: { mappingMode: 'defineBelow', value: { state: 'processed', utr: 'UTR-EARLY' } },
		},
	};
	const nodes = [...base.nodes, ...(settle ? [settleNode] : []), waitNode(settle ? 880 : 660)];
	return {
		...base,
		nodes,
		connections: connect(nodes.map((node) => String(node.name))),
	};
}

/** Starts the workflow by its webhook; the new execution, once `accept` holds for it. */
async function start(id: string, accept: (e: Execution) => boolean): Promise<Execution> {
	const before = new Set((await n8n.executions(id)).map((e) => e.id));
	const answer = await fetch(`${n8n.baseUrl}/webhook/${id}`, { method: 'POST', body: '{}' });
	expect(answer.status).toBe(200);
	return await until(id, (e) => !before.has(e.id) && accept(e), 300_000);
}

/** Polls the workflow's executions until one satisfies `accept`. */
async function until(
	id: string,
	accept: (e: Execution) => boolean,
	timeoutMs: number,
): Promise<Execution> {
	const executions = await n8n.waitForExecutions(id, (all) => all.some(accept), timeoutMs);
	const found = executions.find(accept);
	if (!found)
		throw new Error(
			`no execution of ${id} as expected: ${JSON.stringify(executions.map((e) => [e.id, e.status]))}\n${n8n.log().slice(-3000)}`,
		);
	return found;
}

const ended = (e: Execution) => ['success', 'error', 'crashed', 'canceled'].includes(e.status);

/** Per output (Still Pending, Paid, Failed) of the Wait node's run: [reference_no, state, utr or reason]. */
function outputsOf(execution: Execution): unknown[][][] {
	const runs = execution.data?.resultData.runData.Wait ?? [];
	const main = (runs[runs.length - 1]?.data?.main ?? []) as Array<Array<{
		json: Record<string, unknown>;
	}> | null>;
	return [0, 1, 2].map((i) =>
		(main[i] ?? []).map(({ json }) => [json.reference_no, json.state, json.utr ?? json.reason]),
	);
}

/** The ledger table through n8n's REST API, as the editor reaches it. */
async function ledgerTable(): Promise<{ id: string; projectId: string }> {
	const listed = await n8n.rest('GET', '/rest/data-tables-global');
	expect(listed.status).toBe(200);
	const table = (
		listed.body.data.data as Array<{ id: string; name: string; projectId: string }>
	).find((t) => t.name === tableName);
	if (!table) throw new Error(`no data table ${tableName}`);
	return table;
}

/** One row's result written to the ledger through n8n's data table REST API. */
async function setRow(reference: string, data: Record<string, unknown>): Promise<void> {
	const table = await ledgerTable();
	const updated = await n8n.rest(
		'PATCH',
		`/rest/projects/${table.projectId}/data-tables/${table.id}/rows`,
		{
			filter: {
				type: 'and',
				filters: [{ columnName: 'reference_no', condition: 'eq', value: reference }],
			},
			data,
			returnData: true,
		},
	);
	expect(updated.status).toBe(200);
	expect(updated.body.data).toHaveLength(1);
}

beforeAll(async () => {
	sandbox = await startSandbox({ seed: 43, transactionCount: 1 });
	n8n = await N8n.create();
	const data = { payoutUrl: sandbox.payoutUrl, obtainBy: 'request', ...sandbox.keys.payout };
	tableName = payoutAccount(data).tableName;
	const credential: CredentialEntry = { ...CREDENTIAL, type: 'paymentGatewayPayoutApi', data };
	await n8n.importCredentials([credential]);
	const workflows = [
		payrollWithWait(WAITS, ['WAIT-0', 'WAIT-1', 'WAIT-2']),
		payrollWithWait(AT_ONCE, ['EARLY-0', 'EARLY-1'], true),
	];
	await n8n.importWorkflows(workflows);
	for (const workflow of workflows) await n8n.publish(workflow.id);
	await n8n.start();
	await n8n.waitForWebhooks([WAITS, AT_ONCE].map((id) => `${n8n.baseUrl}/webhook/${id}`));
}, 900_000);

afterAll(async () => {
	await n8n?.dispose();
	await sandbox?.stop();
});

describe('Payout → Wait for Results in real n8n', () => {
	it(
		'the payroll execution waits; the ledger rows changed meanwhile (processed, failed) leave on Paid and Failed at the check after 1 minute',
		async () => {
			const waiting = await start(WAITS, (e) => e.status === 'waiting' || ended(e));
			expect(waiting.status).toBe('waiting');
			// Nothing on any output while it waits.
			expect(outputsOf(waiting)).toEqual([[], [], []]);

			await setRow('WAIT-0', { state: 'processed', utr: 'UTR-W0' });
			await setRow('WAIT-1', { state: 'failed', reason: 'Account closed' });
			await setRow('WAIT-2', { state: 'processed', utr: 'UTR-W2' });

			// The check comes 1 minute after the wait began; n8n's wait tracker looks every minute.
			const done = await until(WAITS, (e) => e.id === waiting.id && ended(e), 240_000);
			expect(done.status).toBe('success');
			expect(outputsOf(done)).toEqual([
				[],
				[
					['WAIT-0', 'processed', 'UTR-W0'],
					['WAIT-2', 'processed', 'UTR-W2'],
				],
				[['WAIT-1', 'failed', 'Account closed']],
			]);
			expect(done.data?.resultData.runData.Wait).toHaveLength(1);
		},
		LONG,
	);

	it(
		"results in the ledger before the wait (settled by n8n's Data Table node): no wait at all, every row on Paid",
		async () => {
			const done = await start(AT_ONCE, ended);
			expect(done.status).toBe('success');
			expect(outputsOf(done)).toEqual([
				[],
				[
					['EARLY-0', 'processed', 'UTR-EARLY'],
					['EARLY-1', 'processed', 'UTR-EARLY'],
				],
				[],
			]);
			const all = await n8n.executions(AT_ONCE);
			expect(all.map((e) => e.status)).not.toContain('waiting');
			const timed = done as Execution & { startedAt?: string; stoppedAt?: string };
			// Well under the first check's minute: it never waited.
			expect(
				Date.parse(String(timed.stoppedAt)) - Date.parse(String(timed.startedAt)),
			).toBeLessThan(60_000);
		},
		LONG,
	);
});
