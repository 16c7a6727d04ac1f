/**
 * Capability "data table rows": rows of one of n8n's data tables (`<prefix>data_table_user_<id>`)
 * written by id, many rows with different values in one transaction. n8n's data table service
 * sets the same values on every row its filter matches, so rows with values of their own cost one
 * call each, and each call re-measures the size of every data table, checks the table and its
 * columns, reads the rows before and after and touches the table: about eleven statements in two
 * transactions a row. Here, as n8n's rows repository writes them (dates as n8n's
 * `formatDateForDatabase` for SQLite and PostgreSQL, `updatedAt` set on each row; the table's
 * `updatedAt` touched as n8n 2.x does, in the same transaction; 1.123 touches nothing), after the
 * checks n8n makes before a write: its storage limit (n8n's own size validator and cache) and, in
 * 2.x, its protected (read-only) instance. Reached through the data table service n8n gives the
 * execution (the provider of "data tables": data-tables.ts), the same in 1.123 and 2.41.
 */
import type { DataTableContext } from './data-tables';
import { absent, asFault, changed, found, type Capability } from './load';
import { n8nConfig } from './queue-redis';

export const DATA_TABLE_ROWS = "data table rows (n8n's data_table_user_<id> tables, by id)";

/** The ledger's column types: string, number, date (n8n's boolean columns are not written here). */
export type RowValue = string | number | Date | null;

export interface RowUpdate {
	id: number;
	/** Column → value; a Date is written as n8n writes a date column. */
	values: Record<string, RowValue>;
}

export interface DataTableRows {
	/**
	 * Writes each row's values to the row of its id, all in one transaction (all or none), after
	 * n8n's size check (rejects as n8n does past its limit). Returns the `updatedAt` written.
	 */
	update(dataTableId: string, rows: RowUpdate[]): Promise<Date>;
	/**
	 * The rows whose `column` holds one of `values`, in id order, as n8n's data table service
	 * returns them (`getManyRowsAndCount`: dates as Date, booleans as booleans): one statement per
	 * 999 values, where n8n's `or` of `eq` filters compares every term with every row, twice.
	 * Undefined where n8n's column repository is not as known (n8n's service reads then).
	 */
	readWhereIn?(dataTableId: string, column: string, values: string[]): Promise<DataTableRowRead[]>;
}

export type DataTableRowRead = Record<string, unknown> & { id: number };

interface EntityManager {
	query(sql: string, parameters?: unknown[]): Promise<unknown>;
	transaction<T>(run: (em: EntityManager) => Promise<T>): Promise<T>;
}

/** The parts of n8n's DataTableService (1.123, 2.41) this capability uses. */
interface Service {
	validateDataTableSize(): Promise<void>;
	dataTableRowsRepository: {
		dataSource: {
			options: { type: string };
			manager: EntityManager;
			driver: { escape(name: string): string };
		};
	};
	/** 1.123 and 2.41: the table's columns (name, type), as the service reads them before rows. */
	dataTableColumnRepository?: {
		getColumns?(id: string, trx?: EntityManager): Promise<Array<{ name: string; type: string }>>;
	};
	/** 2.x; 1.123 does not touch the table on a row write, and neither does this. */
	dataTableRepository?: { touchUpdatedAt?(id: string, trx?: EntityManager): Promise<void> };
}

interface Provider {
	dataTableService?: Service;
	/** 2.x: refuses writes on a protected (read-only) instance. */
	checkInstanceWriteAccess?: () => void;
}

/** n8n names data tables and columns from these characters only; anything else is refused here. */
const SAFE = /^[A-Za-z0-9_]+$/;

/** A date as n8n's rows repository writes it (sql-utils formatDateForDatabase). */
export function dateForDatabase(value: Date, dbType: string): string {
	const iso = value.toISOString();
	return ['sqlite', 'sqlite-pooled'].includes(dbType)
		? iso.replace('T', ' ').replace('Z', '')
		: iso;
}

function shapeOf(provider: Provider): string[] {
	const service = provider.dataTableService;
	const gone: string[] = [];
	if (typeof service?.validateDataTableSize !== 'function') gone.push('validateDataTableSize');
	const source = service?.dataTableRowsRepository?.dataSource;
	if (typeof source?.manager?.transaction !== 'function') gone.push('its rows repository');
	return gone;
}

/**
 * Found where n8n gave the execution its data table service (as "data tables"); absent outside n8n
 * and where the module is off; changed when the service lacks what is used here (each named).
 */
