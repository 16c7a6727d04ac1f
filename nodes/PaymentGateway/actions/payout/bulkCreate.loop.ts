import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	NodeApiError,
} from 'n8n-workflow';

import type { NodeError } from '../errorItem';
import { asNodeError } from '../errorItem';
import {
	alreadyQueuedJson,
	alreadySubmitted,
	batchJson,
	build,
	output,
	queuedJson,
	stopAt,
} from './bulkCreate.items';
import type { Batch, BatchFields, PairedOf } from './bulkCreate.plan';
import { uploadBatch } from './bulkCreate.upload';

/**
 * What the payout ledger adds to the send loop (node version 3, bulkCreate.remembered.ts);
 * versions 1–2 know a batch by its request_id only and have none of these steps.
 */
export interface LedgerSteps {
	/** What each batch item says beside the batch: its attempt, what it repeats, the ledger. */
	describe(batch: Batch): IDataObject;
	/** Whether the service's refusal of this batch as already submitted (E0021) proves it queued. */
	refusalProvesQueued(batch: Batch): boolean;
	/** The service queued the batch (its answer, or E0021 refusing it again). */
	queued(batch: Batch): void;
	/** Batch `index` failed: the run stops there; the batches after it are not sent. */
	stopped(batches: Batch[], index: number, error: NodeError): Promise<void>;
	/** Every batch was answered: the items the run ends with. */
	finished(items: INodeExecutionData[]): Promise<INodeExecutionData[]>;
}

/** Versions 1–2: a batch refused as already submitted was queued by an earlier run of its rows. */
const WITHOUT_LEDGER: LedgerSteps = {
	describe: () => ({}),
	refusalProvesQueued: () => true,
	queued: () => undefined,
	stopped: async () => undefined,
	finished: async (items) => items,
};

/**
 * The one send loop of Bulk Create, every node version: the batches one after the other, one item
 * each. The next batch's file is built while the service reads the current one, so at most two
 * files are held; each is dropped once its batch is answered. A failure stops the run there, the
 * rest reported (stopAt). Versions 1–2 without batches keep their one upload's failures as they
 * were: thrown unchanged, a repeated Request ID (E0021) included.
 */
export async function sendBatches(
	ctx: IExecuteFunctions,
	itemIndex: number,
	fields: BatchFields,
	batches: Batch[],
	paired: PairedOf,
	steps: LedgerSteps = WITHOUT_LEDGER,
): Promise<INodeExecutionData[]> {
	const out: INodeExecutionData[] = [];
	let next: Promise<Buffer> | undefined = batches.length ? build(batches[0]) : undefined;
	for (const [index, batch] of batches.entries()) {
		const file: Buffer = await (next as Promise<Buffer>);
		next = index + 1 < batches.length ? build(batches[index + 1]) : undefined;
		const place = { position: index + 1, of: batches.length };
		const base = { ...batchJson(batch, place, fields, 'queued'), ...steps.describe(batch) };
		let json: IDataObject;
		try {
			const { requestId, fileName } = batch;
			json = queuedJson(base, await uploadBatch(ctx, itemIndex, fields, requestId, fileName, file));
			steps.queued(batch);
		} catch (thrown) {
			const error = asNodeError(ctx, thrown, itemIndex);
			if (!fields.split) throw error;
			if (!alreadySubmitted(error) || !steps.refusalProvesQueued(batch)) {
				await steps.stopped(batches, index, error);
				return stopAt(ctx, itemIndex, fields, batches, index, out, error, paired);
			}
			steps.queued(batch);
			json = alreadyQueuedJson(base, error as NodeApiError);
		}
		out.push(await output(ctx, fields, { json, pairedItem: paired(batch) }, file, batch));
	}
	return await steps.finished(out);
}
