import type { IExecuteFunctions } from 'n8n-workflow';

import type { SourcedRow } from '../../spreadsheet/schema';
import { assertRows } from '../bulk';
import type { Claimed, Payments, QueuedDetail } from './bulkCreate.memory';
import type { Batch, BatchFields } from './bulkCreate.plan';
import { NOUN, planBatches, planViolations } from './bulkCreate.plan';
import { memoryFullError, unconfirmedError, type Skipped } from './bulkCreate.skipped';
import type { PayoutLedger } from './ledger';
import { FAILED_AGAIN, markerOf } from './ledger';

export const referenceOf = (row: SourcedRow) => String(row.values['Reference No'] ?? '');
export const referencesOf = (batch: Batch) => batch.rows.map(referenceOf);

/** A run's plan once the memory has been read: what goes out, in order, and what is left out. */
export interface RememberedPlan {
	batches: Batch[];
	/** Batches an earlier run may have sent: only a refusal as already queued settles them. */
	resent: Set<Batch>;
	skipped: Skipped[];
	/** Markers recorded by the check that no batch of this run stands for: let go at the end. */
	dropped: string[];
}

/** `other`: the row makes another attempt in this run (Pay Failed Again), planned with that one. */
type RowState = 'queued' | 'unknown' | 'new' | 'other';

/** The rows of one attempt (1: first payments; 2 and more: re-payments) and their claim. */
interface Attempt {
	attempt: number;
	rows: SourcedRow[];
	/** The run's plan of these rows as if nothing had been sent (the IDs a copy would use). */
	full: Batch[];
	claim: Claimed;
}

/** One attempt's rows once the memory has been read. */
interface AttemptPlan {
	batches: Batch[];
	resent: Batch[];
	dropped: string[];
	/** Sent by an earlier run without an answer and not sendable as that batch again. */
	unresolved: SourcedRow[];
	/** Already made this attempt. */
	queued: SourcedRow[];
}

/**
 * Each batch of the plan by its rows' state: all new → sent as planned; queued rows → left out;
 * unknown rows → sent again as the batch an earlier run may have sent (same rows, same request
 * ID), else unresolved (sent only when the user said Send Again). The new rows of mixed batches go
 * out in batches of their own after them.
 */
async function planAttempt(
	ledger: PayoutLedger,
	fields: BatchFields,
	{ attempt, rows, full, claim }: Attempt,
): Promise<AttemptPlan> {
	const stateOf = (row: SourcedRow): RowState => {
		const ref = referenceOf(row);
		if (claim.attempts.get(ref) !== attempt) return 'other';
		return claim.unknown.has(ref) ? 'unknown' : claim.queued.has(ref) ? 'queued' : 'new';
	};
	const allNew = (batch: Batch) => batch.rows.every((r) => stateOf(r) === 'new');
	// The unknown rows of each planned batch, as the batch an earlier run would have sent them in.
	const retry = full.flatMap((batch) =>
		planBatches(
			fields,
			batch.rows.filter((r) => stateOf(r) === 'unknown'),
			batch.number,
			attempt,
		),
	);
	const known = await ledger.markBatches(retry);
	const resent = retry.filter((batch) => known.has(batch));
	const dropped = retry.filter((batch) => !known.has(batch)).map(markerOf);
	const asPlanned = full
		.flatMap((batch) => (allNew(batch) ? [batch] : retry.filter((r) => r.number === batch.number)))
		.filter((batch) => resent.includes(batch) || allNew(batch));
	const leftIn = new Set(asPlanned.flatMap((batch) => batch.rows));
	const unresolved = rows.filter((row) => stateOf(row) === 'unknown' && !leftIn.has(row));
	const sendAgain = new Set(fields.unconfirmed === 'sendAgain' ? unresolved : []);
	const leftovers = rows.filter(
		(row) => !leftIn.has(row) && (stateOf(row) === 'new' || sendAgain.has(row)),
	);
	return {
		batches: [...asPlanned, ...planBatches(fields, leftovers, full.length + 1, attempt)],
		resent,
		dropped,
		unresolved,
		queued: rows.filter((row) => stateOf(row) === 'queued'),
	};
}

/**
 * The run's rows by the attempt each makes, each set with its claim. With Pay Again, the rows
 * whose reference was queued are a second set: their payment as attempt `fields.attempt`, known
 * by Reference No + attempt, made once (a switch left on pays nobody a third time). With Pay
 * Failed Again, the ledger gives each reference its attempt in one claim: a failed, rejected or
 * reversed one its next, every other the one it holds; a set per attempt.
 */