export async function dataTableRows(ctx: DataTableContext): Promise<Capability<DataTableRows>> {
	const given = (ctx as unknown as { additionalData?: Record<string, unknown> }).additionalData;
	if (!given) return absent('not inside n8n');
	const provider = (given['data-table'] as { dataTableProxyProvider?: Provider } | undefined)
		?.dataTableProxyProvider;
	if (!provider) return absent("n8n's data table module is off");
	const gone = shapeOf(provider);
	if (gone.length)
		return await changed(DATA_TABLE_ROWS, `n8n's data table service has no ${gone.join(', ')}`);
	const service = provider.dataTableService as Service;
	const { options, driver } = service.dataTableRowsRepository.dataSource;
	if (!['sqlite', 'sqlite-pooled', 'postgres'].includes(options.type))
		return absent(`not known for a ${options.type} database`);
	const config = await n8nConfig<{ database?: { tablePrefix?: string } }>(DATA_TABLE_ROWS);
	const prefix = config?.database?.tablePrefix ?? '';
	const writer: Writer = { service, provider, prefix, escape: (n) => driver.escape(n) };
	const columns = service.dataTableColumnRepository;
	return found({
		update: async (dataTableId, rows) => await update(writer, dataTableId, rows),
		...(typeof columns?.getColumns === 'function'
			? {
					readWhereIn: async (dataTableId: string, column: string, values: string[]) =>
						await readWhereIn(writer, dataTableId, column, values),
				}
			: {}),
	});
}

interface Writer {
	service: Service;
	provider: Provider;
	prefix: string;
	escape(name: string): string;
}

function checkNames(writer: Writer, dataTableId: string, rows: RowUpdate[]): void {
	const names = new Set(rows.flatMap((row) => Object.keys(row.values)));
	for (const name of [dataTableId, `x${writer.prefix}`, ...names])
		if (!SAFE.test(name)) throw new Error(`not an n8n data table or column name: ${name}`);
	for (const row of rows)
		if (!Number.isSafeInteger(row.id)) throw new Error(`not a row id: ${String(row.id)}`);
}

async function update(writer: Writer, dataTableId: string, rows: RowUpdate[]): Promise<Date> {
	checkNames(writer, dataTableId, rows);
	const now = new Date();
	if (rows.length === 0) return now;
	const { service, provider } = writer;
	// n8n's own checks before a write, with n8n's messages (its size limit, a protected instance).
	provider.checkInstanceWriteAccess?.call(provider);
	await service.validateDataTableSize();
	const source = service.dataTableRowsRepository.dataSource;
	const dbType = source.options.type;
	const table = `${writer.prefix}data_table_user_${dataTableId}`;
	const statements = statementsOf(writer, table, dbType, rows, now);
	await asFault(DATA_TABLE_ROWS, async () => {
		await source.manager.transaction(async (em) => {
			for (const [sql, parameters] of statements) await em.query(sql, parameters);
			await service.dataTableRepository?.touchUpdatedAt?.(dataTableId, em);
		});
	});
	return now;
}

async function readWhereIn(
	writer: Writer,
	dataTableId: string,
	column: string,
	values: string[],
): Promise<DataTableRowRead[]> {
	for (const name of [dataTableId, `x${writer.prefix}`, column])
		if (!SAFE.test(name)) throw new Error(`not an n8n data table or column name: ${name}`);
	if (values.length === 0) return [];
	const { service } = writer;
	const source = service.dataTableRowsRepository.dataSource;
	const postgres = source.options.type === 'postgres';
	const table = writer.escape(`${writer.prefix}data_table_user_${dataTableId}`);
	const id = writer.escape('id');
	return await asFault(DATA_TABLE_ROWS, async () => {
		// The service reads the columns and the rows in one transaction: so does this.
		return await source.manager.transaction(async (em) => {
			const columns = await service.dataTableColumnRepository!.getColumns!(dataTableId, em);
			const types = new Map(columns.map((c) => [c.name, c.type]));
			const rows: DataTableRowRead[] = [];
			for (let start = 0; start < values.length; start += MAX_PARAMETERS) {
				const chunk = values.slice(start, start + MAX_PARAMETERS);
				const marks = chunk.map((_, at) => (postgres ? `$${at + 1}` : '?')).join(', ');
				const sql = `SELECT * FROM ${table} WHERE ${writer.escape(column)} IN (${marks}) ORDER BY ${id} ASC`;
				const read = (await em.query(sql, chunk)) as Array<Record<string, unknown>>;
				for (const row of read) rows.push(normalized(row, types));
			}
			// Chunks each in id order; together in id order as the service's one read.
			return values.length > MAX_PARAMETERS ? rows.sort((a, b) => a.id - b.id) : rows;
		});
	});
}

