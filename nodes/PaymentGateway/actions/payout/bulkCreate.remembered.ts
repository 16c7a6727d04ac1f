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
import type { Payments, QueuedDetail } from './bulkCreate.memory';
import { ReferenceMemory } from './bulkCreate.memory';
import type { Batch, BatchFields, PairedOf } from './bulkCreate.plan';
import {
	earlierPayments,
	markerOf,
	planWithMemory,
	referencesOf,
} from './bulkCreate.rememberedPlan';
import { nothingPaidError, skippedJson } from './bulkCreate.skipped';
import { uploadBatch } from './bulkCreate.upload';

/** What the run did to the memory, settled in two calls at its end. */
interface Settlement {
	confirmed: Payments[];
	released: Payments[];
	markers: string[];
}

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
		memory: ReferenceMemory;
		place: { position: number; of: number };
		resent: Set<Batch>;
		settle: Settlement;
		details: Map<string, QueuedDetail[]>;
	},
): Promise<IDataObject> {
	const { memory, settle } = run;
	const refs = referencesOf(batch);
	const base = {
		...batchJson(batch, run.place, fields, 'queued'),
		...paymentJson(batch, run.details),
	};
	const confirm = () => {
		settle.confirmed.push({ refs, attempt: batch.attempt });
		settle.markers.push(markerOf(batch));
		memory.keepDetails(refs, batch.requestId, batch.attempt);
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
	const memory = new ReferenceMemory(ctx, itemIndex);
	const { batches, resent, skipped, dropped } = await planWithMemory(ctx, memory, fields, run);
	// Marked before the first is sent: after a crash, the next run sends them again as they were.
	await memory.markBatches(batches.filter((b) => !resent.has(b)).map(markerOf));
	const settle: Settlement = { confirmed: [], released: [], markers: [...dropped] };
	// Read before this run keeps its own: the earlier payments a re-payment repeats.
	const details = memory.details();
	const out: INodeExecutionData[] = [];
	let next: Promise<Buffer> | undefined = batches.length ? build(batches[0]) : undefined;
	for (const [index, batch] of batches.entries()) {
		const file: Buffer = await (next as Promise<Buffer>);
		next = index + 1 < batches.length ? build(batches[index + 1]) : undefined;
		let json: IDataObject;
		try {
			const place = { position: index + 1, of: batches.length };
			json = await sendOne(ctx, itemIndex, fields, batch, file, {
				memory,
				place,
				resent,
				settle,
				details,
			});
		} catch (error) {
			release(settle, batches.slice(index + 1));
			await memory.settle(settle.confirmed, settle.released, settle.markers);
			const failure = asNodeError(ctx, error, itemIndex);
			return stopAt(ctx, itemIndex, fields, batches, index, out, failure, paired);
		}
		out.push(await output(ctx, fields, { json, pairedItem: paired(batch) }, file, batch));
	}
	await memory.settle(settle.confirmed, settle.released, settle.markers);
	const skippedItems = skipped.length
		? [{ json: skippedJson(skipped), pairedItem: pairedOfSkipped(skipped, rows) }]
		: [];
	if (out.some((item) => item.json.status === 'queued')) return [...out, ...skippedItems];
	const error = nothingPaidError(
		ctx,
		itemIndex,
		skipped,
		out.map((item) => item.json),
	);
	if (!ctx.continueOnFail()) throw error;
	return [errorItem(ctx, error, runPaired, { status: 'nothingQueued' })];
}

/** The input items of the rows left out. */
function pairedOfSkipped(skipped: { row: number }[], rows: SourcedRow[]) {
	const byRow = new Map(rows.map((row) => [row.row, row.item ?? 0]));
	return skipped.map(({ row }) => ({ item: byRow.get(row) ?? 0 }));
}
