/**
 * The payout ledger's states and its one transition rule. Every change of a record's state goes
 * through `transition`; "already paid" is decided by `paidAs` and `standingOf` only.
 *
 * - claimed: a run holds the reference and is about to send it (or was, and stopped: a claimed
 *   record a later run finds is treated as unknown, since the batch may have gone out);
 * - queued: the service accepted its batch (answer, or E0021 refusing the node's own repeat);
 * - unknown: sent without a clear answer (5xx, lost answer); only the same batch under the same
 *   request_id may go out again (the service queues a request_id once);
 * - processed: paid (UTR known); final, except processed → reversed;
 * - failed / rejected: the bank or the service did not pay it; final for this attempt;
 * - reversed: paid, then the money came back; final.
 *
 * A re-payment is a new attempt of the same reference: from failed, rejected or reversed by Pay
 * Failed Again, or by Pay Again + Attempt (each attempt made once, whatever the state).
 */
export const STATES = [
	'claimed',
	'queued',
	'unknown',
	'processed',
	'failed',
	'rejected',
	'reversed',
] as const;
export type PayoutState = (typeof STATES)[number];

/** States a payout result (from the service) may bring. */
export type ResultState = 'processed' | 'failed' | 'rejected' | 'reversed';

const FINAL: ReadonlySet<PayoutState> = new Set(['processed', 'failed', 'rejected', 'reversed']);
/** Not paid in the end: a re-payment (new attempt) may be made on purpose. */
const NOT_PAID: ReadonlySet<PayoutState> = new Set(['failed', 'rejected', 'reversed']);

export const isState = (value: unknown): value is PayoutState =>
	STATES.includes(value as PayoutState);
export const isFinal = (state: PayoutState) => FINAL.has(state);
export const mayPayAgain = (state: PayoutState) => NOT_PAID.has(state);

/**
 * Moves allowed, by the state a record is in (`none`: no record, or a claim let go). A claim let
 * go (`released`) returns the record to what it was before the claim; it is not a state of its own.
 */
const ALLOWED: Record<PayoutState | 'none', readonly PayoutState[]> = {
	none: ['claimed'],
	claimed: ['queued', 'unknown', 'processed', 'failed', 'rejected'],
	// A result may arrive for a batch whose answer was lost: it settles the record.
	unknown: ['claimed', 'queued', 'processed', 'failed', 'rejected'],
	queued: ['processed', 'failed', 'rejected'],
	processed: ['reversed'],
	failed: [],
	rejected: [],
	reversed: [],
};

export type Transition =
	| { ok: true; to: PayoutState }
	/** `ignored`: the move changes nothing (a repeated or late result): not an error. */
	| { ok: false; ignored: boolean; reason: string };

/**
 * The one rule: may a record in `from` (undefined: none) move to `to`? A final state never moves
 * back (a late `queued` or `failed` after `processed` is ignored), except processed → reversed.
 */
export function transition(from: PayoutState | undefined, to: PayoutState): Transition {
	const at = from ?? 'none';
	if (ALLOWED[at].includes(to)) return { ok: true, to };
	if (from === to) return { ok: false, ignored: true, reason: `already ${to}` };
	if (from && isFinal(from))
		return { ok: false, ignored: true, reason: `${from} is final; ${to} comes too late` };
	return { ok: false, ignored: false, reason: `a payout cannot move from ${at} to ${to}` };
}

/** What a run learns of a reference from its record, for the attempt it means to make. */
export type Standing = 'new' | 'paid' | 'unknown';

/**
 * "Already paid": whether a run making `attempt` of a reference may send it. `record` is the
 * ledger's record (state and the attempt it holds), undefined when the reference is new.
 * - no record, or an older attempt than this one: new (Pay Again's attempt 2+ after any state);
 * - a later attempt: paid (a re-payment starts only from a payment made);
 * - this attempt, claimed or unknown: unknown (sent, answer not known);
 * - this attempt in any other state: paid: never sent again as this attempt.
 */
export function paidAs(
	record: { state: PayoutState; attempt: number } | undefined,
	attempt: number,
): Standing {
	if (!record || record.attempt < attempt) return 'new';
	if (record.attempt > attempt) return 'paid';
	if (record.state === 'claimed' || record.state === 'unknown') return 'unknown';
	return 'paid';
}

/** The attempt a run means to make: the same for every reference, or Pay Failed Again's. */
export const FAILED_AGAIN = 'failedAgain';
export type WantedAttempt = number | typeof FAILED_AGAIN;

/**
 * The attempt a run makes of a reference and whether it may send it. A given attempt: `paidAs`.
 * Pay Failed Again: a payment that failed, was rejected or reversed is paid as the next attempt;
 * any other record is judged as the attempt it holds (queued, processed: paid; claimed, unknown:
 * unknown, never a new attempt); no record: a first payment.
 */
export function standingOf(
	record: { state: PayoutState; attempt: number } | undefined,
	wanted: WantedAttempt,
): { attempt: number; standing: Standing } {
	if (wanted !== FAILED_AGAIN) return { attempt: wanted, standing: paidAs(record, wanted) };
	if (!record) return { attempt: 1, standing: 'new' };
	const attempt = mayPayAgain(record.state) ? record.attempt + 1 : record.attempt;
	return { attempt, standing: paidAs(record, attempt) };
}
