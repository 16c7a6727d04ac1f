// A payout ledger in the harness's in-memory n8n data tables with every reference queued in one
// batch: where the results unit tests start.
import { DataTableLedger } from '../../../../../../nodes/PaymentGateway/actions/payout/ledger/dataTableLedger';
import { openTable } from '../../../../../../nodes/PaymentGateway/actions/payout/ledger/table';
import { MemoryDataTables } from '../../../../../harness/data-tables';

const node = { type: 'n8n-nodes-payment-gateway.paymentGateway' } as never;

/** A new ledger table (`label` in its name) with `refs` queued as batch `requestId`. */
export async function queuedLedger(label: string, refs: string[], requestId: string) {
	const store = new MemoryDataTables();
	const aggregate = await store.getDataTableAggregateProxy({} as never, node);
	const table = await openTable(
		aggregate,
		async (id) => await store.getDataTableProxy({} as never, node, id),
		`Payout ledger ${label} ${Math.random()}`,
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
		confirmed: [{ refs, attempt: 1, requestId }],
		released: [],
		markers: [],
	});
	return { table, key: table.name, store };
}
