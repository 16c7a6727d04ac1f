import type {
	IBinaryData,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { MAX_UPLOAD_BYTES } from '../fields/limits';
import type { Column, RawRow, RowViolation, SheetSchema, SourcedRow } from '../spreadsheet/schema';
import { describeRowViolation } from '../spreadsheet/schema';
import type { CellValue } from '../spreadsheet/write';
import { buildXlsx, readXlsx } from '../spreadsheet/xlsx';

export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
type Show = NonNullable<INodeProperties['displayOptions']>['show'];

export const inputModeProperty = (
	show: Show,
	what: string,
	howSent = 'the node builds the .xlsx file and sends all items in one request',
): INodeProperties => ({
	displayName: 'Input',
	name: 'inputMode',
	type: 'options',
	noDataExpression: true,
	options: [
		{
			name: 'From Input Items',
			value: 'items',
			description: `Each input item is one ${what}; ${howSent}`,
		},
		{
			name: 'From a Binary XLSX File',
			value: 'binary',
			description:
				'Each input item carries a ready .xlsx file (for example from Convert to File), checked before it is sent',
		},
	],
	default: 'items',
	displayOptions: { show },
});

export const binaryFieldProperty = (show: Show): INodeProperties => ({
	displayName: 'Input Binary Field',
	name: 'binaryPropertyName',
	type: 'string',
	default: 'data',
	required: true,
	hint: 'The name of the input binary field holding the .xlsx file',
	displayOptions: { show: { ...show, inputMode: ['binary'] } },
});

/** A column parameter's default: the input item's field named like the column. */
export const columnDefault = (column: Column) => `={{ $json["${column.displayName}"] }}`;

/** One parameter per column, by default read from the item field named like the column. */
export function columnProperties(schema: SheetSchema, show: Show): INodeProperties[] {
	return schema.columns.map((column) => ({
		displayName: column.label ?? column.displayName,
		name: column.name,
		type: 'string',
		default: columnDefault(column),
		required: column.required === true,
		description: `${column.description}. By default the input field "${column.displayName}"${column.label ? ` (the file's column of that name)` : ''}.`,
		displayOptions: { show: { ...show, inputMode: ['items'] } },
	}));
}

export const VERSIONS_1_AND_2 = { '@version': [1, 2] };
export const VERSION_3_ON = { '@version': [{ _cnd: { gte: 3 } }] };

/** A property in versions 1–2 as it was, and in version 3 and later with `changes`. */
export function byVersion(
	property: INodeProperties,
	changes: Partial<INodeProperties>,
): INodeProperties[] {
	const at = (version: object) => ({ show: { ...property.displayOptions?.show, ...version } });
	return [
		{ ...property, displayOptions: at(VERSIONS_1_AND_2) },
		{ ...property, ...changes, displayOptions: at(VERSION_3_ON) },
	];
}

/**
 * The column parameters of versions 1–2 as they were, and of version 3 on without an expression as
 * default: an empty column reads the input field named like it (rowsFromItems `emptyReadsField`).
 * n8n's editor resolves every expression among a node's parameters for each property with display
 * conditions on every change, over the input items: a dozen default expressions froze the panel for
 * seconds with large inputs.
 */
export function versionedColumnProperties(schema: SheetSchema, show: Show): INodeProperties[] {
	return columnProperties(schema, show).flatMap((property, i) => {
		const field = schema.columns[i].displayName;
		return byVersion(property, {
			default: '',
			// Empty is a valid setting now (the input field); each cell's own rule still applies.
			required: false,
			placeholder: `{{ $json["${field}"] }}`,
			description: `${(property.description ?? '').replace(/ By default .*$/, '')} Empty: the input field "${field}".`,
		});
	});
}

/**
 * Rows from the input items (row n + 2 holds item n: the header is row 1), values as given. A column
 * parameter still at its default reads the item's field directly (so does an empty one where
 * `emptyReadsField`); an edited one is evaluated per item.
 */
export function rowsFromItems(
	ctx: IExecuteFunctions,
	schema: SheetSchema,
	emptyReadsField = false,
): RawRow[] {
	const items = ctx.getInputData();
	const parameters = ctx.getNode().parameters;
	const direct = schema.columns.map((column) => {
		const raw = parameters[column.name];
		return raw === undefined || raw === columnDefault(column) || (emptyReadsField && raw === '');
	});
	return items.map(({ json }, item) => {
		const values: Record<string, unknown> = {};
		schema.columns.forEach((column, i) => {
			values[column.displayName] = direct[i]
				? json[column.displayName]
				: ctx.getNodeParameter(column.name, item, '');
		});
		return { row: item + 2, item, values };
	});
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A cell as a spreadsheet gives it: a date cell as its calendar date, a true/false cell as 1/0. */
function sheetCell(value: CellValue): CellValue {
	if (value instanceof Date) {
		return Number.isNaN(value.getTime())
			? String(value)
			: `${value.getUTCFullYear()}-${pad(value.getUTCMonth() + 1)}-${pad(value.getUTCDate())}`;
	}
	return typeof value === 'boolean' ? Number(value) : value;
}

/** Rows from an .xlsx binary: .xlsx only, within the size limit, headers exactly as the service spells them. */
export async function rowsFromBinary(
	ctx: IExecuteFunctions,
	itemIndex: number,
	schema: SheetSchema,
): Promise<{ rows: RawRow[]; violations: RowViolation[]; binary: IBinaryData }> {
	const property = String(ctx.getNodeParameter('binaryPropertyName', itemIndex, 'data')).trim();
	const binary = ctx.helpers.assertBinaryData(itemIndex, property);
	const fileName = binary.fileName ?? '';
	const fileViolation = (rule: string, value: unknown): RowViolation => ({
		row: 0,
		column: '(file)',
		rule,
		value,
	});
	if (!/\.xlsx$/i.test(fileName) && binary.mimeType !== XLSX_MIME) {
		return {
			rows: [],
			violations: [fileViolation('must be an .xlsx file', fileName || binary.mimeType)],
			binary,
		};
	}
	const buffer = await ctx.helpers.getBinaryDataBuffer(itemIndex, property);
	if (buffer.length > MAX_UPLOAD_BYTES) {
		return { rows: [], violations: [fileViolation('must be at most 2 MB', buffer.length)], binary };
	}
	let sheet;
	try {
		sheet = await readXlsx(buffer);
	} catch (error) {
		return {
			rows: [],
			violations: [fileViolation('must be a readable .xlsx file', (error as Error).message)],
			binary,
		};
	}
	const expected = schema.columns.map((c) => c.displayName);
	const violations: RowViolation[] = [];
	const header = (i: number) => sheet.headers[i] ?? '';
	if (sheet.headers.length !== expected.length || expected.some((h, i) => header(i) !== h)) {
		violations.push({
			row: 1,
			column: '(headers)',
			rule: `must be exactly: ${expected.join(', ')}`,
			value: sheet.headers.join(', '),
		});
	}
	// The sheet's rows are checked as read, in column order: no second copy of the data.
	const rows: RawRow[] = sheet.rows.map(({ rowNumber, values }) => {
		for (let c = 0; c < values.length; c++) values[c] = sheetCell(values[c]);
		return { row: rowNumber, values };
	});
	return { rows, violations, binary };
}

const SHOWN_IN_MESSAGE = 5;

/** Stops before sending, listing every failing row with column, rule and value. */
export function assertRows(
	ctx: IExecuteFunctions,
	violations: RowViolation[],
	itemIndex?: number,
	noun?: string,
): void {
	if (violations.length === 0) return;
	const lines = violations.map((v) => describeRowViolation(v, noun));
	const failingRows = new Set(violations.map((v) => v.row)).size;
	const more =
		lines.length > SHOWN_IN_MESSAGE ? ` (and ${lines.length - SHOWN_IN_MESSAGE} more)` : '';
	const shown = `${lines.slice(0, SHOWN_IN_MESSAGE).join('; ')}${more}`;
	// With a noun, like the node's field errors: the one rule alone, or "N invalid payout values: …".
	const message = !noun
		? `${failingRows} row(s) break the service's rules: ${shown}`
		: lines.length === 1
			? lines[0]
			: `${lines.length} invalid ${noun.toLowerCase()} values: ${shown}`;
	const error = new NodeOperationError(ctx.getNode(), message, {
		itemIndex,
		description: `Nothing was sent.\n${lines.map((l) => `- ${l}`).join('\n')}`,
	});
	error.context.rowViolations = violations.map((v) => ({ ...v }) as IDataObject);
	// Under continue-on-fail the failed item lists them too, each named by its column.
	error.context.violations = violations.map(({ column, ...rest }) => ({ field: column, ...rest }));
	throw error;
}

/** The file as the service will read it, after the schema's own adjustments. */
export async function buildFile(
	schema: SheetSchema,
	sheetName: string,
	rows: SourcedRow[],
): Promise<Buffer> {
	const headers = schema.columns.map((c) => c.displayName);
	const adjusted = rows.map(({ values }) => (schema.adjust ? schema.adjust(values) : values));
	return await buildXlsx(
		sheetName,
		headers,
		adjusted.map((values) => headers.map((h) => values[h])),
	);
}

/** The file-size rule, checked on the file that would be sent. */
export const fileSizeViolations = (file: Buffer): RowViolation[] =>
	file.length > MAX_UPLOAD_BYTES
		? [{ row: 0, column: '(file)', rule: 'must be at most 2 MB', value: file.length }]
		: [];

export const allItems = (ctx: IExecuteFunctions) => ctx.getInputData().map((_, item) => ({ item }));

/** Attaches a file to an output item as binary data. */
export async function withFile(
	ctx: IExecuteFunctions,
	item: INodeExecutionData,
	property: string,
	file: Buffer,
	fileName: string,
): Promise<INodeExecutionData> {
	const binary = await ctx.helpers.prepareBinaryData(file, fileName, XLSX_MIME);
	return { ...item, binary: { ...(item.binary ?? {}), [property]: binary } };
}
