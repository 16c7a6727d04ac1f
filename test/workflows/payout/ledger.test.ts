// Payout → Bulk Create (version 3) with the account's ledger in an n8n data table (the harness's
// in-memory data tables, as n8n's DataTableProxyService serves them): shared by every workflow
// paying from the account, claimed atomically, readable as plain columns.
import type { IDataObject } from 'n8n-workflow';

import { dataTables } from '../../harness';
import {
	bulkCreate,
	neftRows,
	outputJson as json,
	queuedCounts,
	tagger,
	useSandbox,
} from './support';

const sandbox = useSandbox();

const rows = (tag: string, from: number, to: number, remark = 'Salary') =>
	neftRows(tag, to - from, { from, remark });
const tagOf = tagger('L');

const payout = (workflowId: string, items: IDataObject[], remark = 'November') =>
	bulkCreate(sandbox(), items, { remark }, { workflowId });

const queued = (tag: string) => queuedCounts(sandbox(), tag);
const ledgerRows = (name: string, tag: string) =>
	dataTables.store.rowsOf(name).filter((row) => String(row.reference_no).startsWith(`${tag}-`));

describe('payout ledger (n8n data table per payout account)', () => {
	it('a copy of the workflow with the Remark fixed pays no one again, naming the references and the run that paid them; the ledger is plain columns', async () => {
		const tag = tagOf();
		const first = await payout(`${tag}-november`, rows(tag, 0, 3), 'Novmber');
		expect(first.error).toBeUndefined();
		const [batch] = json(first);
		const table = batch.ledgerTable as { name: string; projectId: string };
		expect(table.name).toMatch(/^Payout ledger \S+ \S{1,6}$/);
		expect(table.projectId).toBe('harness-project');
		expect(batch.ledger).toBe(`data table "${table.name}" (project harness-project)`);

		const copy = await payout(`${tag}-november-copy`, rows(tag, 0, 3), 'November');
		expect(copy.error?.message).toBe('Nothing was paid: every row of this run was already queued');
		const description = String((copy.error as { description?: string }).description);
		expect(description).toContain(`Reference No ${tag}-0, ${tag}-1, ${tag}-2`);
		expect(description).toMatch(
			new RegExp(`Paid by workflow ${tag}-november \\(execution harness-\\d+\\)`),
		);
		expect([...queued(tag).values()]).toEqual([1, 1, 1]);

		const records = ledgerRows(table.name, tag);
		expect(records).toHaveLength(3);
		expect(records[0]).toMatchObject({
			reference_no: `${tag}-0`,
			state: 'queued',
			amount: 300,
			currency: 'INR',
			beneficiary_name: 'Meera Iyer',
			account_last4: '9012',
			request_id: batch.request_id,
			batch_remark: 'Novmber',
			workflow_id: `${tag}-november`,
			attempt: 1,
			attempts: null,
		});
		expect(records[0].queued_at).toBeInstanceOf(Date);
		// The account number's last 4 digits only, in any column.
		expect(JSON.stringify(records)).not.toContain('123456789012');
	});

	it('two workflows paying overlapping references at the same time pay each at most once', async () => {
		const tag = tagOf();
		// Every data table call takes a round trip, so the two runs interleave.
		dataTables.store.delayMs = 5;
		// Two claims that both read before either writes would both write here: the lock serialises them.
		dataTables.store.gatherInserts = 2;
		const [a, b] = await Promise.all([
			payout(`${tag}-a`, rows(tag, 0, 30)),
			payout(`${tag}-b`, rows(tag, 20, 50)),
		]);
		const counts = queued(tag);
		expect(Math.max(...counts.values())).toBe(1);
		// The run that claimed first paid all its rows; the other found the overlap claimed by a run
		// whose answer it cannot know, and either paid it once as the same batch or stopped naming it.
		const failed = [a, b].filter((run) => run.error);
		expect(failed.length).toBeLessThanOrEqual(1);
		for (const run of failed) {
			expect(run.error?.message).toMatch(
				new RegExp(
					`^Nothing was sent: 10 rows were claimed by another run that may still be paying them \\(Reference No ${tag}-20, `,
				),
			);
			// Names the run holding them and warns that Send Again while it runs could pay twice.
			const other = run === a ? `${tag}-b` : `${tag}-a`;
			expect(String((run.error as { description?: string }).description)).toMatch(
				new RegExp(`^Claimed by workflow ${other} \\(execution [^)]+\\) at .*could pay twice\\.$`),
			);
		}
		expect(counts.size).toBe(failed.length ? 30 : 50);
		const paid = json(failed.length ? (a.error ? b : a) : a)[0];
		const records = ledgerRows(String((paid.ledgerTable as IDataObject).name), tag);
		// One record per Reference No, though data tables have no unique constraint.
		expect(new Set(records.map((r) => r.reference_no)).size).toBe(records.length);
	});

	it("where n8n keeps its data table helpers to its own nodes (n8n 1.123–2.41), the ledger is the same data table, reached through n8n's data table service", async () => {
		const tag = tagOf();
		dataTables.store.onlyN8nNodes = true;
		const first = json(await payout(tag, rows(tag, 0, 2)))[0];
		expect(first).toMatchObject({
			status: 'queued',
			ledger: expect.stringMatching(
				/^data table "Payout ledger .*, through n8n's data table service\)$/,
			),
		});
		// A copy of the workflow (another workflow id) pays no one again.
		const copy = await payout(`${tag}-copy`, rows(tag, 0, 2, 'Salary fixed'));
		expect(copy.error?.message).toBe('Nothing was paid: every row of this run was already queued');
		expect(String((copy.error as { description?: string }).description)).toMatch(
			new RegExp(`Reference No ${tag}-0, ${tag}-1.*Paid by workflow ${tag} \\(execution`, 's'),
		);
		expect([...queued(tag).values()]).toEqual([1, 1]);
		const records = ledgerRows(String((first.ledgerTable as IDataObject).name), tag);
		expect(records.map((r) => [r.reference_no, r.state])).toEqual([
			[`${tag}-0`, 'queued'],
			[`${tag}-1`, 'queued'],
		]);
	});

	it('a run reads only the records of its own references, however many the ledger holds', async () => {
		const tag = tagOf();
		const first = json(await payout(`${tag}-earlier`, rows(tag, 0, 1)))[0];
		const table = first.ledgerTable as { id: string; name: string; projectId: string };
		// Twenty months of an earlier payroll, written by other runs (and other processes).
		const earlier = Array.from({ length: 3000 }, (_, i) => ({
			reference_no: `${tag}-old-${i}`,
			state: 'queued',
			amount: 100,
			request_id: `n8n-old-${Math.floor(i / 500)}`,
			attempt: 1,
		}));
		await dataTables.store
			.makeDataTableOperations(table.projectId, table.id)
			.insertRows(earlier, 'count');
		dataTables.store.rowsRead = 0;
		const run = json(await payout(`${tag}-next`, rows(tag, 1, 4)))[0];
		expect(run).toMatchObject({ status: 'queued', total_records: 3 });
		// Its three new references have no rows yet; n8n's count reads one row.
		expect(dataTables.store.rowsRead).toBeLessThanOrEqual(1);
		expect(run.ledgerRecords).toBe(dataTables.store.rowsOf(table.name).length);
		// And a reference of the earlier payroll is found, from any workflow.
		dataTables.store.rowsRead = 0;
		const again = await payout(`${tag}-again`, [rows(tag, 0, 1)[0]]);
		expect(again.error?.message).toBe('Nothing was paid: every row of this run was already queued');
		expect(dataTables.store.rowsRead).toBeLessThanOrEqual(2);
	});

	it("where n8n's data table module is off, the node's memory is used and the output says so", async () => {
		const tag = tagOf();
		dataTables.enabled = false;
		try {
			const result = await payout(tag, rows(tag, 0, 1));
			expect(json(result)[0]).toMatchObject({
				status: 'queued',
				ledger: expect.stringMatching(/^node memory \(n8n's data tables/),
			});
			expect((await payout(tag, rows(tag, 0, 1))).error?.message).toMatch(/^Nothing was paid/);
		} finally {
			dataTables.enabled = true;
		}
	});
});
