import type {
	DataTable,
	DataTableFilter,
	DataTableRow,
	IDataTableProjectAggregateService,
	IDataTableProjectService,
} from 'n8n-workflow';

import type { DataTableRows } from '../../../../n8n-internals';
import type { LedgerRecord } from './record';
import { LEDGER_COLUMNS, recordOf } from './record';

/**
 * Data tables have no index but the id, and no `in` condition: an `or` of `eq` on reference_no is
 * compared term by term with every row, twice (n8n reads the rows, then counts them): about 60 ns
 * a row and reference in n8n 2.41.1 on SQLite, against about 33 µs a row for reading the table
 * (n8n converts each row). From this many references on, one pass over the table by id pages
 * (only the run's references kept) costs less. Below it, one `or` query: SQLite refuses an
 * expression deeper than 1,000 terms. Measured: bench figure payoutLedger, docs/performance.md.
 */
export const ONE_PASS_FROM = 500;
/** Rows read per page of a pass. */
const PAGE = 1000;
/** Rows written per call. */
const WRITE = 500;

/**
 * The records a run has read or written through this table (never the whole table): its own
 * references, kept as its writes change them. One per opened table, so one per run.
 */
const views = new WeakMap<LedgerTable, Map<string, LedgerRecord>>();

export interface LedgerTable {
	id: string;
	name: string;
	projectId: string;
	proxy: IDataTableProjectService;
	/** How the table is reached: n8n's helpers, or n8n's data table service through the door. */
	via?: string;
	/** reference_no and request_id carry an index (ledger/index.ts): reads by them are lookups. */
	indexed?: boolean;
	/** All rows of a write in one transaction (the door's "data table rows"); else one call a row. */
	rows?: DataTableRows;
}

/** The account's table in the workflow's project, created with its columns on first use. */
export async function openTable(
	aggregate: IDataTableProjectAggregateService,
	getProxy: (id: string) => Promise<IDataTableProjectService>,
	name: string,
): Promise<LedgerTable> {
	const projectId = aggregate.getProjectId();
	const find = async () =>
		(await aggregate.getManyAndCount({ filter: { name }, take: 50 })).data.find(
			(table) => table.name === name,
		);
	// n8n refuses a second table of the same name in a project: when another run created it
	// meanwhile, it is found the second time; any other failure is the creation's own.
	const table =
		(await find()) ??
		((await aggregate
			.createDataTable({ name, columns: LEDGER_COLUMNS })
			.catch(
				async (error: unknown) => (await find()) ?? (await Promise.reject(error)),
			)) as DataTable);
	const proxy = await getProxy(table.id);
	await addMissingColumns(proxy);
	return { id: table.id, name: table.name, projectId, proxy };
}

/** A table created by an older release of the package gets the columns added since. */
async function addMissingColumns(proxy: IDataTableProjectService): Promise<void> {
	const have = new Set((await proxy.getColumns()).map((column) => column.name));
	for (const column of LEDGER_COLUMNS)
		if (!have.has(column.name)) await proxy.addColumn({ name: column.name, type: column.type });
}

/** Records of rows in id order; several rows of one reference (added by hand): the lowest id counts. */
function recordsOf(rows: Array<Record<string, unknown>>): Map<string, LedgerRecord> {
	const byRef = new Map<string, LedgerRecord>();
	for (const row of rows) {
		// A row that is no ledger record (added by hand without a state) is left out.
		const record = recordOf(row);
		if (record && !byRef.has(record.reference_no)) byRef.set(record.reference_no, record);
	}
	return byRef;
}

async function rowsWhere(
	table: LedgerTable,
	filter: DataTableFilter,
): Promise<Array<Record<string, unknown>>> {
	const { data } = await table.proxy.getManyRowsAndCount({ filter, sortBy: ['id', 'ASC'] });
	return data as Array<Record<string, unknown>>;
}

/** Terms of one `or` query: SQLite refuses an expression deeper than 1,000 terms. */
const TERMS = 900;

/**
 * The records of `wanted`: `reference_no IN (…)` where the door reads rows (rows as n8n's service
 * gives them), else `or` queries of at most TERMS references each through n8n's service.
 */
async function queried(table: LedgerTable, wanted: string[]): Promise<Map<string, LedgerRecord>> {
	if (table.rows?.readWhereIn)
		return recordsOf(await table.rows.readWhereIn(table.id, 'reference_no', wanted));
	const found = new Map<string, LedgerRecord>();
	for (let start = 0; start < wanted.length; start += TERMS) {
		const rows = await rowsWhere(table, {
			type: 'or',
			filters: wanted
				.slice(start, start + TERMS)
				.map((value) => ({ columnName: 'reference_no', condition: 'eq', value })),
		});
		for (const [ref, record] of recordsOf(rows)) if (!found.has(ref)) found.set(ref, record);
	}
	return found;
}

/**
 * The records of `wanted` in one pass over the table, a page of ids at a time after the last id
 * read (an indexed range, never an offset): only those records are kept, nothing else.
 */
async function passed(table: LedgerTable, wanted: string[]): Promise<Map<string, LedgerRecord>> {
	const want = new Set(wanted);
	const found = new Map<string, LedgerRecord>();
	for (let after = 0; ; ) {
		const { data } = await table.proxy.getManyRowsAndCount({
			filter: { type: 'and', filters: [{ columnName: 'id', condition: 'gt', value: after }] },
			sortBy: ['id', 'ASC'],
			take: PAGE,
		});
		const rows = data as Array<Record<string, unknown>>;
		for (const [ref, record] of recordsOf(rows.filter((row) => want.has(String(row.reference_no)))))
			if (!found.has(ref)) found.set(ref, record);
		if (rows.length < PAGE) return found;
		after = Number(rows[rows.length - 1].id);
	}
}

