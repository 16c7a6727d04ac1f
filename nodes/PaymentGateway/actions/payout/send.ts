import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { payoutSchema } from '../../spreadsheet/payout';
import type { SourcedRow } from '../../spreadsheet/schema';
import { buildFile, withFile } from '../bulk';
import type { NodeError } from '../errorItem';
import { asNodeError, errorItem } from '../errorItem';
import type { BatchFields } from './upload';
import { payoutChecksum, uploadBatch } from './upload';

export interface Batch {
	/** 1-based, in row order. */
	number: number;
	count: number;
	rows: SourcedRow[];
	/** 1-based positions of its first and last row among the run's rows. */
	firstRow: number;
	lastRow: number;
	requestId: string;
	fileName: string;
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

/** What every batch item says about its batch. */
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

/** A batch item that failed or was not sent: the error output takes it under "Continue (using error output)". */
export function failedBatchItem(
	ctx: IExecuteFunctions,
	json: IDataObject,
	error: NodeError,
	pairedItem: INodeExecutionData['pairedItem'],
): INodeExecutionData {
	return errorItem(ctx, error, pairedItem, json);
}

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
function describeStop(
	fields: BatchFields,
	batches: Batch[],
	index: number,
	maybe: boolean,
): string {
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

function queuedJson(
	batch: Batch,
	total: number,
	fields: BatchFields,
	response: IDataObject,
): IDataObject {
	const data = (response.data ?? {}) as IDataObject;
	const json: IDataObject = {
		...batchJson(batch, total, fields, 'queued'),
		payouts_queued: data.payouts_queued,
		message: response.message,
		response,
	};
	if (response.confirmedByDuplicate) json.confirmedByDuplicate = true;
	return json;
}

function alreadyQueuedJson(
	batch: Batch,
	total: number,
	fields: BatchFields,
	error: NodeApiError,
): IDataObject {
	return {
		...batchJson(batch, total, fields, 'alreadyQueued'),
		message:
			'Already queued by an earlier run: the service refused this request_id as already submitted, so nothing new was queued.',
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
	thrown: unknown,
	paired: PairedOf,
): INodeExecutionData[] {
	const node = ctx.getNode();
	const error = asNodeError(ctx, thrown, itemIndex);
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
		node,
		`Not sent: batch ${failed.number} of ${total} failed before it`,
		{ itemIndex, description: summary },
	);
	return [
		...done,
		failedBatchItem(ctx, failedJson, error, paired(failed)),
		...rest.map((json, i) => failedBatchItem(ctx, json, notSent, paired(batches[index + 1 + i]))),
	];
}

/** A file built ahead: its failure is handled where it is awaited, never left unhandled meanwhile. */
function build(batch: Batch): Promise<Buffer> {
	const file = buildFile(payoutSchema, 'Payouts', batch.rows);
	file.catch(() => undefined);
	return file;
}

/**
 * The batches one after the other. The next batch's file is built while the service reads the
 * current one, so at most two files are held; each is dropped once its batch is answered.
 */
export async function sendBatches(
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
		let json: IDataObject;
		try {
			json = queuedJson(
				batch,
				batches.length,
				fields,
				await uploadBatch(ctx, itemIndex, fields, batch.requestId, batch.fileName, file),
			);
		} catch (error) {
			if (!alreadySubmitted(error))
				return stopAt(ctx, itemIndex, fields, batches, index, out, error, paired);
			json = alreadyQueuedJson(batch, batches.length, fields, error as NodeApiError);
		}
		const item = { json, pairedItem: paired(batch) };
		out.push(
			fields.attachBatchFiles
				? await withFile(ctx, item, fields.outputField, file, batch.fileName)
				: item,
		);
	}
	return out;
}
