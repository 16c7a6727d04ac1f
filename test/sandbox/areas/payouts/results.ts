// Each row's fate, decided from the row alone (docs/sandbox.md: Payout results), and the body of
// a results post (docs/assumptions.md: Bulk payout results posted to callback_url).
import { createHash } from 'node:crypto';

import type { PayoutRow } from './model';
import { PAYOUT_OUTCOMES, type PayoutOutcome, type PayoutSettings } from './settings';

export type PayoutStatus = 'queued' | 'processed' | 'failed' | 'rejected' | 'reversed';

/** One row's result as the service knows it (batch.results, in row order). */
export interface PayoutRowResult {
	reference_no: string;
	/** Text, 2 decimals. */
	amount: string;
	outcome: PayoutOutcome;
	/** Where the outcome came from. */
	decidedBy: 'remark' | 'reference' | 'default';
	/** The states this row is posted in, in the order they happen. */
	posted: PayoutStatus[];
	/** Current state. */
	status: PayoutStatus;
	/** Set for processed and reversed outcomes (a reversed payout was processed first). */
	utr?: string;
	/** Set for failed, rejected and reversed outcomes. */
	reason?: string;
	/** Every state reached, with its time (epoch ms); starts queued at acceptance. */
	history: { status: PayoutStatus; at: number }[];
}

/** `sbx:<outcome>` with an optional `=<value>` (a UTR for processed, else a reason). */
const MARKER = new RegExp(`(?:^|\\s)sbx:(${PAYOUT_OUTCOMES.join('|')})(?:=(\\S+))?`, 'i');

export const DEFAULT_REASONS: Record<'failed' | 'rejected' | 'reversed', string> = {
	failed: 'Beneficiary account is closed',
	rejected: 'Beneficiary details are invalid',
	reversed: 'Credit returned by the beneficiary bank',
};

/** The bank reference a processed row gets: stable for a request_id and Reference No. */
export function payoutUtr(requestId: string, referenceNo: string, mode: string): string {
	const hash = createHash('sha256').update(`${requestId}|${referenceNo}`).digest();
	const digits = (count: number) =>
		Array.from({ length: count }, (_, i) => String(hash[i] % 10)).join('');
	if (mode === 'IMPSP2A' || mode === 'IMPSP2P') return digits(12);
	if (mode === 'RTGS') return `SBXR${digits(18)}`;
	return `${mode === 'IFT' ? 'SBXI' : 'SBXN'}${digits(12)}`;
}

/** The row's outcome and marker value: Remark first, then Reference No, then the default. */
function decide(row: PayoutRow, fallback: PayoutOutcome) {
	for (const [column, by] of [
		['Remark', 'remark'],
		['Reference No', 'reference'],
	] as const) {
		const found = MARKER.exec(row[column]);
		if (found) {
			const value = found[2]?.replace(/_/g, ' ');
			return { outcome: found[1].toLowerCase() as PayoutOutcome, value, decidedBy: by };
		}
	}
	return { outcome: fallback, value: undefined, decidedBy: 'default' as const };
}

const FINAL_STATES: Record<PayoutOutcome, PayoutStatus[]> = {
	processed: ['processed'],
	failed: ['failed'],
	rejected: ['rejected'],
	reversed: ['processed', 'reversed'],
	queued: [],
};

/** Every row queued at `queuedAt`, with the states it will be posted in. */
export function planResults(
	requestId: string,
	rows: PayoutRow[],
	queuedAt: number,
	settings: PayoutSettings,
): PayoutRowResult[] {
	return rows.map((row) => {
		const { outcome, value, decidedBy } = decide(row, settings.payoutDefaultOutcome);
		const queuedPosted = settings.payoutResultsQueuedFirst || outcome === 'queued';
		const reference = row['Reference No'];
		return {
			reference_no: reference,
			amount: Number(row.Amount).toFixed(2),
			outcome,
			decidedBy,
			posted: [...(queuedPosted ? ['queued' as const] : []), ...FINAL_STATES[outcome]],
			status: 'queued',
			...((outcome === 'processed' || outcome === 'reversed') && {
				utr:
					outcome === 'processed' && value
						? value
						: payoutUtr(requestId, reference, row['Payment Mode']),
			}),
			...(outcome !== 'processed' &&
				outcome !== 'queued' && { reason: value || DEFAULT_REASONS[outcome] }),
			history: [{ status: 'queued', at: queuedAt }],
		};
	});
}

/** Makes the row reach its `step`-th posted state (queued is reached at acceptance). */
export function reachStep(result: PayoutRowResult, step: number, now: number): void {
	const status = result.posted[step];
	if (status === undefined || result.history.some((h) => h.status === status)) return;
	result.status = status;
	result.history.push({ status, at: now });
}

/** The wire entry of the row in its `step`-th posted state. */
export function resultEntry(result: PayoutRowResult, step: number, currency: string) {
	const status = result.posted[step];
	const reached = result.history.find((h) => h.status === status);
	const hasUtr = status === 'processed' || status === 'reversed';
	const hasReason = status === 'failed' || status === 'rejected' || status === 'reversed';
	return {
		reference_no: result.reference_no,
		status,
		amount: result.amount,
		currency,
		...(hasUtr && result.utr !== undefined && { utr: result.utr }),
		...(hasReason && result.reason !== undefined && { reason: result.reason }),
		updated_at: new Date(reached?.at ?? Date.now()).toISOString(),
	};
}

export type PayoutResultEntry = ReturnType<typeof resultEntry>;

/** A results post (docs/assumptions.md). */
export const resultsBody = (requestId: string, sentAt: number, results: PayoutResultEntry[]) => ({
	event: 'payout.results' as const,
	request_id: requestId,
	sent_at: new Date(sentAt).toISOString(),
	results,
});
