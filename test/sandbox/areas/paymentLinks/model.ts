import { randomBytes } from 'node:crypto';

import ExcelJS from 'exceljs';

import { formatAmount } from '../../core/generate';
import { HttpError } from '../../core/http';
import { BULK_PAYMENT_LINKS } from './rules';
import { ruleAt, textFits, type WireRule } from '../../rules/types';
import type { PaymentLinkRecord, PaymentLinkUpload, SandboxState } from '../../core/state';

export const MAX_LINK_FILE_BYTES = 2 * 1024 * 1024;

/** Row 1 of the first sheet: exactly these, in this order, spelled and cased so. */
export const BULK_LINK_HEADERS = [
	'Currency',
	'Amount',
	'Shipping Fee',
	'Convenience Fee',
	'Qty Per Transaction',
	'No Of Transactions',
	'No Limit Per User',
	'Total Collection',
	'Overall Qty Allowed',
	'No Limit Over All',
	'Qty Frequency',
	'Is Expiry',
	'End Date',
	'Description',
	'Error Message',
	'Customer Name',
	'Customer Email',
	'Product Details',
	'Split Payment',
	'Tip',
] as const;
export type BulkLinkHeader = (typeof BULK_LINK_HEADERS)[number];

/** A cell after reading: trimmed text, a number, or null for blank. Dates become YYYY-MM-DD. */
export type CellValue = string | number | null;
export type BulkLinkRow = Record<BulkLinkHeader, CellValue>;

export interface RowError {
	/** Spreadsheet row number (the header is row 1). */
	row: number;
	column: BulkLinkHeader;
	rule: string;
	value: CellValue;
}

export const E0035 = () =>
	new HttpError(400, 'Invalid file format. Only .xlsx or .csv files are allowed', 'E0035');

/** exceljs cell value → CellValue: formulas give their result, rich text and links their text. */
export function cellValue(value: unknown): CellValue {
	if (value === null || value === undefined) return null;
	if (typeof value === 'number') return value;
	if (typeof value === 'string') return value.trim() === '' ? null : value.trim();
	// A date cell is that calendar date (exceljs reads them as UTC).
	if (value instanceof Date) return value.toISOString().slice(0, 10);
	if (typeof value === 'object') {
		const cell = value as Record<string, any>;
		if ('result' in cell || 'formula' in cell || 'sharedFormula' in cell) {
			return cellValue(cell.result);
		}
		if (Array.isArray(cell.richText)) {
			return cellValue(cell.richText.map((part: { text: string }) => part.text).join(''));
		}
		if ('text' in cell) return cellValue(cell.text);
		if ('error' in cell) return String(cell.error);
	}
	return String(value);
}

/** Numbers and numeric text; undefined for anything else. */
function toNumber(value: CellValue): number | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
	return undefined;
}

const toFlag = (value: CellValue): 0 | 1 | undefined =>
	value === 0 || value === '0' ? 0 : value === 1 || value === '1' ? 1 : undefined;

const validDay = (text: string) => {
	if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
	const date = new Date(`${text}T00:00:00Z`);
	return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
};

/** Each column's check: the failed rule's text, or undefined. `value` is never null here. */
type Check = (value: Exclude<CellValue, null>, today: string) => string | undefined;

/** One column's check, from its declared rule. */
function checkOf(rule: WireRule): Check {
	return (value, today) => {
		if (rule.type === 'number' || rule.type === 'integer') {
			const integer = rule.type === 'integer';
			const { min = -Infinity, max = Infinity } = rule;
			const n = toNumber(value);
			const ok = n !== undefined && n >= min && n <= max && (!integer || Number.isInteger(n));
			return ok ? undefined : `${integer ? 'whole number' : 'number'} from ${min} to ${max}`;
		}
		if (rule.type === 'date') {
			if (typeof value !== 'string' || !validDay(value)) return 'date YYYY-MM-DD';
			return value < today ? `today (${today}, UTC) or later` : undefined;
		}
		const text = String(value);
		if (rule.maxLength !== undefined && text.length > rule.maxLength) {
			return `at most ${rule.maxLength} characters`;
		}
		if (rule.oneOf?.join() === '0,1') {
			if (toFlag(value) !== undefined) return undefined;
			return rule.required ? '0 or 1' : 'blank, 0 or 1';
		}
		if (textFits(rule, text)) return undefined;
		return rule.says ?? `one of ${rule.oneOf?.join(', ')}`;
	};
}

