// Bulk payouts: request fields, the .xlsx sheet and its row rules; results in results.ts.
import { createHash } from 'node:crypto';

import { Workbook, type CellValue } from 'exceljs';

import { HttpError } from '../../core/http';
import type { MultipartPart } from '../../core/multipart';
import type { PayoutRowResult, PayoutStatus } from './results';
import { BULK_PAYOUT, PAYMENT_MODES, PAYOUT_EMAIL } from './rules';
import { ruleAt, textFits } from '../../rules/types';

const FIELDS = BULK_PAYOUT.fields;
const COLUMNS = BULK_PAYOUT.columns ?? {};
const maxLength = (name: string) => ruleAt(FIELDS, name).maxLength as number;

/** Row 1 of the first sheet, exactly (spelling, casing, order). */
export const PAYOUT_HEADERS = [
	'Reference No',
	'Payment Mode',
	'Amount',
	'Remark',
	'Beneficiary Account Number',
	'Beneficiary Account Type',
	'Beneficiary IFSC',
	'Beneficiary Branch',
	'Beneficiary Name',
	'Beneficiary Email',
	'Beneficiary Mobile',
	'Beneficiary MMID',
	'Beneficiary LEI Code',
	'Beneficiary NRE Flag',
] as const;
export type PayoutColumn = (typeof PAYOUT_HEADERS)[number];
/** A data row: trimmed cell text by header ('' = blank). */
export type PayoutRow = Record<PayoutColumn, string>;

export { PAYMENT_MODES };
export type PaymentMode = (typeof PAYMENT_MODES)[number];

export const MAX_PAYOUT_FILE_BYTES = 2 * 1024 * 1024;
export const MAX_PAYOUT_ROWS = 500;
/** 50 crore rupees: NEFT payouts above it need an LEI code. */
export const LEI_THRESHOLD = 500_000_000;

/** Our reading of the spec's hints: beneficiary columns each mode needs. */
export const REQUIRED_BY_MODE: Record<PaymentMode, PayoutColumn[]> = {
	NEFT: ['Beneficiary Account Number', 'Beneficiary IFSC'],
	RTGS: ['Beneficiary Account Number', 'Beneficiary IFSC'],
	IMPSP2A: ['Beneficiary Account Number', 'Beneficiary IFSC'],
	IFT: ['Beneficiary Account Number', 'Beneficiary Branch'],
	IMPSP2P: ['Beneficiary Mobile', 'Beneficiary MMID'],
};

export const EMAIL_PATTERN = PAYOUT_EMAIL;

export interface PayoutRowError {
	/** Spreadsheet row number (header = 1). */
	row: number;
	column: PayoutColumn;
	rule: string;
	value: string;
}

export interface PayoutFields {
	request_id: string;
	currency: string;
	remark: string;
	callback_url: string;
	checksum: string;
}

/** One attempt of one results post (batch.callbackAttempts, oldest first). */
export interface PayoutCallbackAttempt {
	/** 1-based post number within the batch (copies and retries share it). */
	post: number;
	/** 1 = the post; 2… = its repeats (settings.payoutResultsRepeat). */
	copy: number;
	/** 1 = first try; 2… = retries. */
	attempt: number;
	/** Start, epoch ms. */
	at: number;
	durationMs: number;
	/** A 2xx answer came. */
	ok: boolean;
	/** HTTP status when an answer came. */
	status?: number;
	/** Connection error, time-out or "cancelled" (sandbox stopped). */
	error?: string;
	/** What the post carried. */
	results: { reference_no: string; status: PayoutStatus }[];
}

/** An accepted batch (state.payoutBatches). */
export interface PayoutBatch {
	request_id: string;
	currency: string;
	remark: string;
	callback_url: string;
	rows: PayoutRow[];
	fileName: string;
	file: Buffer;
	queuedAt: number;
	/** Each row's result, in row order (see results.ts). */
	results: PayoutRowResult[];
	callbackAttempts: PayoutCallbackAttempt[];
}

/** Lower-case hex SHA-256 of request_id|callback_url|remark (spec: Checksum). */
export const payoutChecksum = (requestId: string, callbackUrl: string, remark: string): string =>
	createHash('sha256').update(`${requestId}|${callbackUrl}|${remark}`).digest('hex');

const rejected = (message: string) => new HttpError(400, message);

const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

