import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	NodeApiError,
} from 'n8n-workflow';

import type { SourcedRow } from '../../spreadsheet/schema';
import { asNodeError, errorItem } from '../errorItem';
import {
	alreadyQueuedJson,
	alreadySubmitted,
	attemptJson,
	batchJson,
	build,
	mayHaveQueued,
	output,
	queuedJson,
	stopAt,
} from './bulkCreate.items';
import type { QueuedDetail } from './bulkCreate.memory';
import type { Batch, BatchFields, PairedOf } from './bulkCreate.plan';
import { earlierPayments, planWithMemory, referencesOf } from './bulkCreate.rememberedPlan';
import type { PayoutLedger, Settlement } from './ledger';
import { markerOf, openLedger } from './ledger';
import { nothingPaidError, skippedJson, type Skipped } from './bulkCreate.skipped';
import { uploadBatch } from './bulkCreate.upload';

/** What a batch item of version 3 adds: which attempt, and for a re-payment what it repeats. */
function paymentJson(batch: Batch, details: Map<string, QueuedDetail[]>): IDataObject {
	if (batch.attempt === 1) return attemptJson(batch);
	return { ...attemptJson(batch), ...earlierPayments(batch, details) };
}

/** One batch sent; what its answer means for the memory is noted in `settle`. */
async function sendOne(
	ctx: IExecuteFunctions,
	itemIndex: number,
	fields: BatchFields,
	batch: Batch,
	file: Buffer,
	run: {
		ledger: PayoutLedger;
		place: { position: number; of: number };
		resent: Set<Batch>;
		settle: Settlement;
		details: Map<string, QueuedDetail[]>;
	},
): Promise<IDataObject> {
	const { ledger, settle } = run;
	const refs = referencesOf(batch);
	const base = {
		...batchJson(batch, run.place, fields, 'queued'),
		...paymentJson(batch, run.details),
		...ledger.info,
	};
	const confirm = () => {
		settle.confirmed.push({ refs, attempt: batch.attempt, requestId: batch.requestId });
		settle.markers.push(markerOf(batch));
	};
	try {
		const response = await uploadBatch(
			ctx,
			itemIndex,
			fields,
			batch.requestId,
			batch.fileName,
			file,
		);
		confirm();
		return queuedJson(base, response);
	} catch (thrown) {
		const error = asNodeError(ctx, thrown, itemIndex);
		// E0021 proves these rows queued only where the request_id stands for them: derived from
		// the rows, or an unanswered batch of these very rows. A given Request ID reused is a refusal.
		if (alreadySubmitted(error) && (run.resent.has(batch) || !fields.givenRequestId)) {
			confirm();
			return alreadyQueuedJson(base, error as NodeApiError);
		}
		// No clear answer: claimed and marked, so the next run settles it by sending it again.
		if (!mayHaveQueued(error)) release(settle, [batch]);
		throw error;
	}
}

const release = (settle: Settlement, batches: Batch[]) => {
	for (const batch of batches) {
		settle.released.push({ refs: referencesOf(batch), attempt: batch.attempt });
		settle.markers.push(markerOf(batch));
	}
};

/**
 * Version 3's path: rows known by Reference No. Queued rows are left out (and listed), the batches
 * go out in order, and a run that queued nothing is an error: nothing was paid now.
 */
export async function sendRemembered(
	ctx: IExecuteFunctions,
	itemIndex: number,
	fields: BatchFields,
	run: { rows: SourcedRow[]; batches: Batch[] },
	paired: PairedOf,
	runPaired: INodeExecutionData['pairedItem'],
): Promise<INodeExecutionData[]> {
	const { rows } = run;
	const ledger = await openLedger(ctx, itemIndex, {
		rows,
		currency: fields.currency,
		remark: fields.remark,
	});
	const { batches, resent, skipped, dropped } = await planWithMemory(ctx, ledger, fields, run);
	// Marked before the first is sent: after a crash, the next run sends them again as they were.
	await ledger.markBatches(batches.filter((b) => !resent.has(b)));
	const settle: Settlement = { confirmed: [], released: [], markers: [...dropped] };
	// Read before this run keeps its own: the earlier payments a re-payment repeats.
	const details = ledger.details();
	const out: INodeExecutionData[] = [];
	let next: Promise<Buffer> | undefined = batches.length ? build(batches[0]) : undefined;
	for (const [index, batch] of batches.entries()) {
		const file: Buffer = await (next as Promise<Buffer>);
		next = index + 1 < batches.length ? build(batches[index + 1]) : undefined;
		let json: IDataObject;
		try {
			const place = { position: index + 1, of: batches.length };
			json = await sendOne(ctx, itemIndex, fields, batch, file, {
				ledger,
				place,
				resent,
				settle,
				details,
			});
		} catch (error) {
			release(settle, batches.slice(index + 1));
			await ledger.settle(settle);
			const failure = asNodeError(ctx, error, itemIndex);
			return stopAt(ctx, itemIndex, fields, batches, index, out, failure, paired);
		}
		out.push(await output(ctx, fields, { json, pairedItem: paired(batch) }, file, batch));
	}
	await ledger.settle(settle);
	return finish(ctx, itemIndex, { ledger, skipped, rows, out }, runPaired);
}

/** The batch items and the rows left out; a run that queued nothing is an error. */
function finish(
	ctx: IExecuteFunctions,
	itemIndex: number,
	run: { ledger: PayoutLedger; skipped: Skipped[]; rows: SourcedRow[]; out: INodeExecutionData[] },
	runPaired: INodeExecutionData['pairedItem'],
): INodeExecutionData[] {
	const { ledger, skipped, rows, out } = run;
	const skippedItems = skipped.length
		? [
				{
					json: { ...skippedJson(skipped), ...ledger.info },
					pairedItem: pairedOfSkipped(skipped, rows),
				},
			]
		: [];
	if (out.some((item) => item.json.status === 'queued')) return [...out, ...skippedItems];
	const error = nothingPaidError(
		ctx,
		itemIndex,
		skipped,
		out.map((item) => item.json),
	);
	Object.assign(error.context, ledger.info);
	if (!ctx.continueOnFail()) throw error;
	return [errorItem(ctx, error, runPaired, { status: 'nothingQueued' })];
}

/** The input items of the rows left out. */
function pairedOfSkipped(skipped: { row: number }[], rows: SourcedRow[]) {
	const byRow = new Map(rows.map((row) => [row.row, row.item ?? 0]));
	return skipped.map(({ row }) => ({ item: byRow.get(row) ?? 0 }));
}
