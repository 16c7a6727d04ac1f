import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { payoutSchema } from '../../spreadsheet/payout';
import type { RowViolation, SourcedRow } from '../../spreadsheet/schema';
import { describeRowViolation } from '../../spreadsheet/schema';
import { assertRows, buildFile, fileSizeViolations, withFile } from '../bulk';
import type { NodeError } from '../errorItem';
import { asNodeError, errorItem } from '../errorItem';
import type { Batch, BatchFields, BatchStatus, PairedOf } from './bulkCreate.plan';
import { NOUN, planBatches, planViolations, sizeViolations } from './bulkCreate.plan';
import { payoutChecksum, uploadBatch } from './bulkCreate.upload';

/** What every batch item says about its batch: the one item shape of Bulk Create. */
export function batchJson(
	batch: Batch,
	batches: number,
	fields: BatchFields,
	status: BatchStatus,
): IDataObject {
	return {
		batch: batch.number,
		batches,
		request_id: batch.requestId,
		first_row: batch.firstRow,
		last_row: batch.lastRow,
		total_records: batch.count,
		status,
		checksum: payoutChecksum(batch.requestId, fields.callbackUrl, fields.remark),
	};
}

const describeAll = (violations: RowViolation[]) =>
	violations.map((v) => ({ ...v, message: describeRowViolation(v, NOUN) }));

/** "batch 3" or "batches 1–2", with their rows. */
function span(batches: Batch[]): string {
	const first = batches[0];
	const last = batches[batches.length - 1];
	const which =
		batches.length === 1 ? `Batch ${first.number}` : `Batches ${first.number}–${last.number}`;
	return `${which} (rows ${first.firstRow}–${last.lastRow})`;
}

/** E0021 on a first attempt: this request_id was queued by an earlier run. */
const alreadySubmitted = (error: unknown) =>
	error instanceof NodeApiError && error.context.serviceCode === 'E0021';

/** An answer from the service refused the batch; a lost answer or a 5xx may hide a queued one. */
function mayHaveQueued(error: NodeError): boolean {
	if (error instanceof NodeOperationError) return false;
	const status = error.context.httpStatus;
	return typeof status !== 'number' || status >= 500;
}

/** Where the run stands after batch `index` failed, and what a re-run does. */
function describeStop(fields: BatchFields, batches: Batch[], index: number, maybe: boolean) {
	const queued = batches.slice(0, index);
	const notSent = batches.slice(index + 1);
	const failed = batches[index];
	const same = fields.givenRequestId ? 'the same Request ID' : 'Request ID left empty';
	return [
		queued.length
			? `${span(queued)} ${queued.length > 1 ? 'are' : 'is'} queued.`
			: 'No batch before it was queued.',
		maybe
			? `Batch ${failed.number} may have been queued: no clear answer came back.`
			: `Batch ${failed.number} was not queued.`,
		notSent.length ? `${span(notSent)} ${notSent.length > 1 ? 'were' : 'was'} not sent.` : '',
		`Re-run with the same rows, batch fields and ${same}: every batch keeps its request_id, the service refuses the queued ones as already submitted (E0021), the node reports them as already queued and sends only the rest.`,
		fields.givenRequestId
			? 'Change no row before the re-run: with a given Request ID a batch is known by its number only.'
			: 'Change no row before the re-run: a changed batch gets a new request_id and would be sent as new.',
	]
		.filter(Boolean)
		.join(' ');
}

function queuedJson(base: IDataObject, response: IDataObject): IDataObject {
	const data = (response.data ?? {}) as IDataObject;
	const json: IDataObject = {
		...base,
		payouts_queued: data.payouts_queued,
		message: response.message,
		response,
	};
	if (response.confirmedByDuplicate) json.confirmedByDuplicate = true;
	return json;
}

function alreadyQueuedJson(base: IDataObject, error: NodeApiError): IDataObject {
	return {
		...base,
		status: 'alreadyQueued',
		payouts_queued: 0,
		message:
			'Already queued by an earlier run: the service refused this request_id as already submitted, so nothing new was queued. To pay these rows again on purpose, give a new Request ID or new Reference No values.',
		response: { status: 'fail', code: 'E0021', message: error.context.serviceMessage as string },
	};
}