/** The text fields, in the documented order; throws HttpError 400. */
export function checkPayoutFields(parts: MultipartPart[]): PayoutFields {
	// Raw values, untrimmed: the checksum covers the exact text.
	const field = (name: string) =>
		parts.find((p) => p.name === name && p.filename === undefined)?.data.toString('utf8');

	const requestId = field('request_id');
	if (!requestId) throw rejected('request_id is required');
	if (requestId.length > maxLength('request_id')) {
		throw rejected(`request_id must be at most ${maxLength('request_id')} characters`);
	}
	const currency = field('currency');
	if (!currency) throw rejected('currency is required');
	if (!textFits(ruleAt(FIELDS, 'currency'), currency)) {
		throw rejected(
			`currency must be ${ruleAt(FIELDS, 'currency').says ?? ''}, got ${JSON.stringify(currency)}`,
		);
	}
	const remark = field('remark');
	if (remark === undefined) throw rejected('remark is required (it may be empty)');
	if (remark.length > maxLength('remark')) {
		throw rejected(`remark must be at most ${maxLength('remark')} characters`);
	}
	const callbackUrl = field('callback_url');
	if (callbackUrl === undefined) throw rejected('callback_url is required (it may be empty)');
	if (callbackUrl.length > maxLength('callback_url')) {
		throw rejected(`callback_url must be at most ${maxLength('callback_url')} characters`);
	}
	if (callbackUrl !== '' && !isCallbackUrl(callbackUrl)) {
		throw rejected('callback_url must be an https:// URL (http:// only for localhost)');
	}
	const checksum = field('checksum');
	if (!checksum) throw rejected('checksum is required');
	if (!textFits(ruleAt(FIELDS, 'checksum'), checksum)) {
		throw rejected('checksum must be 64 lower-case hex characters (SHA-256)');
	}
	if (checksum !== payoutChecksum(requestId, callbackUrl, remark)) {
		throw rejected('Checksum mismatch');
	}
	return { request_id: requestId, currency, remark, callback_url: callbackUrl, checksum };
}

function isCallbackUrl(text: string): boolean {
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		return false;
	}
	if (url.protocol === 'https:') return url.hostname !== '';
	return url.protocol === 'http:' && LOOPBACK.includes(url.hostname);
}

/** The file part named payout_file: .xlsx name, at most 2 MB; throws HttpError 400. */
export function payoutFilePart(parts: MultipartPart[]): MultipartPart & { filename: string } {
	const file = parts.find((p) => p.name === 'payout_file' && p.filename !== undefined);
	if (!file) throw rejected('payout_file is required (a file part named payout_file)');
	if (!/\.xlsx$/i.test(file.filename as string)) {
		throw rejected('payout_file must be an .xlsx file');
	}
	if (file.data.length > MAX_PAYOUT_FILE_BYTES) {
		throw rejected(`payout_file exceeds 2 MB (${file.data.length} bytes)`);
	}
	return file as MultipartPart & { filename: string };
}

export interface SheetRow {
	/** Spreadsheet row number. */
	row: number;
	values: PayoutRow;
}

/** Plain text of any exceljs cell value (hyperlinks and rich text are common in real sheets). */
export function cellText(value: CellValue): string {
	if (value === null || value === undefined) return '';
	if (typeof value === 'string') return value;
	if (typeof value === 'number' || typeof value === 'boolean') return String(value);
	if (value instanceof Date) return value.toISOString();
	if ('richText' in value) return value.richText.map((run) => run.text).join('');
	if ('formula' in value || 'sharedFormula' in value) return cellText(value.result as CellValue);
	if ('hyperlink' in value) return cellText(value.text as CellValue);
	if ('error' in value) return value.error;
	return '';
}

const columnLetter = (index: number): string =>
	index < 26
		? String.fromCharCode(65 + index)
		: columnLetter(Math.floor(index / 26) - 1) + columnLetter(index % 26);

/**
 * Reads the first sheet: exact headers, then the non-blank data rows (1-500), trimmed.
 * Throws HttpError 400 for an unreadable file, wrong headers or a wrong row count.
 */
