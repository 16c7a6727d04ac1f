import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { SourcedRow } from '../../spreadsheet/schema';
import { errorItem } from '../errorItem';
import { attemptJson, mayHaveQueued } from './bulkCreate.items';
import type { LedgerSteps } from './bulkCreate.loop';
import { sendBatches } from './bulkCreate.loop';
import type { QueuedDetail } from './bulkCreate.memory';
import type { Batch, BatchFields, PairedOf } from './bulkCreate.plan';
import type { RememberedPlan } from './bulkCreate.rememberedPlan';
import { planWithMemory, referencesOf } from './bulkCreate.rememberedPlan';
import { earlierPayments, failedAgainJson } from './bulkCreate.earlier';
import type { PayoutLedger, Settlement } from './ledger';
import { markerOf, openLedger } from './ledger';
import type { FailedAgain, Skipped } from './bulkCreate.skipped';
import { nothingPaidError, skippedJson } from './bulkCreate.skipped';

/** How Pay Failed Again judged the rows: by the ledger's results, or not at all (node memory). */
const failedAgainOf = (ledger: PayoutLedger): FailedAgain =>
	ledger.knowsResults ? 'byResults' : 'needsDataTables';

/** What a batch item of version 3 adds: which attempt, and for a re-payment what it repeats. */
function paymentJson(
	fields: BatchFields,
	batch: Batch,
	details: Map<string, QueuedDetail[]>,
): IDataObject {
	if (batch.attempt === 1) return attemptJson(batch);
	return {
		...attemptJson(batch),
		...earlierPayments(batch, details),
		...(fields.payFailedAgain ? { paidFailedAgain: failedAgainJson(batch, details) } : {}),
	};
}

const release = (settle: Settlement, batches: Batch[]) => {
	for (const batch of batches) {
		settle.released.push({ refs: referencesOf(batch), attempt: batch.attempt });
		settle.markers.push(markerOf(batch));
	}
};

/**
 * The ledger's steps around each batch: a queued batch's references confirmed, a refused or
 * unsent one's let go, a batch without a clear answer left claimed (the next run settles it by
 * sending it again), all settled once at the end; a run that queued nothing is an error.
 */
function ledgerSteps(
	ctx: IExecuteFunctions,
	fields: BatchFields,
	run: { ledger: PayoutLedger; plan: RememberedPlan; rows: SourcedRow[] },
	runPaired: INodeExecutionData['pairedItem'],
): LedgerSteps {
	const { ledger, plan } = run;
	const settle: Settlement = { confirmed: [], released: [], markers: [...plan.dropped] };
	// Read before this run keeps its own: the earlier payments a re-payment repeats.
	const details = ledger.details();
	return {
		describe: (batch) => ({ ...paymentJson(fields, batch, details), ...ledger.info }),
		// E0021 proves these rows queued only where the request_id stands for them: derived from
		// the rows, or an unanswered batch of these very rows. A given Request ID reused is a refusal.
		refusalProvesQueued: (batch) => plan.resent.has(batch) || !fields.givenRequestId,
		queued: (batch) => {
			const refs = referencesOf(batch);
			settle.confirmed.push({ refs, attempt: batch.attempt, requestId: batch.requestId });
			settle.markers.push(markerOf(batch));
		},
		stopped: async (batches, index, error) => {
			// No clear answer: claimed and marked, so the next run settles it by sending it again.
			if (!mayHaveQueued(error)) release(settle, [batches[index]]);
			release(settle, batches.slice(index + 1));
			await ledger.settle(settle);
		},
		finished: async (out) => {
			await ledger.settle(settle);
			const failedAgain = fields.payFailedAgain ? failedAgainOf(ledger) : undefined;
			const ended = { ...run, skipped: plan.skipped, out, failedAgain };
			return finish(ctx, ledger.itemIndex, ended, runPaired);
		},
	};
}

/**
 * Version 3's path: rows known by Reference No. Queued rows are left out (and listed), the batches
 * go out in order through the one send loop with the ledger's steps, and a run that queued nothing
 * is an error: nothing was paid now.
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
	const plan = await planWithMemory(ctx, ledger, fields, run);
	// Marked before the first is sent: after a crash, the next run sends them again as they were.
	await ledger.markBatches(plan.batches.filter((b) => !plan.resent.has(b)));
	const steps = ledgerSteps(ctx, fields, { ledger, plan, rows }, runPaired);
	return await sendBatches(ctx, itemIndex, fields, plan.batches, paired, steps);
}

/** The batch items and the rows left out; a run that queued nothing is an error. */
function finish(
	ctx: IExecuteFunctions,
	itemIndex: number,
	run: {
		ledger: PayoutLedger;
		skipped: Skipped[];
		rows: SourcedRow[];
		out: INodeExecutionData[];
		failedAgain?: FailedAgain;
	},
	runPaired: INodeExecutionData['pairedItem'],
): INodeExecutionData[] {
	const { ledger, skipped, rows, out, failedAgain } = run;
	const skippedItems = skipped.length
		? [
				{
					json: { ...skippedJson(skipped, failedAgain), ...ledger.info },
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
		failedAgain,
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
