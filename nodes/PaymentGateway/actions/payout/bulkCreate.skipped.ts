import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { SourcedRow } from '../../spreadsheet/schema';
import { FAILED_AGAIN_NEEDS_TABLES } from './ledger/memoryLedger';
import type { ClaimedElsewhere } from './ledger/port';

/** Pay Failed Again on: rows judged by the ledger's results, or not at all (the node's memory). */
export type FailedAgain = 'byResults' | 'needsDataTables';

/** A row left out because its Reference No was already queued (as this attempt). */
export interface Skipped extends IDataObject {
	/** The sheet row (header = 1); `row` is the same number, kept for saved workflows. */
	row: number;
	sheet_row: number;
	reference_no: string;
	/** `memory`: this node queued it; `you`: Unconfirmed References said it was paid. */
	source: 'memory' | 'you';
	/** 1: its first payment; 2 and more: the re-payment (Pay Again) it already made. */
	attempt: number;
	request_id?: string;
	queued_at?: string;
	/** Where the ledger is a data table: the record's state and the run that paid it. */
	state?: string;
	workflow_id?: string;
	execution_id?: string;
}

/** At most this many references are named in a message; the item lists them all. */
const NAMED = 10;

const PAY_AGAIN =
	'To pay a reference again on purpose, give the row a new Reference No, or turn on Options > Pay Again: each reference queued before is then paid once more, as the attempt set in Options > Attempt (2 unless set), never twice as the same attempt.';

/** Pay Again left on: these references made this attempt already; a further one is a new attempt. */
function stillOn(attempt: number): string {
	return `Pay Again is still on, and each reference is paid once per attempt. To pay them once more on purpose, set Options > Attempt to ${attempt + 1}; otherwise turn Pay Again off.`;
}

const firstPayments = (skipped: Skipped[]) => skipped.filter((s) => s.attempt === 1);
const repayments = (skipped: Skipped[]) => skipped.filter((s) => s.attempt > 1);
const refsOf = (skipped: Skipped[]) => named(skipped.map((s) => s.reference_no));
const rowsWord = (n: number) => `${n} row${n > 1 ? 's' : ''}`;

/** "2 rows already paid again as attempt 2 (Reference No …)." per attempt, or ''. */
function paidAgainPart(skipped: Skipped[]): string {
	const again = repayments(skipped);
	if (again.length === 0) return '';
	const attempt = Math.max(...again.map((s) => s.attempt));
	return `${rowsWord(again.length)} already paid again as attempt ${attempt} by this node (Reference No ${refsOf(again)}). ${whenAndWhere(again)} ${stillOn(attempt)}`;
}

function named(refs: string[]): string {
	const shown = refs.slice(0, NAMED).join(', ');
	return refs.length > NAMED ? `${shown} and ${refs.length - NAMED} more` : shown;
}

function whenAndWhere(skipped: Skipped[]): string {
	const known = skipped.filter((s) => s.request_id);
	const ids = [...new Set(known.map((s) => s.request_id))];
	if (known.length === 0)
		return 'The request IDs and times are not known here (n8n keeps them for production runs; a manual run does not save them).';
	const times = known.map((s) => String(s.queued_at)).sort();
	return `They went under request ID${ids.length > 1 ? 's' : ''} ${named(ids as string[])}, between ${times[0]} and ${times[times.length - 1]}${known.length < skipped.length ? ` (${skipped.length - known.length} without details: queued by a manual run)` : ''}.${paidByPart(known)}`;
}

/** " Paid by workflow W (execution E)." from the ledger's records, or ''. */
function paidByPart(known: Skipped[]): string {
	const runs = [
		...new Set(
			known
				.filter((s) => s.workflow_id || s.execution_id)
				.map((s) => `workflow ${s.workflow_id ?? '?'} (execution ${s.execution_id ?? '?'})`),
		),
	];
	return runs.length ? ` Paid by ${named(runs)}.` : '';
}

/**
 * Pay Failed Again: why these rows were not paid again: their state now, per state (only failed,
 * rejected or reversed ones are); where the ledger is the node's memory, that it cannot tell.
 */
function failedAgainPart(skipped: Skipped[], how: FailedAgain): string {
	if (how === 'needsDataTables')
		return `${FAILED_AGAIN_NEEDS_TABLES}. Already queued by this node: ${rowsWord(skipped.length)} (Reference No ${refsOf(skipped)}). ${whenAndWhere(skipped)}`;
	const byState = new Map<string, Skipped[]>();
	for (const s of skipped)
		byState.set(s.state ?? 'queued', [...(byState.get(s.state ?? 'queued') ?? []), s]);
	const states = [...byState].map(
		([state, rows]) => `${state}: ${rowsWord(rows.length)} (Reference No ${refsOf(rows)})`,
	);
	return `Pay Failed Again pays only references whose payment failed, was rejected or reversed, each as its next attempt; these are not: ${states.join('; ')}. ${whenAndWhere(skipped)}`;
}

