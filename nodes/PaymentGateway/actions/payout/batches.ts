import { createHash } from 'node:crypto';

import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { MAX_UPLOAD_BYTES } from '../../fields/limits';
import type { RowViolation, SourcedRow } from '../../spreadsheet/schema';
import { describeRowViolation } from '../../spreadsheet/schema';
import { payoutSchema } from '../../spreadsheet/payout';
import { assertRows, buildFile, fileSizeViolations, withFile } from '../bulk';
import type { Batch, PairedOf } from './send';
import { batchJson, sendBatches } from './send';
import type { BatchFields } from './upload';

/** The service takes at most 500 data rows per request (seed, Limits). */
export const BATCH_ROWS = payoutSchema.maxRows;
const MAX_REQUEST_ID = 30;
const HEADERS = payoutSchema.columns.map((c) => c.displayName);

/**
 * A batch's request_id, the same on every run of the same input: the given Request ID and the batch
 * number, or without one a digest of the batch fields and the rows' values as the file holds them.
 * The service keeps one batch per request_id (E0021), so a re-run cannot queue these rows again.
 */
export function batchRequestId(fields: BatchFields, number: number, rows: SourcedRow[]): string {
	if (fields.givenRequestId) return `${fields.givenRequestId}-${number}`;
	const content = JSON.stringify([
		fields.currency,
		fields.remark,
		fields.callbackUrl,
		rows.map(({ values }) => HEADERS.map((h) => values[h] ?? null)),
	]);
	// n8n- and 26 hex digits (104 bits): 30 characters, the service's limit.
	return `n8n-${createHash('sha256')
		.update(content, 'utf8')
		.digest('hex')
		.slice(0, MAX_REQUEST_ID - 4)}`;
}

function batchFileName(fields: BatchFields, number: number, requestId: string): string {
	if (!fields.fileName) return `payouts-${requestId}.xlsx`;
	return fields.fileName.replace(/(\.xlsx)?$/i, `-${number}.xlsx`);
}

/** The run's rows in batches of at most 500, in order. */
export function planBatches(fields: BatchFields, rows: SourcedRow[]): Batch[] {
	const batches: Batch[] = [];
	for (let start = 0; start < rows.length; start += BATCH_ROWS) {
		const chunk = rows.slice(start, start + BATCH_ROWS);
		const number = batches.length + 1;
		const requestId = batchRequestId(fields, number, chunk);
		batches.push({
			number,
			count: chunk.length,
			rows: chunk,
			firstRow: start + 1,
			lastRow: start + chunk.length,
			requestId,
			fileName: batchFileName(fields, number, requestId),
		});
	}
	return batches;
}

/** The given Request ID must leave room for "-<batch number>" within 30 characters. */
function requestIdViolations(fields: BatchFields, batches: Batch[]): RowViolation[] {
	const longest = batches.reduce((max, b) => Math.max(max, b.requestId.length), 0);
	if (!fields.givenRequestId || longest <= MAX_REQUEST_ID) return [];
	const room = MAX_REQUEST_ID - (longest - fields.givenRequestId.length);
	const rule = `must be at most ${room} characters when the rows go out in ${batches.length} batches (each batch's request_id is the Request ID followed by -<batch number>, at most ${MAX_REQUEST_ID} characters)`;
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

/** Every rule of every batch, before the first is sent; a file is built only where size is in doubt. */
async function assertBatches(
	ctx: IExecuteFunctions,
	itemIndex: number,
	fields: BatchFields,
	batches: Batch[],
	violations: RowViolation[],
) {
	const all = [...violations, ...requestIdViolations(fields, batches)];
	for (const batch of batches) {
		if (!mayExceedUploadLimit(batch)) continue;
		const sizeRules = fileSizeViolations(await buildFile(payoutSchema, 'Payouts', batch.rows));
		all.push(
			...sizeRules.map((v) => ({
				...v,
				rule: `${v.rule} (batch ${batch.number}, rows ${batch.firstRow}–${batch.lastRow})`,
			})),
		);
	}
	assertRows(
		ctx,
		all.sort((a, b) => a.row - b.row),
		itemIndex,
	);
}

/** Validate Only: one report per batch, each with the violations of its rows; nothing is sent. */
async function validateBatches(
	ctx: IExecuteFunctions,
	fields: BatchFields,
	batches: Batch[],
	violations: RowViolation[],
	paired: PairedOf,
) {
	const batchOf = new Map<number, number>();
	for (const batch of batches) for (const { row } of batch.rows) batchOf.set(row, batch.number);
	const shared = [
		...violations.filter((v) => !batchOf.has(v.row)),
		...requestIdViolations(fields, batches),
	];
	const out: INodeExecutionData[] = [];
	for (const batch of batches) {
		const file = await buildFile(payoutSchema, 'Payouts', batch.rows);
		const own = [
			...shared,
			...violations.filter((v) => batchOf.get(v.row) === batch.number),
			...fileSizeViolations(file),
		];
		const json: IDataObject = {
			validateOnly: true,
			valid: own.length === 0,
			...batchJson(batch, batches.length, fields, own.length ? 'invalid' : 'valid'),
			failing_rows: new Set(own.filter((v) => v.row > 1).map((v) => v.row)).size,
			violations: own.map((v) => ({ ...v, message: describeRowViolation(v) })),
		};
		const item = { json, pairedItem: paired(batch) };
		out.push(
			fields.attachBatchFiles
				? await withFile(ctx, item, fields.outputField, file, batch.fileName)
				: item,
		);
	}
	return out;
}

/** A run with no rows (or an unreadable file): one report, no batch. */
function emptyRun(
	ctx: IExecuteFunctions,
	itemIndex: number,
	fields: BatchFields,
	violations: RowViolation[],
	paired: INodeExecutionData['pairedItem'],
) {
	if (!fields.validateOnly) assertRows(ctx, violations, itemIndex);
	const json = {
		validateOnly: true,
		valid: false,
		batches: 0,
		status: 'invalid',
		violations: violations.map((v) => ({ ...v, message: describeRowViolation(v) })),
	};
	return [{ json, pairedItem: paired }];
}

/** Split Into Batches: every row checked, then the batches sent one after the other. */
export async function runBatches(
	ctx: IExecuteFunctions,
	itemIndex: number,
	fields: BatchFields,
	checked: { rows: SourcedRow[]; violations: RowViolation[] },
	paired: PairedOf,
	runPaired: INodeExecutionData['pairedItem'],
): Promise<INodeExecutionData[]> {
	const batches = planBatches(fields, checked.rows);
	if (batches.length === 0) return emptyRun(ctx, itemIndex, fields, checked.violations, runPaired);
	if (fields.validateOnly)
		return await validateBatches(ctx, fields, batches, checked.violations, paired);
	await assertBatches(ctx, itemIndex, fields, batches, checked.violations);
	return await sendBatches(ctx, itemIndex, fields, batches, paired);
}
