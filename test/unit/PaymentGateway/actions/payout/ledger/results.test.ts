import { DataTableLedger } from '../../../../../../nodes/PaymentGateway/actions/payout/ledger/dataTableLedger';
import {
	applyResult,
	recordsByReference,
	recordsByRequestId,
} from '../../../../../../nodes/PaymentGateway/actions/payout/ledger/results';
import { openTable } from '../../../../../../nodes/PaymentGateway/actions/payout/ledger/table';
import { MemoryDataTables } from '../../../../../harness/data-tables';

const node = { type: 'n8n-nodes-payment-gateway.paymentGateway' } as never;

async function queuedLedger(refs: string[]) {
	const store = new MemoryDataTables();
	const aggregate = await store.getDataTableAggregateProxy({} as never, node);
	const table = await openTable(
		aggregate,
		async (id) => await store.getDataTableProxy({} as never, node, id),
		`Payout ledger results ${Math.random()}`,
	);
	const rows = refs.map((ref, i) => ({ row: i + 2, values: { 'Reference No': ref, Amount: 10 } }));
	const ledger = new DataTableLedger(
		table,
		table.name,
		{ workflowId: 'w', executionId: 'e' },
		{ rows, currency: 'INR', remark: 'Nov' },
		0,
	);
	await ledger.claim(refs);
	await ledger.settle({
		confirmed: [{ refs, attempt: 1, requestId: 'n8n-batch-1' }],
		released: [],
		markers: [],
	});
	return { table, key: table.name, store };
}

describe('payout ledger: results applied by the one transition rule', () => {
	it('processed with a UTR, then reversed; a late failed and a repeat change nothing', async () => {
		const { table, key } = await queuedLedger(['A', 'B']);
		expect(
			await applyResult(table, key, { reference_no: 'A', state: 'processed', utr: 'UTR1' }),
		).toMatchObject({
			applied: true,
			record: { state: 'processed', utr: 'UTR1' },
		});
		expect(
			await applyResult(table, key, { reference_no: 'A', state: 'processed', utr: 'UTR1' }),
		).toMatchObject({ applied: false, why: 'ignored' });
		expect(
			await applyResult(table, key, { reference_no: 'A', state: 'failed', reason: 'late' }),
		).toMatchObject({ applied: false, why: 'ignored' });
		expect(await applyResult(table, key, { reference_no: 'A', state: 'reversed' })).toMatchObject({
			applied: true,
			record: { state: 'reversed', utr: 'UTR1' },
		});
		expect(
			await applyResult(table, key, {
				reference_no: 'B',
				state: 'failed',
				reason: 'Account closed',
			}),
		).toMatchObject({ applied: true });
		expect(await applyResult(table, key, { reference_no: 'Z', state: 'processed' })).toMatchObject({
			applied: false,
			why: 'unknown reference',
		});
		expect(
			await applyResult(table, key, { reference_no: 'B', state: 'processed', request_id: 'other' }),
		).toMatchObject({ applied: false, why: 'other attempt' });
		expect(
			(await recordsByReference(table, key, ['B', 'Z'])).map((r) => [
				r.reference_no,
				r.state,
				r.reason,
			]),
		).toEqual([['B', 'failed', 'Account closed']]);
		expect(
			(await recordsByRequestId(table, key, 'n8n-batch-1')).map((r) => r.reference_no),
		).toEqual(['A', 'B']);
	});
});