/**
 * The records of `refs` as they are now in the table (read fresh, no cache: call it under the
 * account's lock). Returns this table's view: every record read or written through it, these
 * references read just now, kept as its writes change them.
 */
export async function readByReference(
	table: LedgerTable,
	refs: Iterable<string>,
): Promise<Map<string, LedgerRecord>> {
	const view = views.get(table) ?? new Map<string, LedgerRecord>();
	views.set(table, view);
	const wanted = [...new Set(refs)];
	// Indexed, or one IN read (a pass at most per statement): lookups, whatever the count; else one
	// pass over the table costs less from ONE_PASS_FROM than n8n's `or` filters.
	const found =
		table.indexed || table.rows?.readWhereIn || wanted.length < ONE_PASS_FROM
			? await queried(table, wanted)
			: await passed(table, wanted);
	// A reference without a record now (its claim let go elsewhere) is no longer in the view.
	for (const ref of wanted) {
		const record = found.get(ref);
		if (record) view.set(ref, record);
		else view.delete(ref);
	}
	return view;
}

/** The records whose current attempt went out under `requestId`, in id order. */
export async function readByRequestId(
	table: LedgerTable,
	requestId: string,
): Promise<LedgerRecord[]> {
	const rows = await rowsWhere(table, {
		type: 'and',
		filters: [{ columnName: 'request_id', condition: 'eq', value: requestId }],
	});
	return [...recordsOf(rows).values()];
}

/** Rows in the table, counted by n8n (one row read), then followed through this table's writes. */
const rowCounts = new WeakMap<LedgerTable, number>();

/** Counts the table's rows now (for the size said in the output): n8n's count, one row read. */
export async function countRows(table: LedgerTable): Promise<number> {
	const { count } = await table.proxy.getManyRowsAndCount({ take: 1 });
	rowCounts.set(table, count);
	return count;
}

/** The rows counted last, with this table's inserts and deletions since; undefined before a count. */
export const rowCountOf = (table: LedgerTable) => rowCounts.get(table);

function counted(table: LedgerTable, change: number): void {
	const count = rowCounts.get(table);
	if (count !== undefined) rowCounts.set(table, Math.max(0, count + change));
}

/** Rows this table's view should know of (what its run wrote). */
function remember(table: LedgerTable, rows: Array<Record<string, unknown>>): void {
	const view = views.get(table);
	if (!view) return;
	for (const row of rows) {
		const record = recordOf(row);
		const held = record && view.get(record.reference_no);
		if (record && (!held || held.id >= record.id)) view.set(record.reference_no, record);
	}
}

function forget(table: LedgerTable, ids: number[]): void {
	const view = views.get(table);
	if (!view) return;
	const gone = new Set(ids);
	for (const [ref, record] of view) if (gone.has(record.id)) view.delete(ref);
}

export async function insert(table: LedgerTable, rows: DataTableRow[]): Promise<void> {
	for (let start = 0; start < rows.length; start += WRITE) {
		const written = await table.proxy.insertRows(rows.slice(start, start + WRITE), 'all');
		remember(table, written as unknown as Array<Record<string, unknown>>);
		counted(table, written.length);
	}
}

/** The same columns written to every row of `ids`: one call per run of consecutive ids. */
export async function updateIds(
	table: LedgerTable,
	ids: number[],
	data: DataTableRow,
): Promise<void> {
	const sorted = [...new Set(ids)].sort((a, b) => a - b);
	for (let i = 0; i < sorted.length; ) {
		let j = i;
		while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j += 1;
		const updated = await table.proxy.updateRows({
			filter: {
				type: 'and',
				filters: [
					{ columnName: 'id', condition: 'gte', value: sorted[i] },
					{ columnName: 'id', condition: 'lte', value: sorted[j] },
				],
			},
			data,
		});
		remember(table, updated as unknown as Array<Record<string, unknown>>);
		i = j + 1;
	}
}

export async function deleteIds(table: LedgerTable, ids: number[]): Promise<void> {
	for (const id of ids)
		await table.proxy.deleteRows({
			filter: { type: 'and', filters: [{ columnName: 'id', condition: 'eq', value: id }] },
		});
	forget(table, ids);
	counted(table, -ids.length);
}

/** One row's new values (columns of the ledger) by its id. */
export interface RowWrite {
	id: number;
	data: Record<string, string | number | Date | null>;
}

/**
 * Rows with values of their own, written together: one transaction (all or none) where the door
 * writes rows, else one n8n call a row (a failure part-way leaves the rows before it written).
 * This table's view follows the writes.
 */
export async function writeRows(table: LedgerTable, writes: RowWrite[]): Promise<void> {
	if (writes.length === 0) return;
	if (!table.rows) {
		for (const write of writes) await updateIds(table, [write.id], write.data);
		return;
	}
	const updatedAt = await table.rows.update(
		table.id,
		writes.map((write) => ({ id: write.id, values: write.data })),
	);
	const view = views.get(table);
	if (!view) return;
	const byId = new Map(writes.map((write) => [write.id, write.data]));
	for (const [ref, record] of view) {
		const data = byId.get(record.id);
		if (data) view.set(ref, { ...record, ...data, updatedAt } as LedgerRecord);
	}
}