/** n8n's `normalizeRows` (data-table/utils/sql-utils, 1.123 and 2.41) for one row. */
function normalized(row: Record<string, unknown>, types: Map<string, string>): DataTableRowRead {
	const { id, createdAt, updatedAt, ...rest } = row;
	const out: Record<string, unknown> = {
		...rest,
		id,
		createdAt: n8nDate(createdAt) ?? new Date(),
		updatedAt: n8nDate(updatedAt) ?? new Date(),
	};
	for (const [key, value] of Object.entries(rest)) {
		const type = types.get(key);
		if (type === 'boolean') out[key] = n8nBoolean(value);
		if (type === 'date' && value !== null && value !== undefined)
			out[key] = n8nDate(value) ?? value;
	}
	return out as DataTableRowRead;
}

function n8nBoolean(value: unknown): unknown {
	if (value === 1 || value === '1') return true;
	if (value === 0 || value === '0') return false;
	return value;
}

/** n8n's `normalizeDate`: a date text without a zone is UTC (SQLite's `2026-11-29 10:11:12.345`). */
function n8nDate(value: unknown): Date | null {
	if (value instanceof Date) return value;
	if (typeof value === 'string') {
		const text = value.trim();
		const parsed = new Date(hasZone(text) ? text : `${text}Z`);
		if (!isNaN(parsed.getTime())) return parsed;
	}
	if (typeof value === 'number') {
		const parsed = new Date(value);
		if (!isNaN(parsed.getTime())) return parsed;
	}
	return null;
}

/** n8n 2.41's `dateStringHasExplicitTimezone` (1.123: a final Z only; n8n writes no other zone). */
function hasZone(text: string): boolean {
	const at = text.includes('T') ? text.indexOf('T') : text.search(/\s/);
	if (at === -1) return false;
	const time = text.slice(at + 1);
	if (!time.includes(':')) return false;
	return time.endsWith('Z') || time.endsWith('z') || time.includes('+') || time.includes('-');
}

/** Parameters a statement may carry: SQLite before 3.32 takes at most 999. */
const MAX_PARAMETERS = 999;

/**
 * The UPDATE statements for `rows`: as few as the parameter limit allows, each setting every
 * column its rows carry by `CASE "id" WHEN … THEN … ELSE <column> END` (a row without a value for
 * a column keeps its own), `updatedAt` on each, `WHERE "id" IN (…)`.
 */
export function statementsOf(
	writer: Pick<Writer, 'escape'>,
	table: string,
	dbType: string,
	rows: RowUpdate[],
	now: Date,
): Array<[string, unknown[]]> {
	const names = [...new Set(rows.flatMap((row) => Object.keys(row.values)))];
	const perChunk = Math.max(1, Math.floor((MAX_PARAMETERS - 1) / (2 * names.length + 1)));
	const statements: Array<[string, unknown[]]> = [];
	const cell = (value: RowValue) =>
		value instanceof Date ? dateForDatabase(value, dbType) : value;
	const id = writer.escape('id');
	for (let start = 0; start < rows.length; start += perChunk) {
		const chunk = rows.slice(start, start + perChunk);
		const parameters: unknown[] = [];
		// SQLite takes `?` in order, PostgreSQL `$1…` (the drivers n8n uses: sqlite3, pg).
		const mark = (value: unknown) => {
			parameters.push(value);
			return dbType === 'postgres' ? `$${parameters.length}` : '?';
		};
		const set = [`${writer.escape('updatedAt')} = ${mark(dateForDatabase(now, dbType))}`];
		for (const name of names) {
			const column = writer.escape(name);
			const cases = chunk
				.filter((row) => name in row.values)
				.map((row) => `WHEN ${mark(row.id)} THEN ${mark(cell(row.values[name]))}`);
			if (cases.length) set.push(`${column} = CASE ${id} ${cases.join(' ')} ELSE ${column} END`);
		}
		const ids = chunk.map((row) => mark(row.id)).join(', ');
		statements.push([
			`UPDATE ${writer.escape(table)} SET ${set.join(', ')} WHERE ${id} IN (${ids})`,
			parameters,
		]);
	}
	return statements;
}
