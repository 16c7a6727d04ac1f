import { createHash, randomBytes } from 'node:crypto';

import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { MAX_UPLOAD_BYTES } from '../../fields/limits';
import type { RowViolation, SourcedRow } from '../../spreadsheet/schema';
import { payoutSchema } from '../../spreadsheet/payout';
import { buildFile, fileSizeViolations } from '../bulk';

/** The batch fields and options as read and checked, shared by every batch of a run. */
export interface BatchFields {
	/** As given; '' when the builder left it empty. */
	givenRequestId: string;
	/** currency, remark and callback_url as the table names them on the wire (request_id is per batch). */
	form: IDataObject;
	currency: string;
	remark: string;
	callbackUrl: string;
	/** What every batch item says of the Callback URL (ledger/callbackUrl.ts: the results address). */
	said?: IDataObject;
	validateOnly: boolean;
	/**
	 * Batches of at most 500 rows under request IDs derived from their content, a re-run reported
	 * as already queued: always from node version 3, with Split Into Batches in versions 1–2.
	 */
	split: boolean;
	/** Whether each batch item carries its file: always for versions 1–2 without batches. */
	attachFiles: boolean;
	fileName: string;
	outputField: string;
	/**
	 * Version 3: the node remembers every Reference No it queued and never uploads one again
	 * (bulkCreate.memory.ts); versions 1–2 keep their behaviour.
	 */
	remember: boolean;
	/** Pay Again: rows already queued go out again once more, as attempt `attempt`. */
	payAgain: boolean;
	/** Pay Failed Again: rows whose payment failed, was rejected or reversed go out as their next attempt. */
	payFailedAgain?: boolean;
	/** The attempt a re-payment is sent as (2 or more); each reference makes each attempt once. */
	attempt: number;
	/** What to do with references an earlier run sent without learning the answer. */
	unconfirmed: UnconfirmedChoice;
	/** How many entries the node's memory may hold before a run stops instead of sending. */
	remembered: number;
}

export type UnconfirmedChoice = 'stop' | 'countAsQueued' | 'sendAgain';

export interface Batch {
	/** 1-based, in row order, in the run's plan (in the request ID with a given Request ID). */
	number: number;
	/** 1: a first payment; 2 and more: a re-payment made on purpose (Pay Again, Pay Failed Again). */
	attempt: number;
	count: number;
	rows: SourcedRow[];
	/** 1-based positions of its first and last row among the run's data rows (`first_row`). */
	firstRow: number;
	lastRow: number;
	/** Its first and last sheet row: the header is row 1, item n (from 0) is row n + 2. */
	firstSheetRow: number;
	lastSheetRow: number;
	requestId: string;
	fileName: string;
	/** SHA-256 hex of the batch fields and the rows as the file holds them (and a re-payment's attempt). */
	digest: string;
}

export type BatchStatus =
	| 'queued'
	| 'alreadyQueued'
	| 'failed'
	| 'mayBeQueued'
	| 'notSent'
	| 'valid'
	| 'invalid';

export type PairedOf = (batch: Batch) => INodeExecutionData['pairedItem'];

/** How violations name their place: "Payout row 1101 (item 1099), Beneficiary IFSC: …". */
export const NOUN = 'Payout';

/** The service takes at most 500 data rows per request (seed, Limits). */
export const BATCH_ROWS = payoutSchema.maxRows;
const MAX_REQUEST_ID = 30;
const HEADERS = payoutSchema.columns.map((c) => c.displayName);

/** n8n-YYYYMMDDHHmmss-xxxxxx: 25 characters, sortable by time, random (versions 1–2 without batches). */
export function generateRequestId(now = new Date()): string {
	const stamp = now.toISOString().replace(/[-:T]/g, '').slice(0, 14);
	return `n8n-${stamp}-${randomBytes(4).toString('hex').slice(0, 6)}`;
}

/** The batch's content: its fields and its rows' values as the file holds them. */
function contentDigest(fields: BatchFields, rows: SourcedRow[], attempt: number): string {
	const content = JSON.stringify([
		fields.currency,
		fields.remark,
		fields.callbackUrl,
		rows.map(({ values }) => HEADERS.map((h) => values[h] ?? null)),
	]);
	return createHash('sha256')
		.update(attempt > 1 ? `${content}|attempt ${attempt}` : content, 'utf8')
		.digest('hex');
}

/**
 * A batch's request_id, the same on every run of the same rows: the given Request ID and the batch
 * number, or without one n8n- and the content digest's first 26 hex digits (104 bits, 30
 * characters, the service's limit). The service keeps one batch per request_id (E0021), so a
 * re-run cannot queue these rows again. A re-payment's attempt joins the digest (or, with a given
 * Request ID, the ID: -a<attempt>), so each attempt has request IDs of its own, the same every run.
 */
