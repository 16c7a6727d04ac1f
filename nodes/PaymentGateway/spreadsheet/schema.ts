import type { CellValue } from './xlsx';

export type Cell = string | number | undefined;
export type Row = Record<string, Cell>;

export interface ColumnSpec {
	header: string;
	/** Parameter name of the column in "from input items" mode. */
	param: string;
	kind: 'text' | 'number' | 'date';
	description: string;
	required?: boolean;
	/** The rule broken by a non-empty value, in words, or undefined. */
	check?: (value: Cell) => string | undefined;
}

export interface SheetSchema {
	columns: ColumnSpec[];
	maxRows: number;
	/** Rules across columns of one row: [column, rule] pairs. */
	rowRules?: (row: Row) => Array<[string, string]>;
	/** Rules across rows (for example unique references). */
	fileRules?: (rows: SourcedRow[]) => RowViolation[];
	/** Values the service fixes itself, applied before writing (for example Tip without split). */
	adjust?: (row: Row) => Row;
}

export interface SourcedRow {
	/** Spreadsheet row number (the header is row 1). */
	row: number;
	/** Input item index in "from input items" mode. */
	item?: number;
	values: Row;
}

export interface RowViolation {
	row: number;
	item?: number;
	column: string;
	rule: string;
	value: unknown;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A cell as the file should hold it: trimmed text, numbers as numbers, dates as YYYY-MM-DD. */
export function normaliseCell(kind: ColumnSpec['kind'], value: CellValue): Cell {
	if (value === undefined || value === null) return undefined;
	if (value instanceof Date) {
		return `${value.getUTCFullYear()}-${pad(value.getUTCMonth() + 1)}-${pad(value.getUTCDate())}`;
	}
	if (typeof value === 'boolean') return value ? 1 : 0;
	if (typeof value === 'number') return kind === 'text' ? String(value) : value;
	const text = String(value).trim();
	if (text === '') return undefined;
	if (kind === 'number' && /^-?\d+(\.\d+)?$/.test(text)) return Number(text);
	if (kind === 'date') return /^\d{4}-\d{2}-\d{2}T/.test(text) ? text.slice(0, 10) : text;
	return text;
}

/** Checks every row against the schema; returns every broken rule, nothing short-circuited. */
export function validateRows(schema: SheetSchema, rows: SourcedRow[]): RowViolation[] {
	const violations: RowViolation[] = [];
	if (rows.length === 0) violations.push({ row: 0, column: '(file)', rule: 'must have at least one data row', value: 0 });
	if (rows.length > schema.maxRows) {
		violations.push({ row: 0, column: '(file)', rule: `may have at most ${schema.maxRows} data rows`, value: rows.length });
	}
	for (const { row, item, values } of rows) {
		const add = (column: string, rule: string) => violations.push({ row, item, column, rule, value: values[column] });
		for (const column of schema.columns) {
			const value = values[column.header];
			if (value === undefined) {
				if (column.required) add(column.header, 'is required');
				continue;
			}
			const broken = column.check?.(value);
			if (broken) add(column.header, broken);
		}
		for (const [column, rule] of schema.rowRules?.(values) ?? []) add(column, rule);
	}
	violations.push(...(schema.fileRules?.(rows) ?? []));
	return violations.sort((a, b) => a.row - b.row);
}

export function describeRowViolation(v: RowViolation): string {
	const where =
		v.column === '(file)' ? 'file' : v.item === undefined ? `row ${v.row}` : `row ${v.row} (item ${v.item})`;
	return `${where}, ${v.column}: ${v.rule} (received ${JSON.stringify(v.value) ?? 'nothing'})`;
}

// Reusable checks; each returns the rule text when broken.
export const rules = {
	maxLength: (max: number) => (v: Cell) => (String(v).length > max ? `must be at most ${max} characters` : undefined),
	oneOf: (values: string[]) => (v: Cell) => (values.includes(String(v)) ? undefined : `must be one of ${values.join(', ')}`),
	numberBetween:
		(min: number, max: number, integer = false) =>
		(v: Cell) => {
			if (typeof v !== 'number' || !Number.isFinite(v)) return 'must be a number';
			if (integer && !Number.isInteger(v)) return 'must be a whole number';
			return v < min || v > max ? `must be from ${min} to ${max}` : undefined;
		},
	pattern: (regex: RegExp, rule: string) => (v: Cell) => (regex.test(String(v)) ? undefined : rule),
	email: (v: Cell) =>
		/^[^\s@,;]+@[^\s@,;]+\.[A-Za-z]{2,}$/.test(String(v)) ? undefined : 'must be a valid email address',
};
