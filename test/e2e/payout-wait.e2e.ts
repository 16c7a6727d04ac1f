// Payout → Wait for Results in real n8n 2.41.1: a payroll workflow (Webhook → rows → Bulk Create →
// Wait for Results) whose execution waits while the account's ledger rows are changed through
// n8n's own data table REST API (as the results receiver changes them), and is run again by n8n
// at its first check through the package's time-out look, ending with each row on its output (the
// checks shortened by the test setting PAYMENT_GATEWAY_RESULTS_CHECK_SCALE). And a payroll whose
// results are in the ledger before Wait for Results runs (n8n's own Data Table node settles them
// first): no wait at all. Where n8n resumes a waiting node on its first output only (1.x, 2.0,
// 2.20), the payroll's Wait for Results refuses before reading anything. Judged by the
// executions' state, polled.
import { NOT_IN_THIS_N8N } from '../../nodes/PaymentGateway/actions/payout/waitForResults.checks';
import type { Sandbox } from '../sandbox';
import { nodeJson } from './fixtures';
import type { Execution, N8n, WorkflowJson } from './n8n';
import { connect, payroll, rowsCode, webhook } from './payout-ledger';
import {
	ended,
	executionWhere,
	setLedgerRecord,
	SHORT_CHECKS,
	startPayoutN8n,
	waitNode,
	waitRows,
} from './payout-wait';
import { RESUMES_ON_EVERY_OUTPUT } from './version';

const WAITS = 'e2eWaitPayroll';
const AT_ONCE = 'e2eWaitAtOnce';
const LONG = 600_000;

let sandbox: Sandbox;
let n8n: N8n;
let tableName: string;

/** Webhook → Rows → Payouts (Bulk Create) → [Settle: n8n's Data Table node] → Wait for Results. */
function payrollWithWait(id: string, refs: string[], settle = false): WorkflowJson {
	const base = payroll(id, webhook(id), rowsCode(refs, 'Salary'));
	// The service's results already in the ledger before the wait: every row of the batch paid.
	const settleNode = nodeJson('Settle', 'n8n-nodes-base.dataTable', 1, 660, {
		resource: 'row',
		operation: 'update',
		dataTableId: { __rl: true, mode: 'name', value: tableName },
		filters: {
			conditions: [{ keyName: 'request_id', condition: 'eq', keyValue: '={{ $json.request_id }}' }],
		},
		columns: { mappingMode: 'defineBelow', value: { state: 'processed', utr: 'UTR-EARLY' } },
	});
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
	return await executionWhere(n8n, id, (e) => !before.has(e.id) && accept(e), 300_000);
}

const setRow = (reference: string, data: Record<string, unknown>) =>
	setLedgerRecord(n8n, tableName, reference, data);

beforeAll(async () => {
	({ sandbox, n8n, tableName } = await startPayoutN8n(
		43,
		(table) => {
			tableName = table;
			return [
				payrollWithWait(WAITS, ['WAIT-0', 'WAIT-1', 'WAIT-2']),
				payrollWithWait(AT_ONCE, ['EARLY-0', 'EARLY-1'], true),
			];
		},
		SHORT_CHECKS,
	));
}, 900_000);

afterAll(async () => {
	await n8n?.dispose();
	await sandbox?.stop();
});

const whereChecked = RESUMES_ON_EVERY_OUTPUT ? it : it.skip;
const whereNotChecked = RESUMES_ON_EVERY_OUTPUT ? it.skip : it;

describe('Payout → Wait for Results in real n8n', () => {
	whereChecked(
		'the payroll execution waits; the ledger rows changed meanwhile (processed, failed) leave on Paid and Failed at the first check',
		async () => {
			const waiting = await start(WAITS, (e) => e.status === 'waiting' || ended(e));
			expect(waiting.status).toBe('waiting');
			// Nothing on any output while it waits.
			expect(waitRows(waiting)).toEqual([[], [], []]);

			await setRow('WAIT-0', { state: 'processed', utr: 'UTR-W0' });
			await setRow('WAIT-1', { state: 'failed', reason: 'Account closed' });
			await setRow('WAIT-2', { state: 'processed', utr: 'UTR-W2' });

			// The check comes 15 s after the wait began (shortened), at n8n's wait tracker's next look
			// (every minute); a check before the rows changed waits once more.
			const done = await executionWhere(
				n8n,
				WAITS,
				(e) => e.id === waiting.id && ended(e),
				240_000,
			);
			expect(done.status).toBe('success');
			expect(waitRows(done)).toEqual([
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

	whereChecked(
		"results in the ledger before the wait (settled by n8n's Data Table node): no wait at all, every row on Paid",
		async () => {
			const done = await start(AT_ONCE, ended);
			expect(done.status).toBe('success');
			expect(waitRows(done)).toEqual([
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
			// Well under the first check's 15 s: it never waited.
			expect(
				Date.parse(String(timed.stoppedAt)) - Date.parse(String(timed.startedAt)),
			).toBeLessThan(15_000);
		},
		LONG,
	);

	whereNotChecked(
		'where n8n resumes a waiting node on its first output only: refused before waiting, saying why',
		async () => {
			const done = await start(WAITS, ended);
			expect(done.status).toBe('error');
			const { error, lastNodeExecuted } = done.data!.resultData as {
				error?: { message?: string };
				lastNodeExecuted?: string;
			};
			expect([lastNodeExecuted, error?.message]).toEqual(['Wait', NOT_IN_THIS_N8N]);
			expect(await n8n.executions(WAITS)).toHaveLength(1);
		},
		LONG,
	);
});