async function claimAttempts(
	ledger: PayoutLedger,
	fields: BatchFields,
	run: { rows: SourcedRow[]; batches: Batch[] },
): Promise<Attempt[]> {
	const { rows } = run;
	const claim = await ledger.claim(rows.map(referenceOf), fields.payFailedAgain ? FAILED_AGAIN : 1);
	const attemptOf = (row: SourcedRow) => claim.attempts.get(referenceOf(row)) ?? 1;
	const rowsOf = (attempt: number) => rows.filter((row) => attemptOf(row) === attempt);
	const attempts: Attempt[] = [{ attempt: 1, rows: rowsOf(1), full: run.batches, claim }];
	const later = [...new Set(rows.map(attemptOf))].filter((a) => a > 1).sort((a, b) => a - b);
	for (const attempt of later) {
		const own = rowsOf(attempt);
		attempts.push({ attempt, rows: own, full: planBatches(fields, own, 1, attempt), claim });
	}
	if (fields.payAgain) {
		const again = rows.filter((row) => claim.queued.has(referenceOf(row)));
		const attempt = fields.attempt;
		const repaid = await ledger.claim(again.map(referenceOf), attempt);
		const full = planBatches(fields, again, 1, attempt);
		attempts.push({ attempt, rows: again, full, claim: repaid });
	}
	return attempts;
}

/** The run as planned before (`run.batches`), then by what the ledger knows (claimAttempts). */
export async function planWithMemory(
	ctx: IExecuteFunctions,
	ledger: PayoutLedger,
	fields: BatchFields,
	run: { rows: SourcedRow[]; batches: Batch[] },
): Promise<RememberedPlan> {
	const attempts = await claimAttempts(ledger, fields, run);
	const fresh = attempts.map(
		({ claim, attempt }): Payments => ({
			refs: claim.fresh.filter((ref) => claim.attempts.get(ref) === attempt),
			attempt,
		}),
	);
	await assertRoom(ctx, ledger, fields, fresh);
	const plans: AttemptPlan[] = [];
	for (const attempt of attempts) plans.push(await planAttempt(ledger, fields, attempt));
	const dropped = plans.flatMap((plan) => plan.dropped);
	const unresolved = plans.flatMap((plan) => plan.unresolved);
	if (unresolved.length > 0 && fields.unconfirmed === 'stop') {
		await ledger.settle({ confirmed: [], released: fresh, markers: dropped });
		const refs = unresolved.map(referenceOf);
		throw unconfirmedError(ctx, ledger.itemIndex, unresolved, ledger.claimedElsewhere?.(refs));
	}
	const skipped: Array<{ row: SourcedRow; source: Skipped['source']; attempt: number }> = [];
	for (const [i, plan] of plans.entries()) {
		const { attempt } = attempts[i];
		const userSaidQueued = fields.unconfirmed === 'countAsQueued' ? plan.unresolved : [];
		await ledger.markQueued(userSaidQueued.map(referenceOf), attempt);
		// With Pay Again, the rows queued as first payments are the re-payment's rows.
		const queued = fields.payAgain && attempt === 1 ? [] : plan.queued;
		skipped.push(...queued.map((row) => ({ row, source: 'memory' as const, attempt })));
		skipped.push(...userSaidQueued.map((row) => ({ row, source: 'you' as const, attempt })));
	}
	const batches = plans.flatMap((plan) => plan.batches);
	// A re-payment's request IDs are longer (-a<attempt>); Pay Failed Again's attempts are known now.
	const tooLong = fields.payFailedAgain ? planViolations(fields, batches) : [];
	if (tooLong.length) {
		await ledger.settle({ confirmed: [], released: fresh, markers: dropped });
		assertRows(ctx, tooLong, ledger.itemIndex, NOUN);
	}
	const byRow = fields.payFailedAgain
		? [...skipped].sort((a, b) => a.row.row - b.row.row)
		: skipped;
	return {
		batches,
		resent: new Set(plans.flatMap((plan) => plan.resent)),
		skipped: skippedRows(ledger, byRow),
		dropped,
	};
}

function skippedRows(
	ledger: PayoutLedger,
	rows: Array<{ row: SourcedRow; source: Skipped['source']; attempt: number }>,
): Skipped[] {
	const details = ledger.details();
	return rows.map(({ row, source, attempt }) => {
		const made = details.get(referenceOf(row))?.find((d) => d.attempt === attempt);
		return {
			row: row.row,
			sheet_row: row.row,
			reference_no: referenceOf(row),
			source,
			attempt,
			...(made ? paidBy(made) : {}),
		};
	});
}

/** The payment a skipped row repeats: request_id and time, and where known its state and payer. */
function paidBy(made: QueuedDetail) {
	const { request_id, queued_at, state, workflow_id, execution_id } = made;
	return {
		request_id,
		queued_at,
		...(state ? { state } : {}),
		...(workflow_id ? { workflow_id } : {}),
		...(execution_id ? { execution_id } : {}),
	};
}

/** The node memory never forgets on its own: a run that would pass its size stops before sending. */
async function assertRoom(
	ctx: IExecuteFunctions,
	ledger: PayoutLedger,
	fields: BatchFields,
	fresh: Payments[],
): Promise<void> {
	const adding = fresh.reduce((sum, { refs }) => sum + refs.length, 0);
	const over = await ledger.overLimit(adding, fields.remembered);
	if (!over) return;
	await ledger.settle({ confirmed: [], released: fresh, markers: [] });
	throw memoryFullError(ctx, ledger.itemIndex, over.held, adding, fields.remembered);
}