const RULES = BULK_PAYMENT_LINKS.columns ?? {};
/** The spec's "Payment link bulk row" table as checks; `required` columns may not be blank. */
const COLUMNS = Object.fromEntries(
	BULK_LINK_HEADERS.map((header) => {
		const rule = ruleAt(RULES, header);
		return [header, { required: rule.required, check: checkOf(rule) }];
	}),
) as Record<BulkLinkHeader, { required?: boolean; check: Check }>;

/** Every failed rule of one row (one per column at most). */
export function validateLinkRow(rowNumber: number, row: BulkLinkRow, today: string): RowError[] {
	const errors: RowError[] = [];
	for (const column of BULK_LINK_HEADERS) {
		const value = row[column];
		const { required, check } = COLUMNS[column];
		let rule: string | undefined;
		if (value === null) {
			if (required) rule = 'required';
			else if (column === 'End Date' && toFlag(row['Is Expiry']) === 1) {
				rule = 'required when Is Expiry is 1';
			}
		} else {
			rule = check(value, today);
		}
		if (rule) errors.push({ row: rowNumber, column, rule, value });
	}
	return errors;
}

/** The first sheet's data rows (blank rows skipped), after the header check. Throws HttpError. */
export async function readLinkWorkbook(
	data: Buffer,
): Promise<{ row: number; values: BulkLinkRow }[]> {
	const workbook = new ExcelJS.Workbook();
	try {
		// exceljs declares its own Buffer type; a Node Buffer is what it reads.
		await workbook.xlsx.load(data as unknown as ArrayBuffer);
	} catch {
		throw E0035();
	}
	const sheet = workbook.worksheets[0];
	if (!sheet) throw new HttpError(400, 'The workbook has no worksheet');
	const found: string[] = [];
	sheet.getRow(1).eachCell({ includeEmpty: true }, (cell, column) => {
		// Headers are compared untrimmed: "Tip " is not "Tip".
		const { value } = cell;
		found[column - 1] = typeof value === 'string' ? value : String(cellValue(value) ?? '');
	});
	// Trailing blank header cells are not columns.
	while (found.length > 0 && found.at(-1) === '') found.pop();
	const expected = BULK_LINK_HEADERS as readonly string[];
	if (found.length !== expected.length || found.some((h, i) => h !== expected[i])) {
		const at = expected.findIndex((h, i) => found[i] !== h);
		const detail =
			at >= 0
				? `column ${at + 1} must be ${JSON.stringify(expected[at])}, ` +
					`got ${JSON.stringify(found[at] ?? '')}`
				: `unexpected column ${expected.length + 1} ${JSON.stringify(found[expected.length])}`;
		throw new HttpError(
			400,
			`Invalid headers: row 1 must be exactly ${expected.join(', ')} (${detail})`,
		);
	}
	const rows: { row: number; values: BulkLinkRow }[] = [];
	sheet.eachRow({ includeEmpty: false }, (sheetRow, rowNumber) => {
		if (rowNumber === 1) return;
		const values = Object.fromEntries(
			BULK_LINK_HEADERS.map((h, i) => [h, cellValue(sheetRow.getCell(i + 1).value)]),
		) as BulkLinkRow;
		if (Object.values(values).some((v) => v !== null)) rows.push({ row: rowNumber, values });
	});
	return rows;
}

const NUMERIC: BulkLinkHeader[] = [
	'Amount',
	'Shipping Fee',
	'Convenience Fee',
	'Qty Per Transaction',
	'No Of Transactions',
	'Overall Qty Allowed',
];
const FLAGS: BulkLinkHeader[] = [
	'No Limit Per User',
	'No Limit Over All',
	'Is Expiry',
	'Split Payment',
	'Tip',
];

