// The ledger's read path (ledger/table.ts): a run reads its own references' records, fresh, under
// the account's lock; nothing of the table is cached between runs or processes.
import { DataTableLedger } from '../../../../../../nodes/PaymentGateway/actions/payout/ledger/dataTableLedger';
import {
	applyResult,
	applyResults,
	recordsByReference,
	recordsByRequestId,
} from '../../../../../../nodes/PaymentGateway/actions/payout/ledger/results';
import {
	openTable,
	readByReference,
	ONE_PASS_FROM,
} from '../../../../../../nodes/PaymentGateway/actions/payout/ledger/table';
import { MemoryDataTables } from '../../../../../harness/data-tables';

const node = { type: 'n8n-nodes-payment-gateway.paymentGateway' } as never;

async function ledgerTable(store = new MemoryDataTables()) {
	const aggregate = await store.getDataTableAggregateProxy({} as never, node);
	const table = await openTable(
		aggregate,
		async (id) => await store.getDataTableProxy({} as never, node, id),
		`Payout ledger table ${Math.random()}`,
	);
	return { table, store, key: table.name };
}

/** A run of the node queuing `refs` under `requestId`, as Bulk Create's send path does. */
async function pay(
	opened: Awaited<ReturnType<typeof ledgerTable>>,
	refs: string[],
	requestId: string,
) {
	const rows = refs.map((ref, i) => ({ row: i + 2, values: { 'Reference No': ref, Amount: 10 } }));
	const ledger = new DataTableLedger(
		opened.table,
		opened.key,
		{ workflowId: 'w', executionId: requestId },
		{ rows, currency: 'INR', remark: 'Nov' },
		0,
	);
	const claimed = await ledger.claim(refs);
	await ledger.settle({
		confirmed: [{ refs: claimed.fresh, attempt: 1, requestId }],
		released: [],
		markers: [],
	});
	return { claimed, info: ledger.info };
}

/** What another n8n process writes, stamped by its own clock (queue mode: several clocks). */
function changedElsewhere(
	store: MemoryDataTables,
	name: string,
	ref: string,
	change: Record<string, unknown>,
	clockBehindMs: number,
) {
	const row = store.rowsOf(name).find((r) => r.reference_no === ref);
	if (!row) throw new Error(`no row of ${ref}`);
	Object.assign(row, change, { updatedAt: new Date(Date.now() - clockBehindMs) });
}

describe('payout ledger table: what a run reads', () => {
	it('a claim reads only its own references and n8n’s count, however large the table', async () => {
		const opened = await ledgerTable();
		const earlier = Array.from({ length: 2000 }, (_, i) => `OLD-${i}`);
		await pay(opened, earlier, 'n8n-old');
		opened.store.rowsRead = 0;
		const { claimed, info } = await pay(opened, ['OLD-7', 'NEW-1', 'NEW-2'], 'n8n-new');
		expect(claimed.queued).toEqual(new Set(['OLD-7']));
		expect(claimed.fresh).toEqual(['NEW-1', 'NEW-2']);
		// OLD-7's row, and the one row n8n's count query hands out.
		expect(opened.store.rowsRead).toBe(2);
		expect(info.ledgerRecords).toBe(2002);
	});

	it('a record another process changed is seen by the next read, whatever that process’s clock', async () => {
		const opened = await ledgerTable();
		const { table, store, key } = opened;
		await pay(opened, ['A', 'B', 'C'], 'n8n-batch-1');
		expect((await recordsByReference(table, key, ['A', 'B'])).map((r) => r.state)).toEqual([
			'queued',
			'queued',
		]);
		// Within the last minute by a process whose clock is right, and by one whose clock is 2
		// minutes behind (a results post applied by another worker).
		changedElsewhere(store, table.name, 'A', { state: 'processed', utr: 'UTR-A' }, 30_000);
		changedElsewhere(
			store,
			table.name,
			'B',
			{ state: 'failed', reason: 'Account closed' },
			120_000,
		);
		expect(
			(await recordsByReference(table, key, ['A', 'B'])).map((r) => [r.reference_no, r.state]),
		).toEqual([
			['A', 'processed'],
			['B', 'failed'],
		]);
		// The results path decides on what is there now: a late processed after failed changes nothing.
		expect(await applyResult(table, key, { reference_no: 'B', state: 'processed' })).toMatchObject({
			applied: false,
			why: 'ignored',
			record: { state: 'failed' },
		});
		// Another process's claim let go (its row deleted): gone for the next read too.
		store.rowsOf(table.name).splice(
			store.rowsOf(table.name).findIndex((r) => r.reference_no === 'C'),
			1,
		);
		expect((await recordsByReference(table, key, ['C'])).length).toBe(0);
		expect(
			(await recordsByRequestId(table, key, 'n8n-batch-1')).map((r) => r.reference_no),
		).toEqual(['A', 'B']);
	});

	it(`from ${ONE_PASS_FROM} references on, one pass over the table by id pages keeps only the run’s records`, async () => {
		const opened = await ledgerTable();
		const paid = Array.from({ length: 2500 }, (_, i) => `P-${i}`);
		await pay(opened, paid, 'n8n-batch-1');
		const wanted = Array.from({ length: ONE_PASS_FROM }, (_, i) => `P-${i * 7}`);
		const calls = opened.store.calls;
		// Another run: its own opened table (the view of the run that paid them is its own).
		const run = { ...opened.table };
		const records = await readByReference(run, wanted);
		// 2,500 rows in pages of 1,000: three reads.
		expect(opened.store.calls - calls).toBe(3);
		expect(records.size).toBe(wanted.filter((ref) => paid.includes(ref)).length);
		expect([...records.keys()].every((ref) => wanted.includes(ref))).toBe(true);
		// Below it, one query of those references only.
		const few = wanted.slice(0, ONE_PASS_FROM - 1);
		opened.store.rowsRead = 0;
		await readByReference({ ...opened.table }, few);
		expect(opened.store.rowsRead).toBe(few.filter((ref) => paid.includes(ref)).length);
	});

	it('a results post is applied row by row after one read of its rows’ records', async () => {
		const opened = await ledgerTable();
		await pay(opened, ['A', 'B', 'OTHER'], 'n8n-batch-1');
		opened.store.rowsRead = 0;
		const applied = await applyResults(opened.table, opened.key, [
			{ reference_no: 'A', state: 'processed', utr: 'UTR-A' },
			{ reference_no: 'A', state: 'processed', utr: 'UTR-A' },
			{ reference_no: 'B', state: 'failed', reason: 'Account closed' },
			{ reference_no: 'A', state: 'reversed' },
			{ reference_no: 'Z', state: 'processed' },
		]);
		expect(applied.map((a) => (a.applied ? `applied ${a.record.state}` : a.why))).toEqual([
			'applied processed',
			'ignored',
			'applied failed',
			'applied reversed',
			'unknown reference',
		]);
		// A's and B's rows: read once, never the other records.
		expect(opened.store.rowsRead).toBe(2);
		expect(
			(await recordsByReference(opened.table, opened.key, ['A'])).map((r) => [r.state, r.utr]),
		).toEqual([['reversed', 'UTR-A']]);
	});
});