export async function readPayoutSheet(data: Buffer): Promise<SheetRow[]> {
	const workbook = new Workbook();
	try {
		await workbook.xlsx.load(data as unknown as ArrayBuffer);
	} catch {
		throw rejected('payout_file is not a readable .xlsx file');
	}
	const sheet = workbook.worksheets[0];
	if (!sheet) throw rejected('payout_file has no worksheet');

	// Headers compare untrimmed: the spec asks for the exact spelling.
	const header = sheet.getRow(1);
	const width = Math.max(PAYOUT_HEADERS.length, header.cellCount);
	for (let i = 0; i < width; i += 1) {
		const found = cellText(header.getCell(i + 1).value);
		const expected: string | undefined = PAYOUT_HEADERS[i];
		if (found === (expected ?? '')) continue;
		const where = `column ${columnLetter(i)}`;
		const detail =
			expected === undefined
				? `${where} has the extra header ${JSON.stringify(found)}`
				: found === ''
					? `${where} is missing ${JSON.stringify(expected)}`
					: `${where} has ${JSON.stringify(found)}, expected ${JSON.stringify(expected)}`;
		throw rejected(
			`payout_file row 1 must hold exactly these 14 headers in order: ` +
				`${PAYOUT_HEADERS.join(', ')}; ${detail}`,
		);
	}

	const rows: SheetRow[] = [];
	sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
		if (rowNumber === 1) return;
		const texts = PAYOUT_HEADERS.map((_, i) => cellText(row.getCell(i + 1).value).trim());
		if (texts.every((text) => text === '')) return;
		const values = Object.fromEntries(PAYOUT_HEADERS.map((name, i) => [name, texts[i]]));
		rows.push({ row: rowNumber, values: values as PayoutRow });
	});
	if (rows.length === 0) throw rejected('payout_file has no data rows');
	if (rows.length > MAX_PAYOUT_ROWS) {
		throw rejected(`payout_file has ${rows.length} data rows; the maximum is ${MAX_PAYOUT_ROWS}`);
	}
	return rows;
}

const isMode = (value: string): value is PaymentMode =>
	(PAYMENT_MODES as readonly string[]).includes(value);

/** The rule one cell breaks by its column's own declaration, or undefined. */
function cellRule(column: PayoutColumn, value: string): string | undefined {
	const rule = COLUMNS[column];
	if (value === '') return rule.required ? 'required' : undefined;
	if (rule.maxLength !== undefined && value.length > rule.maxLength) {
		return `max ${rule.maxLength} characters`;
	}
	if (rule.type === 'number') {
		if (!/^-?\d+(?:\.\d+)?$/.test(value)) return 'number';
		if (rule.above !== undefined && !(Number(value) > rule.above)) return `above ${rule.above}`;
		const places = new RegExp(`^\\d+(?:\\.\\d{1,${rule.decimals}})?$`);
		if (rule.decimals !== undefined && !places.test(value)) {
			return `max ${rule.decimals} decimal places`;
		}
	}
	if (!textFits(rule, value)) return rule.says ?? `one of ${rule.oneOf?.join(', ')}`;
	return undefined;
}

/** Every row rule (README: Bulk payouts); at most one error per cell, row order. */
export function validatePayoutRows(rows: SheetRow[]): PayoutRowError[] {
	const errors: PayoutRowError[] = [];
	const seen = new Set<string>();
	for (const { row, values } of rows) {
		const found: Partial<Record<PayoutColumn, string>> = {};
		const fail = (column: PayoutColumn, rule: string) => {
			found[column] ??= rule;
		};
		for (const column of PAYOUT_HEADERS) {
			const broken = cellRule(column, values[column]);
			if (broken) fail(column, broken);
		}
		const reference = values['Reference No'];
		if (!found['Reference No'] && seen.has(reference)) fail('Reference No', 'unique in file');
		seen.add(reference);

		const mode = values['Payment Mode'];
		const amount = Number(values.Amount);
		if (isMode(mode)) {
			for (const column of REQUIRED_BY_MODE[mode]) {
				if (values[column] === '') fail(column, `required for ${mode}`);
			}
			if (mode === 'NEFT' && !found.Amount && amount > LEI_THRESHOLD) {
				if (values['Beneficiary LEI Code'] === '') {
					fail('Beneficiary LEI Code', `required for NEFT above ${LEI_THRESHOLD}`);
				}
			}
			if (values['Beneficiary NRE Flag'] !== '' && mode !== 'NEFT' && mode !== 'RTGS') {
				fail('Beneficiary NRE Flag', 'only for NEFT or RTGS');
			}
		}

		for (const column of PAYOUT_HEADERS) {
			const rule = found[column];
			if (rule) errors.push({ row, column, rule, value: values[column] });
		}
	}
	return errors;
}

export { PAYOUT_CALLBACK_TIMEOUT_MS, PayoutCallbacks, isRetryable } from './callbacks';
export {
	DEFAULT_REASONS,
	payoutUtr,
	type PayoutResultEntry,
	type PayoutRowResult,
	type PayoutStatus,
} from './results';
export { PAYOUT_OUTCOMES, type PayoutOutcome, type PayoutSettings } from './settings';
