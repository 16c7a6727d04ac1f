import type { IDataObject } from 'n8n-workflow';

import type { QueuedDetail } from './bulkCreate.memory';
import type { Batch } from './bulkCreate.plan';
import { referenceOf } from './bulkCreate.rememberedPlan';

type Details = Map<string, QueuedDetail[]>;

/** Per reference of the batch, its latest payment before the batch's attempt that the node kept. */
function latestBefore(batch: Batch, details: Details): Array<QueuedDetail | undefined> {
	return batch.rows.map((row) => {
		const before = (details.get(referenceOf(row)) ?? []).filter((d) => d.attempt < batch.attempt);
		return before[before.length - 1];
	});
}

/**
 * The earlier payment each re-payment repeats: per reference the latest attempt before this one
 * whose details the node kept (n8n keeps them for production and CLI runs, not manual ones).
 */
export function earlierPayments(
	batch: Batch,
	details: Details,
): { earlierRequestId: string | null; earlierRequestIds: string[] } {
	const ids = latestBefore(batch, details).map((before) => before?.request_id);
	const known = [...new Set(ids.filter((id): id is string => id !== undefined))];
	const one = known.length === 1 && ids.every((id) => id !== undefined);
	return { earlierRequestId: one ? known[0] : null, earlierRequestIds: known };
}

/** Pay Failed Again: each reference the batch pays again, with the attempt it repeats and why. */
export function failedAgainJson(batch: Batch, details: Details): IDataObject[] {
	const earlier = latestBefore(batch, details);
	return batch.rows.map((row, i) => ({
		reference_no: referenceOf(row),
		sheet_row: row.row,
		attempt: batch.attempt,
		earlier_attempt: earlier[i]?.attempt ?? null,
		earlier_state: earlier[i]?.state ?? null,
		earlier_reason: earlier[i]?.reason ?? null,
		earlier_request_id: earlier[i]?.request_id ?? null,
	}));
}