/** The item that lists the rows left out, beside the batch items of a run that queued others. */
export function skippedJson(skipped: Skipped[], failedAgain?: FailedAgain): IDataObject {
	const first = firstPayments(skipped);
	const parts = [
		`${skipped.length} row${skipped.length > 1 ? 's were' : ' was'} not sent.`,
		...(failedAgain
			? [failedAgainPart(skipped, failedAgain)]
			: [
					first.length
						? `Already queued by an earlier run: ${rowsWord(first.length)} (Reference No ${refsOf(first)}). ${whenAndWhere(first)} ${PAY_AGAIN}`
						: '',
					paidAgainPart(skipped),
				]),
	];
	return {
		status: 'alreadyQueued',
		skipped_rows: skipped.length,
		message: parts.filter(Boolean).join(' '),
		references: skipped,
	};
}

/** Every row already queued (by the memory, or refused by the service as already submitted). */
export function nothingPaidError(
	ctx: IExecuteFunctions,
	itemIndex: number,
	skipped: Skipped[],
	batches: IDataObject[],
	failedAgain?: FailedAgain,
): NodeOperationError {
	const refused = batches.filter((b) => b.status === 'alreadyQueued');
	const first = firstPayments(skipped);
	const refusedPart = refused.length
		? `The service refused ${refused.length} batch${refused.length > 1 ? 'es' : ''} as already submitted (E0021: request ID ${named(refused.map((b) => String(b.request_id)))}).`
		: '';
	const parts = failedAgain
		? [skipped.length ? failedAgainPart(skipped, failedAgain) : '', refusedPart]
		: [
				first.length
					? `${rowsWord(first.length)} already queued by this node (Reference No ${refsOf(first)}). ${whenAndWhere(first)}`
					: '',
				paidAgainPart(skipped),
				refusedPart,
				repayments(skipped).length ? '' : PAY_AGAIN,
			];
	const error = new NodeOperationError(
		ctx.getNode(),
		failedAgain === 'byResults'
			? 'Nothing was paid: no row of this run failed, was rejected or reversed, and every other was already queued'
			: 'Nothing was paid: every row of this run was already queued',
		{ itemIndex, description: parts.filter(Boolean).join(' ') },
	);
	error.context.references = skipped;
	error.context.batches = batches;
	return error;
}

const UNCONFIRMED_NEXT =
	'Look these references up in the payout dashboard (or the batch callback). Then run once with Options > Unconfirmed References set to "Count as Queued" (they were paid) or "Send Again" (they were not).';

/** "Claimed by workflow W (execution E) at T; …" for the references another run holds. */
const holdersOf = (held: ClaimedElsewhere[]) =>
	[
		...new Set(
			held.map(
				(h) =>
					`workflow ${h.workflow_id ?? '?'} (execution ${h.execution_id ?? '?'})${h.since ? ` at ${h.since}` : ''}`,
			),
		),
	].join('; ');

/**
 * Rows an earlier run sent without learning the answer, whose batch cannot be sent again as it
 * was; or rows another run claimed and has not settled: it may be sending them right now.
 */
export function unconfirmedError(
	ctx: IExecuteFunctions,
	itemIndex: number,
	rows: SourcedRow[],
	elsewhere: ClaimedElsewhere[] = [],
): NodeOperationError {
	const refs = rows.map((row) => String(row.values['Reference No']));
	const they = refs.length > 1 ? 'them' : 'it';
	const rowsWere = `${refs.length} row${refs.length > 1 ? 's were' : ' was'}`;
	const message = elsewhere.length
		? `Nothing was sent: ${rowsWere} claimed by another run that may still be paying ${they} (Reference No ${named(refs)})`
		: `Nothing was sent: ${rowsWere} sent by an earlier run that never learned whether the service queued ${they} (Reference No ${named(refs)})`;
	const description = elsewhere.length
		? `Claimed by ${holdersOf(elsewhere)}, which has not said whether the service queued ${they}. If that execution is still running, wait until it has ended and run again: what it paid is then known and left out. Only if it ended without a clear answer (n8n stopped, no answer came back): ${UNCONFIRMED_NEXT} "Send Again" while it still runs could pay twice.`
		: `n8n stopped, or no clear answer came back, and the rows of that batch changed since, so sending them again could pay twice. ${UNCONFIRMED_NEXT}`;
	const error = new NodeOperationError(ctx.getNode(), message, { itemIndex, description });
	error.context.references = refs;
	return error;
}

export function memoryFullError(
	ctx: IExecuteFunctions,
	itemIndex: number,
	held: number,
	adding: number,
	limit: number,
): NodeOperationError {
	return new NodeOperationError(
		ctx.getNode(),
		`Nothing was sent: the node's memory of queued references would pass its size (${held} held, ${adding} to add, Remembered References ${limit})`,
		{
			itemIndex,
			description:
				"The node never forgets a queued Reference No on its own, since a forgotten one could be paid twice. Raise Options > Remembered References (each takes about 60 bytes in n8n's database) and run again.",
		},
	);
}
