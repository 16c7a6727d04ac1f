/**
 * The checks of Payout > Wait for Results. The execution waits (n8n's putExecutionToWait) until the
 * next check; at the check n8n runs this node again through the door's "time-out look"
 * (../timeOutTurns.ts) with the same input items, and the node reads the ledger once more. Checks
 * come 1, 2, 4 and 8 minutes apart, then every 15 minutes, the last one at the Wait Limit (tests
 * shorten them: ./waitForResults.scale.ts).
 */
import type { IExecuteFunctions } from 'n8n-workflow';

import { armTimeOutLook, registerTimeOutTurn, runIndexOf } from '../timeOutTurns';
import { assertWaitsHere } from '../waitEngine';
import { checkScale, scaledStep } from './waitForResults.scale';

/** Node context key: the wait this node set up, kept with the waiting execution by n8n. */
export const CHECK_NOTE = 'paymentGatewayResultsCheck';

const MINUTE = 60_000;
/** Minutes between checks, the first ones; then every EVERY minutes. */
const FIRST_STEPS = [1, 2, 4, 8];
const EVERY = 15;

export interface CheckNote {
	/** The batches waited for, in input order: a check turn has the same input. */
	requestIds: string[];
	/** The node's run that waits: n8n drops that run at each check, so the check has the same index. */
	runIndex: number;
	startedAt: string;
	/** The Wait Limit's end: the last check. */
	limitAt: string;
	/** Checks made so far. */
	checks: number;
	/** When this wait's check comes. */
	checkAt: string;
}

const isNote = (value: unknown): value is CheckNote =>
	typeof value === 'object' &&
	value !== null &&
	Array.isArray((value as CheckNote).requestIds) &&
	typeof (value as CheckNote).runIndex === 'number' &&
	typeof (value as CheckNote).limitAt === 'string';

// Each check: a waiting Wait for Results node that noted its wait runs again when the wait ends.
registerTimeOutTurn({
	resource: 'payout',
	operation: 'waitForResults',
	noted: (context) => isNote(context?.[CHECK_NOTE]),
});

/** The wait's note when this run is one of its checks (the same run, the same batches). */
export function checkTurn(ctx: IExecuteFunctions, requestIds: string[]): CheckNote | undefined {
	const note = ctx.getContext('node')[CHECK_NOTE] as unknown;
	if (!isNote(note) || note.runIndex !== runIndexOf(ctx)) return undefined;
	return note.requestIds.join(',') === requestIds.join(',') ? note : undefined;
}

/** The check that ends at the Wait Limit routes whatever is still pending. */
export const isLastCheck = (note: CheckNote) =>
	Date.parse(note.checkAt) >= Date.parse(note.limitAt);

/** The wait after `checks` checks, from `now`: the next step, never past the limit. */
function checkAfter(now: Date, checks: number, limitAt: Date, scale = checkScale()): Date {
	const step = scaledStep((FIRST_STEPS[checks] ?? EVERY) * MINUTE, scale);
	return new Date(Math.min(now.getTime() + step, limitAt.getTime()));
}

/** The first wait's note: its limit counted from now. */
export function firstWait(
	ctx: IExecuteFunctions,
	requestIds: string[],
	now: Date,
	waitMs: number,
): CheckNote {
	const limitAt = new Date(now.getTime() + waitMs);
	return {
		requestIds,
		runIndex: runIndexOf(ctx),
		startedAt: now.toISOString(),
		limitAt: limitAt.toISOString(),
		checks: 0,
		checkAt: checkAfter(now, 0, limitAt).toISOString(),
	};
}

/** After a check that found rows pending: the next wait, same limit. */
export function nextWait(note: CheckNote, now: Date): CheckNote {
	const checks = note.checks + 1;
	const checkAt = checkAfter(now, checks, new Date(note.limitAt));
	return { ...note, checks, checkAt: checkAt.toISOString() };
}

/** Notes the wait in the node context, then has n8n keep the execution waiting until its check. */
export async function waitForCheck(ctx: IExecuteFunctions, note: CheckNote): Promise<void> {
	ctx.getContext('node')[CHECK_NOTE] = note;
	await ctx.putExecutionToWait(new Date(note.checkAt));
}

/** The answer at a waiting execution's address: nothing but a check runs the node again. */
export const RESUMED_AT_CHECKS =
	'Wait for Results reads the payout ledger at its checks; a call at this address changes nothing';

export const NOT_IN_THIS_N8N =
	'Wait for Results is not available in this n8n: it cannot run a waiting node again at its checks and pass on every output, so the rows would never leave on Paid, Failed or Still Pending';

export const NOT_IN_THIS_N8N_HELP =
	"Nothing waits and nothing was routed. Read the batches' rows in the payout ledger with n8n's Data Table node (the data table \"Payout ledger …\" of the workflow's project), or receive each result with the Payment Gateway Payout Results Trigger. n8n 2.41.1 offers both (see the compatibility table in the documentation).";

/**
 * Refuses to wait, before anything is read, where n8n would not run the node at its checks: it must
 * pass on every output and offer the time-out look.
 */
export async function assertMayWait(ctx: IExecuteFunctions): Promise<void> {
	await assertWaitsHere(ctx, {
		message: NOT_IN_THIS_N8N,
		description: NOT_IN_THIS_N8N_HELP,
		alsoNeeds: armTimeOutLook,
	});
}