/** Typed values of a valid row: numbers, flags 0 / 1 (blank 0), Tip 0 unless Split Payment. */
function normalise(row: BulkLinkRow): BulkLinkRow {
	const out = { ...row };
	for (const column of NUMERIC) out[column] = toNumber(row[column]) as number;
	for (const column of FLAGS) out[column] = toFlag(row[column]) ?? 0;
	if (out['Split Payment'] !== 1) out.Tip = 0;
	return out;
}

/** The whole upload refused for row errors: 400 with the error list. */
export class RowsRejected extends HttpError {
	constructor(
		message: string,
		readonly errors: RowError[],
	) {
		super(400, message);
	}
}

export interface BulkUploadResult {
	total_records: number;
	links_created: number;
	links_failed: number;
	uploaded_file_url: string;
	links: (Pick<PaymentLinkRecord, 'payment_link' | 'qr_id' | 'link_id' | 'amount' | 'currency'> & {
		data_id: string;
	})[];
	failed_rows?: { row: number; reason: string }[];
}

/**
 * Validates every row first (any error: 400 with the list, nothing created), then creates one
 * active link per row; rows in settings.paymentLinkStorageFailRows fail as a storage error.
 */
export async function bulkCreateLinks(
	state: SandboxState,
	file: { name: string; data: Buffer },
	fileUrl: (upload: number) => string,
	now = Date.now(),
): Promise<BulkUploadResult> {
	if (!/\.xlsx$/i.test(file.name)) throw E0035();
	if (file.data.length > MAX_LINK_FILE_BYTES) {
		throw new HttpError(400, `payment_link_file exceeds 2 MB (${file.data.length} bytes)`);
	}
	const rows = await readLinkWorkbook(file.data);
	if (rows.length === 0) throw new HttpError(400, 'The file has no data rows');
	const today = new Date(now).toISOString().slice(0, 10);
	const errors = rows.flatMap(({ row, values }) => validateLinkRow(row, values, today));
	if (errors.length > 0) {
		const count = new Set(errors.map((e) => e.row)).size;
		throw new RowsRejected(`Validation failed: ${count} row(s) have errors`, errors);
	}

	const upload: PaymentLinkUpload = {
		upload: state.paymentLinkUploads.length + 1,
		file_name: file.name,
		data: Buffer.from(file.data),
		uploadedAt: now,
		total_records: rows.length,
		links: [],
		failed_rows: [],
	};
	const result: BulkUploadResult = {
		total_records: rows.length,
		links_created: 0,
		links_failed: 0,
		uploaded_file_url: fileUrl(upload.upload),
		links: [],
	};
	const failing = new Set(state.settings.paymentLinkStorageFailRows);
	for (const { row, values } of rows) {
		if (failing.has(row)) {
			upload.failed_rows.push({ row, reason: 'Storage error' });
			continue;
		}
		const columns = normalise(values);
		const sequence = state.nextSequence('paymentLink');
		const linkId = `PL${String(sequence).padStart(6, '0')}`;
		const currency = columns.Currency as string;
		const link: PaymentLinkRecord = {
			data_id: randomBytes(18).toString('base64url'),
			link_id: linkId,
			qr_id: `QR${String(sequence).padStart(6, '0')}`,
			payment_link: `${state.checkoutUrl}/link/${linkId}`,
			amount: formatAmount(columns.Amount as number, currency),
			currency,
			status: 'Active',
			upload: upload.upload,
			row,
			columns,
			createdAt: now,
		};
		state.paymentLinks.set(link.data_id, link);
		upload.links.push(link.data_id);
		const { payment_link, qr_id, link_id, amount, data_id } = link;
		result.links.push({ payment_link, qr_id, link_id, amount, currency, data_id });
	}
	result.links_created = result.links.length;
	result.links_failed = upload.failed_rows.length;
	if (result.links_failed > 0) result.failed_rows = upload.failed_rows;
	state.paymentLinkUploads.push(upload);
	return result;
}