/** Batch `index` failed: the error (or, under continue-on-fail, one item per batch) says where the run stands. */
function stopAt(
	ctx: IExecuteFunctions,
	itemIndex: number,
	fields: BatchFields,
	batches: Batch[],
	index: number,
	done: INodeExecutionData[],
	error: NodeError,
	paired: PairedOf,
): INodeExecutionData[] {
	const failed = batches[index];
	const maybe = mayHaveQueued(error);
	const summary = describeStop(fields, batches, index, maybe);
	const total = batches.length;
	error.message = `Batch ${failed.number} of ${total} (rows ${failed.firstRow}–${failed.lastRow}, request ID ${failed.requestId}) ${maybe ? 'got no clear answer' : 'was refused'}: ${error.message}`;
	error.description = [summary, error.description].filter(Boolean).join(' ');
	const failedJson = batchJson(failed, total, fields, maybe ? 'mayBeQueued' : 'failed');
	const rest = batches.slice(index + 1).map((b) => batchJson(b, total, fields, 'notSent'));
	error.context.batches = [...done.map((item) => item.json), failedJson, ...rest];
	if (!ctx.continueOnFail()) throw error;
	const notSent = new NodeOperationError(
		ctx.getNode(),
		`Not sent: batch ${failed.number} of ${total} failed before it`,
		{ itemIndex, description: summary },
	);
	return [
		...done,
		errorItem(ctx, error, paired(failed), failedJson),
		...rest.map((json, i) => errorItem(ctx, notSent, paired(batches[index + 1 + i]), json)),
	];
}

/** A file built ahead: its failure is handled where it is awaited, never left unhandled meanwhile. */
function build(batch: Batch): Promise<Buffer> {
	const file = buildFile(payoutSchema, 'Payouts', batch.rows);
	file.catch(() => undefined);
	return file;
}

async function output(
	ctx: IExecuteFunctions,
	fields: BatchFields,
	item: INodeExecutionData,
	file: Buffer,
	batch: Batch,
) {
	if (!fields.attachFiles) return item;
	return await withFile(ctx, item, fields.outputField, file, batch.fileName);
}

/**
 * The batches one after the other, one item each. The next batch's file is built while the service
 * reads the current one, so at most two files are held; each is dropped once its batch is answered.
 * Versions 1–2 without batches keep their one upload's failures as they were: thrown unchanged,
 * a repeated Request ID (E0021) included.
 */
async function sendBatches(
	ctx: IExecuteFunctions,
	itemIndex: number,
	fields: BatchFields,
	batches: Batch[],
	paired: PairedOf,
): Promise<INodeExecutionData[]> {
	const out: INodeExecutionData[] = [];
	let next: Promise<Buffer> | undefined = build(batches[0]);
	for (const [index, batch] of batches.entries()) {
		const file: Buffer = await (next as Promise<Buffer>);
		next = index + 1 < batches.length ? build(batches[index + 1]) : undefined;
		const base = batchJson(batch, batches.length, fields, 'queued');
		let json: IDataObject;
		try {
			const { requestId, fileName } = batch;
			json = queuedJson(base, await uploadBatch(ctx, itemIndex, fields, requestId, fileName, file));
		} catch (thrown) {
			const error = asNodeError(ctx, thrown, itemIndex);
			if (!fields.split) throw error;
			if (!alreadySubmitted(error))
				return stopAt(ctx, itemIndex, fields, batches, index, out, error, paired);
			json = alreadyQueuedJson(base, error as NodeApiError);
		}
		out.push(await output(ctx, fields, { json, pairedItem: paired(batch) }, file, batch));
	}
	return out;
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
		...planViolations(fields, batches),
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
			violations: describeAll(own),
		};
		out.push(await output(ctx, fields, { json, pairedItem: paired(batch) }, file, batch));
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
	if (!fields.validateOnly) assertRows(ctx, violations, itemIndex, NOUN);
	const json = {
		validateOnly: true,
		valid: false,
		batches: 0,
		status: 'invalid',
		violations: describeAll(violations),
	};
	return [{ json, pairedItem: paired }];
}

/** Bulk Create's one path: every rule of every batch checked, then the batches sent in order. */
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
	const all = [
		...checked.violations,
		...planViolations(fields, batches),
		...(await sizeViolations(batches)),
	];
	assertRows(
		ctx,
		all.sort((a, b) => a.row - b.row),
		itemIndex,
		NOUN,
	);
	return await sendBatches(ctx, itemIndex, fields, batches, paired);
}
