/**
 * The read of the door's "data table rows" (data-table-rows.ts): rows of an n8n data table by one
 * column's values, `SELECT * … WHERE <column> IN (…)`, as n8n's data table service returns rows.
 */
export interface EntityManager {
	query(sql: string, parameters?: unknown[]): Promise<unknown>;
	transaction<T>(run: (em: EntityManager) => Promise<T>): Promise<T>;
}

/** n8n names data tables and columns from these characters only; anything else is refused here. */
export const SAFE = /^[A-Za-z0-9_]+$/;

/** Parameters a statement may carry: SQLite before 3.32 takes at most 999. */
export const MAX_PARAMETERS = 999;

export type DataTableRowRead = Record<string, unknown> & { id: number };

export interface Reader {
	prefix: string;
	escape(name: string): string;
	manager: EntityManager;
	postgres: boolean;
	/** The table's columns as n8n's column repository reads them (name, type). */
	columns(dataTableId: string, em: EntityManager): Promise<Array<{ name: string; type: string }>>;
}

/** The rows whose `column` holds one of `values` (each row once), in id order. */
export async function readWhereIn(
	reader: Reader,
	dataTableId: string,
	column: string,
	given: string[],
): Promise<DataTableRowRead[]> {
	// A value in two statements would read its rows twice.
	const values = [...new Set(given)];
	for (const name of [dataTableId, `x${reader.prefix}`, column])
		if (!SAFE.test(name)) throw new Error(`not an n8n data table or column name: ${name}`);
	if (values.length === 0) return [];
	const { postgres } = reader;
	const table = reader.escape(`${reader.prefix}data_table_user_${dataTableId}`);
	const id = reader.escape('id');
	// The service reads the columns and the rows in one transaction: so does this.
	return await reader.manager.transaction(async (em) => {
		const normalize = normalizer(await reader.columns(dataTableId, em));
		const rows: DataTableRowRead[] = [];
		for (let start = 0; start < values.length; start += MAX_PARAMETERS) {
			const chunk = values.slice(start, start + MAX_PARAMETERS);
			const marks = chunk.map((_, at) => (postgres ? `$${at + 1}` : '?')).join(', ');
			const sql = `SELECT * FROM ${table} WHERE ${reader.escape(column)} IN (${marks}) ORDER BY ${id} ASC`;
			const read = (await em.query(sql, chunk)) as Array<Record<string, unknown>>;
			for (const row of read) rows.push(normalize(row));
		}
		// Chunks each in id order; together in id order as the service's one read.
		return values.length > MAX_PARAMETERS ? rows.sort((a, b) => a.id - b.id) : rows;
	});
}

/**
 * n8n's `normalizeRows` (data-table/utils/sql-utils, 1.123 and 2.41), one row at a time: id,
 * createdAt and updatedAt as dates (now where missing), date columns as dates, boolean columns as
 * booleans. Dates of one read are parsed once per distinct text (a batch's rows share theirs).
 */
function normalizer(columns: Array<{ name: string; type: string }>) {
	const dates = columns.filter((c) => c.type === 'date').map((c) => c.name);
	const booleans = columns.filter((c) => c.type === 'boolean').map((c) => c.name);
	const parsed = new Map<unknown, number | null>();
	const dateOf = (value: unknown): Date | null => {
		if (value instanceof Date) return value;
		let time = parsed.get(value);
		if (time === undefined) parsed.set(value, (time = n8nDate(value)?.getTime() ?? null));
		return time === null ? null : new Date(time);
	};
	return (row: Record<string, unknown>): DataTableRowRead => {
		const out: Record<string, unknown> = { ...row };
		for (const key of ['createdAt', 'updatedAt'])
			if (key in row) out[key] = dateOf(row[key]) ?? new Date();
		for (const key of dates) {
			const value = row[key];
			if (key in row && value !== null && value !== undefined) out[key] = dateOf(value) ?? value;
		}
		for (const key of booleans) if (key in row) out[key] = n8nBoolean(row[key]);
		return out as DataTableRowRead;
	};
}

function n8nBoolean(value: unknown): unknown {
	if (value === 1 || value === '1') return true;
	if (value === 0 || value === '0') return false;
	return value;
}

const SQLITE_DATE = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d{1,3})?$/;

/** n8n's `normalizeDate`: a date text without a zone is UTC (SQLite's `2026-11-29 10:11:12.345`). */
function n8nDate(value: unknown): Date | null {
	if (value instanceof Date) return value;
	// How n8n writes dates on SQLite, read as ISO (the same instant; V8 reads this form ten times
	// faster than the one with a space, which is about 3 µs, four a row).
	if (typeof value === 'string' && SQLITE_DATE.test(value)) {
		const parsed = new Date(`${value.slice(0, 10)}T${value.slice(11)}Z`);
		if (!isNaN(parsed.getTime())) return parsed;
	}
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