export function batchRequestId(
	fields: BatchFields,
	number: number,
	digest: string,
	attempt = 1,
): string {
	const again = attempt > 1 ? `-a${attempt}` : '';
	if (fields.givenRequestId) return `${fields.givenRequestId}${again}-${number}`;
	return `n8n-${digest.slice(0, MAX_REQUEST_ID - 4)}`;
}

function batchFileName(fields: BatchFields, number: number, requestId: string): string {
	if (!fields.fileName) return `payouts-${requestId}.xlsx`;
	if (!fields.split) return fields.fileName;
	return fields.fileName.replace(/(\.xlsx)?$/i, `-${number}.xlsx`);
}

function batchOf(
	fields: BatchFields,
	number: number,
	start: number,
	rows: SourcedRow[],
	attempt: number,
): Batch {
	const digest = contentDigest(fields, rows, attempt);
	const requestId = fields.split
		? batchRequestId(fields, number, digest, attempt)
		: fields.givenRequestId || generateRequestId();
	const first = rows[0].row;
	const last = rows[rows.length - 1].row;
	return {
		number,
		attempt,
		count: rows.length,
		rows,
		// Positions among the run's rows (sheet rows minus the header): the same whether or not
		// some rows were left out as already queued.
		firstRow: first > 1 ? first - 1 : start + 1,
		lastRow: last > 1 ? last - 1 : start + rows.length,
		firstSheetRow: first > 1 ? first : start + 2,
		lastSheetRow: last > 1 ? last : start + rows.length + 1,
		requestId,
		fileName: batchFileName(fields, number, requestId),
		digest,
	};
}

/**
 * The rows in batches of at most 500, in order, numbered from `first`; versions 1–2 without
 * batches: one upload. A re-payment's `attempt` (2 or more) gives request IDs of that attempt.
 */
export function planBatches(
	fields: BatchFields,
	rows: SourcedRow[],
	first = 1,
	attempt = 1,
): Batch[] {
	if (rows.length === 0) return [];
	if (!fields.split) return [batchOf(fields, first, 0, rows, attempt)];
	const batches: Batch[] = [];
	for (let start = 0; start < rows.length; start += BATCH_ROWS) {
		const slice = rows.slice(start, start + BATCH_ROWS);
		batches.push(batchOf(fields, first + batches.length, start, slice, attempt));
	}
	return batches;
}

/** Rules of the plan itself: a single upload's 500 rows, room for "-<batch number>" in the Request ID. */
export function planViolations(fields: BatchFields, batches: Batch[]): RowViolation[] {
	const count = batches.reduce((sum, b) => sum + b.count, 0);
	if (!fields.split && count > BATCH_ROWS) {
		const rule = `may have at most ${BATCH_ROWS} data rows in one upload: turn on Split Into Batches to send any number of rows in batches of ${BATCH_ROWS}, each under its own request ID (a new Payment Gateway node does this by itself)`;
		return [{ row: 0, column: '(file)', rule, value: count }];
	}
	const longest = batches.reduce((max, b) => Math.max(max, b.requestId.length), 0);
	if (!fields.givenRequestId || longest <= MAX_REQUEST_ID) return [];
	const room = MAX_REQUEST_ID - (longest - fields.givenRequestId.length);
	const rule = `must be at most ${room} characters when the rows go out in ${batches.length} batch${batches.length > 1 ? 'es' : ''} (each batch's request_id is the Request ID followed by -<batch number>, at most ${MAX_REQUEST_ID} characters)`;
	return [{ row: 0, column: 'Request ID', rule, value: fields.givenRequestId }];
}

/** Whether a batch's file could pass 2 MB: an upper bound of its XML (escaping included), no build. */
function mayExceedUploadLimit(batch: Batch): boolean {
	let bytes = 64 * 1024;
	for (const { values } of batch.rows) {
		for (const header of HEADERS) bytes += 96 + 6 * String(values[header] ?? '').length;
	}
	return bytes > MAX_UPLOAD_BYTES;
}

/** The 2 MB rule per batch; a file is built only where its size is in doubt. */
export async function sizeViolations(batches: Batch[]): Promise<RowViolation[]> {
	const all: RowViolation[] = [];
	for (const batch of batches) {
		if (!mayExceedUploadLimit(batch)) continue;
		const sizeRules = fileSizeViolations(await buildFile(payoutSchema, 'Payouts', batch.rows));
		const where =
			batches.length > 1
				? ` (batch ${batch.number}, sheet rows ${batch.firstSheetRow}–${batch.lastSheetRow})`
				: '';
		all.push(...sizeRules.map((v) => ({ ...v, rule: `${v.rule}${where}` })));
	}
	return all;
}
