// The payout ledger in real n8n: the account's data table, shared by every workflow paying from
// the account. n8n 1.123–2.41 keep their data table helpers to n8n's own nodes, so this also
// proves the package reaches n8n's data table service through its door (nodes/n8n-internals).
// `n8n execute` initialises none of n8n's modules (only start, webhook and worker do), so data
// tables are off in CLI runs, for n8n's own Data Table node too: the payroll runs are started by
// webhooks in one `n8n start` (each start costs 20–60 s).
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';

import { startSandbox, type Sandbox } from '../sandbox';
import { N8n, type WorkflowJson } from './n8n';
import {
	dataTableNode,
	importPayoutCredential,
	MANUAL,
	items,
	payroll,
	queuedTimes as queuedIn,
	rowsCode,
	runByWebhook as runIn,
	stopAfterAll,
	tableRows,
	webhook,
	webhookPayroll,
	workflowOf,
} from './payout-ledger';

const PAYROLL = 'e2eLedgerPayroll';
const COPY = 'e2eLedgerPayrollCopy';
const READER = 'e2eLedgerReader';
const CLI = 'e2eLedgerCli';
const AT_ONCE = ['e2eLedgerAtOnceA', 'e2eLedgerAtOnceB'] as const;
const LONG = 600_000;

let sandbox: Sandbox;
let n8n: N8n;
let tableName: string;
/** The execution of the payroll run that queued PAY-0 and PAY-1 (from the ledger's records). */
let paidBy: string | undefined;
let tableId: string | undefined;

const queuedTimes = (prefix: string) => queuedIn(sandbox, prefix);
const runByWebhook = async (id: string) => await runIn(n8n, id);

/** n8n's own Data Table node: the ledger's rows of one Reference No, the table chosen by name. */
function reader(name: string, reference: string): WorkflowJson {
	const start = webhook(READER);
	return workflowOf(
		READER,
		[
			{ id: randomUUID(), position: [0, 0], ...start },
			dataTableNode('Ledger', 220, name, {
				operation: 'get',
				filters: {
					conditions: [{ keyName: 'reference_no', condition: 'eq', keyValue: reference }],
				},
			}),
		],
		[start.name, 'Ledger'],
	);
}

beforeAll(async () => {
	sandbox = await startSandbox({ seed: 42, transactionCount: 1 });
	n8n = await N8n.create();
	tableName = await importPayoutCredential(n8n, sandbox);
	const overlapping = [
		['ONCE-0', 'ONCE-1', 'ONCE-2', 'ONCE-3'],
		['ONCE-2', 'ONCE-3', 'ONCE-4', 'ONCE-5'],
	];
	const published = [
		webhookPayroll(PAYROLL, rowsCode(['PAY-0', 'PAY-1'], 'Salary Novmber')),
		// A copy (another workflow id) with the Remark fixed, as a payroll team makes one.
		webhookPayroll(COPY, rowsCode(['PAY-0', 'PAY-1'], 'Salary November')),
		reader(tableName, 'PAY-1'),
		...AT_ONCE.map((id, i) => webhookPayroll(id, rowsCode(overlapping[i], `Run ${i}`))),
	];
	await n8n.importWorkflows([...published, payroll(CLI, MANUAL, rowsCode(['CLI-0'], 'Salary'))]);
	for (const workflow of published) await n8n.publish(workflow.id);
}, LONG);

stopAfterAll(() => ({ n8n, sandbox }));

