import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import { payoutSchema } from '../../spreadsheet/payout';
import type { RowViolation } from '../../spreadsheet/schema';
import { describeRowViolation } from '../../spreadsheet/schema';
import { buildFile, withFile } from '../bulk';
import type { NodeError } from '../errorItem';
import { errorItem } from '../errorItem';
import type { Batch, BatchFields, BatchStatus, PairedOf } from './bulkCreate.plan';
import { NOUN } from './bulkCreate.plan';
import { payoutChecksum } from './bulkCreate.upload';

/**
 * What every batch item says about its batch: the one item shape of Bulk Create. `batch` of
 * `batches`: its place among the batches this run sends, from 1. Rows: sheet rows (header = 1);
 * `first_row`/`last_row` (positions among the data rows) are kept for saved workflows.
 */
export function batchJson(
	batch: Batch,
	place: { position: number; of: number },
	fields: BatchFields,
	status: BatchStatus,
): IDataObject {
	return {
		batch: place.position,
		batches: place.of,
		request_id: batch.requestId,
		first_sheet_row: batch.firstSheetRow,
		last_sheet_row: batch.lastSheetRow,
		first_row: batch.firstRow,
		last_row: batch.lastRow,
		total_records: batch.count,
		status,
		checksum: payoutChecksum(batch.requestId, fields.callbackUrl, fields.remark),
		...fields.said,
	};
}

export const describeAll = (violations: RowViolation[]) =>
	violations.map((v) => ({ ...v, message: describeRowViolation(v, NOUN) }));

/** "Batch 3" or "Batches 1–2" (places in this run, the first at `from`), with their sheet rows. */
function span(batches: Batch[], from: number): string {
	const first = batches[0];
	const last = batches[batches.length - 1];
	const to = from + batches.length - 1;
	const which = batches.length === 1 ? `Batch ${from}` : `Batches ${from}–${to}`;
	return `${which} (sheet rows ${first.firstSheetRow}–${last.lastSheetRow})`;
}

/** E0021 on a first attempt: this request_id was queued by an earlier run. */
export const alreadySubmitted = (error: unknown) =>
	error instanceof NodeApiError && error.context.serviceCode === 'E0021';

/** An answer from the service refused the batch; a lost answer or a 5xx may hide a queued one. */
export function mayHaveQueued(error: NodeError): boolean {
	if (error instanceof NodeOperationError) return false;
	const status = error.context.httpStatus;
	return typeof status !== 'number' || status >= 500;
}

/** Version 3: the node knows its rows by Reference No. */
const REMEMBERED_RERUN = [
	'Run it again as it is: the node skips every row it knows as queued, sends a batch that got no clear answer again only with the same rows under the same request_id (which the service queues at most once), and sends the rest. Rows may change or be added meanwhile; a row of the unanswered batch that changed is held back and reported until you say whether it was paid.',
];

/** Versions 1–2: a batch is known by its request_id only. */
const rerunWithout = (fields: BatchFields, same: string) => [
	`Re-run with the same rows, batch fields and ${same}: every batch keeps its request_id, the service refuses the queued ones as already submitted (E0021), the node reports them as already queued and sends only the rest.`,
	fields.givenRequestId
		? 'Change no row before the re-run: with a given Request ID a batch is known by its number only.'
		: 'Change no row before the re-run: a changed batch gets a new request_id and would be sent as new.',
];

/** Where the run stands after batch `index` failed, and what a re-run does. */
function describeStop(fields: BatchFields, batches: Batch[], index: number, maybe: boolean) {
	const queued = batches.slice(0, index);
	const notSent = batches.slice(index + 1);
	const same = fields.givenRequestId ? 'the same Request ID' : 'Request ID left empty';
	return [
		queued.length
			? `${span(queued, 1)} ${queued.length > 1 ? 'are' : 'is'} queued.`
			: 'No batch before it was queued.',
		maybe
			? `Batch ${index + 1} may have been queued: no clear answer came back.`
			: `Batch ${index + 1} was not queued.`,
		notSent.length
			? `${span(notSent, index + 2)} ${notSent.length > 1 ? 'were' : 'was'} not sent.`
			: '',
		...(fields.remember ? REMEMBERED_RERUN : rerunWithout(fields, same)),
	]
		.filter(Boolean)
		.join(' ');
}

/** Version 3: a first payment (attempt 1) or a re-payment, never looking alike. */
export function attemptJson(batch: Batch): IDataObject {
	return { paidAgain: batch.attempt > 1, attempt: batch.attempt };
}

export function queuedJson(base: IDataObject, response: IDataObject): IDataObject {
	const data = (response.data ?? {}) as IDataObject;
	const json: IDataObject = {
		...base,
		payouts_queued: data.payouts_queued,
		message: response.message,
		response,
	};
	if (response.confirmedByDuplicate) {
		json.confirmedByDuplicate = true;
		json.lostAnswer = { outcome: 'done', how: String(response.message ?? '') };
	}
	return json;
}

export function alreadyQueuedJson(base: IDataObject, error: NodeApiError): IDataObject {
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
export function stopAt(
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
	// Numbered among the batches of this run: those left out as already queued are not counted.
	const total = batches.length;
	const place = (i: number) => ({ position: i + 1, of: total });
	error.message = `Batch ${index + 1} of ${total} (sheet rows ${failed.firstSheetRow}–${failed.lastSheetRow}, request ID ${failed.requestId}) ${maybe ? 'got no clear answer' : 'was refused'}: ${error.message}`;
	error.description = [summary, error.description].filter(Boolean).join(' ');
	const failedJson = {
		...batchJson(failed, place(index), fields, maybe ? 'mayBeQueued' : 'failed'),
		...(fields.remember ? attemptJson(failed) : {}),
	};
	const rest = batches.slice(index + 1).map((b, i) => ({
		...batchJson(b, place(index + 1 + i), fields, 'notSent'),
		...(fields.remember ? attemptJson(b) : {}),
	}));
	error.context.batches = [...done.map((item) => item.json), failedJson, ...rest];
	if (!ctx.continueOnFail()) throw error;
	const notSent = new NodeOperationError(
		ctx.getNode(),
		`Not sent: batch ${index + 1} of ${total} failed before it`,
		{ itemIndex, description: summary },
	);
	return [
		...done,
		errorItem(ctx, error, paired(failed), failedJson),
		...rest.map((json, i) => errorItem(ctx, notSent, paired(batches[index + 1 + i]), json)),
	];
}

/** A file built ahead: its failure is handled where it is awaited, never left unhandled meanwhile. */
export function build(batch: Batch): Promise<Buffer> {
	const file = buildFile(payoutSchema, 'Payouts', batch.rows);
	file.catch(() => undefined);
	return file;
}

export async function output(
	ctx: IExecuteFunctions,
	fields: BatchFields,
	item: INodeExecutionData,
	file: Buffer,
	batch: Batch,
) {
	if (!fields.attachFiles) return item;
	return await withFile(ctx, item, fields.outputField, file, batch.fileName);
}
