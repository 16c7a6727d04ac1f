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
import {
	MAX_PARAMETERS,
	SAFE,
	readWhereIn,
	type DataTableRowRead,
	type EntityManager,
	type Reader,
} from './data-table-rows-read';

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
	const reader: Reader = {
		...writer,
		manager: service.dataTableRowsRepository.dataSource.manager,
		postgres: options.type === 'postgres',
		columns: async (id, em) => (await columns?.getColumns?.(id, em)) ?? [],
	};
	return found({
		update: async (dataTableId, rows) => await update(writer, dataTableId, rows),
		...(typeof columns?.getColumns === 'function'
			? {
					readWhereIn: async (dataTableId: string, column: string, values: string[]) =>
						await asFault(
							DATA_TABLE_ROWS,
							async () => await readWhereIn(reader, dataTableId, column, values),
						),
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

/**
 * The UPDATE statements for `rows`, as few as the parameter limit allows. SQLite: each row's values
 * in a `VALUES` list joined by id (`UPDATE … FROM`, SQLite 3.33 and later: n8n 1.123 and 2.41 ship
 * 3.44), linear in the rows; rows grouped by the columns they set (a row keeps the columns it does
 * not set). PostgreSQL: `CASE "id" WHEN …` per column (its VALUES would need each column's type).
 */
export function statementsOf(
	writer: Pick<Writer, 'escape'>,
	table: string,
	dbType: string,
	rows: RowUpdate[],
	now: Date,
): Array<[string, unknown[]]> {
	if (dbType === 'postgres') return caseStatements(writer, table, dbType, rows, now);
	const statements: Array<[string, unknown[]]> = [];
	for (const [names, group] of byColumns(rows)) {
		const perChunk = Math.max(1, Math.floor((MAX_PARAMETERS - 1) / (names.length + 1)));
		for (let start = 0; start < group.length; start += perChunk)
			statements.push(
				valuesStatement(writer, table, dbType, names, group.slice(start, start + perChunk), now),
			);
	}
	return statements;
}

/**
 * Rows grouped by the columns they set, one row per id: where an id comes twice, each column's
 * first value counts (as the first `WHEN` of a CASE).
 */
function byColumns(rows: RowUpdate[]): Map<string[], RowUpdate[]> {
	const byId = new Map<number, Record<string, RowValue>>();
	for (const row of rows) {
		const held = byId.get(row.id);
		byId.set(row.id, held ? { ...row.values, ...held } : row.values);
	}
	const groups = new Map<string, { names: string[]; rows: RowUpdate[] }>();
	for (const [id, values] of byId) {
		const names = Object.keys(values).sort();
		const key = names.join(',');
		const group = groups.get(key) ?? { names, rows: [] };
		groups.set(key, group);
		group.rows.push({ id, values });
	}
	return new Map([...groups.values()].map((group) => [group.names, group.rows]));
}

/** A statement's cells: its dates as n8n writes them, each instant formatted once (rows share `now`). */
function cellsOf(dbType: string): (value: RowValue) => RowValue {
	const written = new Map<number, string>();
	return (value) => {
		if (!(value instanceof Date)) return value;
		let text = written.get(value.getTime());
		if (text === undefined) written.set(value.getTime(), (text = dateForDatabase(value, dbType)));
		return text;
	};
}

/** SQLite: `WITH "v"("id", …) AS (VALUES (?, …), …) UPDATE … FROM "v" WHERE <table>."id" = "v"."id"`. */
function valuesStatement(
	writer: Pick<Writer, 'escape'>,
	table: string,
	dbType: string,
	names: string[],
	rows: RowUpdate[],
	now: Date,
): [string, unknown[]] {
	const parameters: unknown[] = [];
	const marks = `(${new Array(names.length + 1).fill('?').join(', ')})`;
	const cell = cellsOf(dbType);
	for (const row of rows) {
		parameters.push(row.id);
		for (const name of names) parameters.push(cell(row.values[name]));
	}
	parameters.push(dateForDatabase(now, dbType));
	const [v, id, into] = [writer.escape('v'), writer.escape('id'), writer.escape(table)];
	const columns = [id, ...names.map((name) => writer.escape(name))];
	const set = names.map((name) => `${writer.escape(name)} = ${v}.${writer.escape(name)}`);
	return [
		`WITH ${v}(${columns.join(', ')}) AS (VALUES ${rows.map(() => marks).join(', ')}) ` +
			`UPDATE ${into} SET ${[`${writer.escape('updatedAt')} = ?`, ...set].join(', ')} ` +
			`FROM ${v} WHERE ${into}.${id} = ${v}.${id}`,
		parameters,
	];
}

/**
 * PostgreSQL: each statement sets every column its rows carry by `CASE "id" WHEN … THEN … ELSE
 * <column> END` (a row without a value for a column keeps its own), `updatedAt` on each,
 * `WHERE "id" IN (…)`.
 */
function caseStatements(
	writer: Pick<Writer, 'escape'>,
	table: string,
	dbType: string,
	rows: RowUpdate[],
	now: Date,
): Array<[string, unknown[]]> {
	const names = [...new Set(rows.flatMap((row) => Object.keys(row.values)))];
	const perChunk = Math.max(1, Math.floor((MAX_PARAMETERS - 1) / (2 * names.length + 1)));
	const statements: Array<[string, unknown[]]> = [];
	const cell = cellsOf(dbType);
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
