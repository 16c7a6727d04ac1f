import type {
	DataTable,
	DataTableFilter,
	DataTableRow,
	IDataTableProjectAggregateService,
	IDataTableProjectService,
} from 'n8n-workflow';

import type { LedgerRecord } from './record';
import { LEDGER_COLUMNS, recordOf } from './record';

/** Rows read per call. */
const PAGE = 1000;
/** Rows written per call. */
const WRITE = 500;
/**
 * updatedAt is stamped by the writing process's clock; in queue mode several clocks write. A
 * change is looked for this far back from the newest one seen (new rows are found by id anyway).
 */
const CLOCK_MARGIN_MS = 60_000;

/** What a payout account's ledger table holds, as this process last read it. */
interface Cache {
	byRef: Map<string, LedgerRecord>;
	/** Every row id seen, with its reference ('' for a row that is no record); several rows of one reference: the lowest id counts. */
	refOfId: Map<number, string>;
	maxId: number;
	maxUpdated: number;
}

/** One per table in this process: the ledger is read whole once, then only what changed. */
const caches = new Map<string, Cache>();

export interface LedgerTable {
	id: string;
	name: string;
	projectId: string;
	proxy: IDataTableProjectService;
	/** How the table is reached: n8n's helpers, or n8n's data table service through the door. */
	via?: string;
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

/**
 * Rows in id order, a page at a time after the last id read (an indexed range, never an offset
 * that would read the skipped rows again), each page also matching `where`.
 */
async function readAll(
	proxy: IDataTableProjectService,
	where: DataTableFilter['filters'] = [],
): Promise<Array<Record<string, unknown>>> {
	const rows: Array<Record<string, unknown>> = [];
	for (let after = 0; ; ) {
		const page = await proxy.getManyRowsAndCount({
			filter: {
				type: 'and',
				filters: [{ columnName: 'id', condition: 'gt', value: after }, ...where],
			},
			sortBy: ['id', 'ASC'],
			take: PAGE,
		});
		const data = page.data as Array<Record<string, unknown>>;
		rows.push(...data);
		if (data.length < PAGE) return rows;
		after = Number(data[data.length - 1].id);
	}
}

/** Rows added after `id`: an indexed range of ids. */
async function readAllAfter(proxy: IDataTableProjectService, id: number) {
	return await readAll(proxy, [{ columnName: 'id', condition: 'gt', value: id }]);
}

function apply(cache: Cache, rows: Array<Record<string, unknown>>): void {
	for (const row of rows) {
		const record = recordOf(row);
		const id = Number(row.id);
		cache.maxId = Math.max(cache.maxId, id);
		const updated = new Date(row.updatedAt as string).getTime();
		if (Number.isFinite(updated)) cache.maxUpdated = Math.max(cache.maxUpdated, updated);
		// A row that is no ledger record (added by hand without a state) is counted, not used.
		cache.refOfId.set(id, record?.reference_no ?? '');
		if (!record) continue;
		const held = cache.byRef.get(record.reference_no);
		if (!held || held.id >= id) cache.byRef.set(record.reference_no, record);
	}
}

async function loadAll(table: LedgerTable): Promise<Cache> {
	const cache: Cache = { byRef: new Map(), refOfId: new Map(), maxId: 0, maxUpdated: 0 };
	apply(cache, await readAll(table.proxy));
	caches.set(cacheKey(table), cache);
	return cache;
}

const cacheKey = (table: LedgerTable) => `${table.projectId}|${table.id}`;

/**
 * The table as it is now: rows added (by id) or changed (by updatedAt) since the last read; a row
 * removed (the count fell behind) reads the table whole again. Called under the account's lock.
 */
export async function synced(table: LedgerTable): Promise<Map<string, LedgerRecord>> {
	const cache = caches.get(cacheKey(table));
	if (!cache) return (await loadAll(table)).byRef;
	const since = new Date(Math.max(0, cache.maxUpdated - CLOCK_MARGIN_MS));
	const maxId = cache.maxId;
	// Rows changed since (a scan: data tables have no index but the id), then rows added (by id).
	apply(
		cache,
		await readAll(table.proxy, [
			{ columnName: 'id', condition: 'lte', value: maxId },
			{ columnName: 'updatedAt', condition: 'gte', value: since },
		]),
	);
	apply(cache, await readAllAfter(table.proxy, maxId));
	const { count } = await table.proxy.getManyRowsAndCount({ take: 1 });
	if (count !== cache.refOfId.size) return (await loadAll(table)).byRef;
	return cache.byRef;
}

/** Records written by this process, known at once. */
export function remember(table: LedgerTable, rows: Array<Record<string, unknown>>): void {
	const cache = caches.get(cacheKey(table));
	if (cache) apply(cache, rows);
}

export function forget(table: LedgerTable, ids: number[]): void {
	const cache = caches.get(cacheKey(table));
	if (!cache) return;
	for (const id of ids) {
		const ref = cache.refOfId.get(id);
		cache.refOfId.delete(id);
		if (ref !== undefined && cache.byRef.get(ref)?.id === id) cache.byRef.delete(ref);
	}
}

export async function insert(table: LedgerTable, rows: DataTableRow[]): Promise<void> {
	for (let start = 0; start < rows.length; start += WRITE) {
		const written = await table.proxy.insertRows(rows.slice(start, start + WRITE), 'all');
		remember(table, written as unknown as Array<Record<string, unknown>>);
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
}
