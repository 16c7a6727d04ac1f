import { coerce } from '../fields/coerce';
import type { Field } from '../fields/types';

export type Cell = string | number | undefined;
export type Row = Record<string, Cell>;

/**
 * One spreadsheet column, declared once as a field: its display name is the header the service
 * reads, its name the column parameter of "from input items" mode, its type and limits the rules
 * every cell is checked against (the same coercion as the node's own fields).
 */
export interface Column extends Field {
	/** A rule beyond the type that depends on the run (for example "today or later"). */
	check?: (value: Cell) => string | undefined;
	/** The parameter's label in the editor when the header is not in the user's words. */
	label?: string;
}

export interface SheetSchema {
	columns: Column[];
	maxRows: number;
	/** Rules across columns of one row: [column, rule] pairs, on typed values. */
	rowRules?: (row: Row) => Array<[string, string]>;
	/** Rules across rows (for example unique references). */
	fileRules?: (rows: SourcedRow[]) => RowViolation[];
	/** Values the service fixes itself, applied before writing (for example Tip without split). */
	adjust?: (row: Row) => Row;
}

/**
 * A row as given, not yet checked: values by header (from items), or in column order (a file's row
 * as read, used as it is rather than copied).
 */
export interface RawRow {
	/** Spreadsheet row number (the header is row 1). */
	row: number;
	/** Input item index in "from input items" mode. */
	item?: number;
	values: Record<string, unknown> | unknown[];
}

/** A checked row: every value typed as the file holds it; broken or empty cells are left out. */
export interface SourcedRow {
	row: number;
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

/** A column declaration: header, parameter, type, description, then limits and rules. */
export const column = (
	header: string,
	param: string,
	type: Field['type'],
	description: string,
	more: Partial<Column> = {},
): Column => ({ name: param, displayName: header, type, description, ...more });

/** One cell through its column's coercion and rules: the typed value, or the rule it breaks. */
export function readCell(col: Column, raw: unknown): { value?: Cell; rule?: string } {
	const result = coerce(col, raw);
	if ('rule' in result) return { rule: result.rule };
	if (!('value' in result)) return col.required ? { rule: 'is required' } : {};
	const value = result.value as Cell;
	const rule = col.check?.(value);
	return rule ? { rule } : { value };
}

/**
 * Checks every row against the schema and types its values; returns every broken rule, nothing
 * short-circuited. Cross-column rules see only the cells that passed their own column.
 */
export function checkRows(
	schema: SheetSchema,
	raw: RawRow[],
): { rows: SourcedRow[]; violations: RowViolation[] } {
	const violations: RowViolation[] = [];
	if (raw.length === 0)
		violations.push({
			row: 0,
			column: '(file)',
			rule: 'must have at least one data row',
			value: 0,
		});
	if (raw.length > schema.maxRows) {
		violations.push({
			row: 0,
			column: '(file)',
			rule: `may have at most ${schema.maxRows} data rows`,
			value: raw.length,
		});
	}
	const rows = raw.map(({ row, item, values }) => {
		const typed: Row = {};
		const refused = new Set<string>();
		const add = (column: string, rule: string, value: unknown) => {
			refused.add(column);
			violations.push({ row, item, column, rule, value });
		};
		schema.columns.forEach((col, index) => {
			const given = Array.isArray(values) ? values[index] : values[col.displayName];
			const cell = readCell(col, given);
			if (cell.rule) add(col.displayName, cell.rule, given ?? '');
			else if (cell.value !== undefined) typed[col.displayName] = cell.value;
		});
		// A cell already refused by its own column is not reported again by a cross-column rule.
		for (const [column, rule] of schema.rowRules?.(typed) ?? []) {
			if (!refused.has(column)) add(column, rule, typed[column]);
		}
		return { row, item, values: typed };
	});
	violations.push(...(schema.fileRules?.(rows) ?? []));
	return { rows, violations: violations.sort((a, b) => a.row - b.row) };
}

/**
 * One broken rule in words. With a noun ("Payout") it reads like the node's other field errors:
 * "Payout row 1101 (item 1099), Beneficiary IFSC: …", "Payout file: …", a batch field by its name.
 */
export function describeRowViolation(v: RowViolation, noun?: string): string {
	const shown =
		typeof v.value === 'number' && !Number.isFinite(v.value)
			? String(v.value)
			: JSON.stringify(v.value);
	const rule = `${v.rule} (received ${shown ?? 'nothing'})`;
	if (noun) return `${placeOf(v, noun)}: ${rule}`;
	const where =
		v.column === '(file)'
			? 'file'
			: v.item === undefined
				? `row ${v.row}`
				: `row ${v.row} (item ${v.item})`;
	return `${where}, ${v.column}: ${rule}`;
}

function placeOf(v: RowViolation, noun: string): string {
	if (v.column === '(file)') return `${noun} file`;
	if (v.column === '(headers)') return `${noun} file headers`;
	if (v.row === 0) return v.column;
	const item = v.item === undefined ? '' : ` (item ${v.item})`;
	return `${noun} row ${v.row}${item}, ${v.column}`;
}