describe('the payout ledger in real n8n: an n8n data table per payout account', () => {
	it(
		"`n8n execute` (no n8n modules in the CLI): the node's memory, and the output says so",
		async () => {
			const run = await n8n.execute(CLI);
			expect(run.code).toBe(0);
			expect(run.items('Payouts')[0].json).toMatchObject({
				status: 'queued',
				ledger: "node memory (n8n's data tables are off)",
			});
		},
		LONG,
	);

	describe('with n8n started', () => {
		beforeAll(async () => {
			await n8n.start();
			await n8n.waitForWebhooks(
				[PAYROLL, COPY, READER, ...AT_ONCE].map((id) => `${n8n.baseUrl}/webhook/${id}`),
			);
		}, 900_000);
		afterAll(async () => await n8n.stop());

		it(
			'the payroll queues its rows in the data table; a copy of it with the Remark fixed pays no one again and fails naming the references and the run that paid them',
			async () => {
				const first = await runByWebhook(PAYROLL);
				expect(first.status).toBe('success');
				expect(items(first, 'Payouts')[0]).toMatchObject({
					status: 'queued',
					total_records: 2,
					ledger: expect.stringMatching(
						/^data table "Payout ledger .*" \(project \S+, through n8n's data table service\)$/,
					),
					ledgerTable: { name: tableName },
				});
				expect(queuedTimes('PAY-')).toEqual({ 'PAY-0': 1, 'PAY-1': 1 });

				const copy = await runByWebhook(COPY);
				expect(copy.status).toBe('error');
				const error = copy.data?.resultData.error as { message?: string; description?: string };
				expect(error.message).toBe('Nothing was paid: every row of this run was already queued');
				expect(error.description).toContain('Reference No PAY-0, PAY-1');
				expect(error.description).toContain(`Paid by workflow ${PAYROLL} (execution ${first.id})`);
				paidBy = first.id;
				tableId = String((items(first, 'Payouts')[0].ledgerTable as { id: string }).id);
				expect(queuedTimes('PAY-')).toEqual({ 'PAY-0': 1, 'PAY-1': 1 });
			},
			LONG,
		);
		it(
			"the ledger's lookup columns carry an index, and n8n's own filter query by reference uses it",
			() => {
				// n8n's SQLite file, read-only, beside the running n8n (node:sqlite, Node.js 24).
				const { DatabaseSync } = require('node:sqlite') as typeof import('node:sqlite');
				const db = new DatabaseSync(join(n8n.userFolder, '.n8n', 'database.sqlite'), {
					readOnly: true,
				});
				try {
					const table = `data_table_user_${tableId}`;
					const indexes = db
						.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?")
						.all(table)
						.map((row) => String(row.name));
					expect(indexes).toEqual(
						expect.arrayContaining([`pgw_${tableId}_reference_no`, `pgw_${tableId}_request_id`]),
					);
					// The shape of n8n's `or` of `eq` filters (data-table-rows.repository).
					const plan = db
						.prepare(
							`EXPLAIN QUERY PLAN SELECT * FROM "${table}" WHERE "reference_no" = ? OR "reference_no" = ?`,
						)
						.all('PAY-0', 'PAY-1')
						.map((row) => String(row.detail));
					expect(plan.join(' | ')).toContain(`INDEX pgw_${tableId}_reference_no`);
				} finally {
					db.close();
				}
			},
			LONG,
		);
		it(
			"the ledger is a data table n8n lists, its rows readable through n8n's REST API",
			async () => {
				const rows = (await tableRows(n8n, tableName)).filter((row) =>
					String(row.reference_no).startsWith('PAY-'),
				);
				expect(
					rows.map((row) => [row.reference_no, row.state, row.workflow_id, row.execution_id]),
				).toEqual([
					['PAY-0', 'queued', PAYROLL, paidBy],
					['PAY-1', 'queued', PAYROLL, paidBy],
				]);
				const requestIds = rows.map((row) => row.request_id);
				expect(requestIds[0]).toMatch(/^n8n-[0-9a-f]{26}$/);
				expect(requestIds[1]).toBe(requestIds[0]);
			},
			LONG,
		);

		it(
			'two workflows paying overlapping references at the same time pay each reference once',
			async () => {
				const runs = await Promise.all(AT_ONCE.map(runByWebhook));
				const counts = queuedTimes('ONCE-');
				// No reference twice; the first run's four all queued; the other run either paid only
				// its new two or stopped before sending anything (it met the first's claims).
				expect(counts).toEqual(Object.fromEntries(Object.keys(counts).map((ref) => [ref, 1])));
				expect(Object.keys(counts).length).toBeGreaterThanOrEqual(4);
				expect(runs.map((run) => run.status)).toContain('success');
				for (const run of runs.filter((r) => r.status === 'success'))
					expect(String(items(run, 'Payouts')[0].ledger)).toMatch(/^data table "Payout ledger /);
				// Said for the record: how the second run ended.
				console.info(
					`at once: ${runs.map((r) => `${r.workflowId} ${r.status} ${String(r.data?.resultData.error?.message ?? '')}`).join('; ')}; queued ${JSON.stringify(counts)}`,
				);
			},
			LONG,
		);

		it(
			"n8n's own Data Table node reads the ledger's record of a reference",
			async () => {
				const read = await runByWebhook(READER);
				expect(read.status).toBe('success');
				expect(items(read, 'Ledger')).toEqual([
					expect.objectContaining({
						reference_no: 'PAY-1',
						state: 'queued',
						workflow_id: PAYROLL,
						execution_id: paidBy,
						account_last4: '9012',
					}),
				]);
			},
			LONG,
		);
	});
});
