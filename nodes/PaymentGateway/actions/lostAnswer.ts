import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { apiRequest } from '../transport';
import type { RequestSpec } from '../transport';
import type { NodeError } from './errorItem';
import { asNodeError } from './errorItem';

/**
 * What a write whose answer was lost (a 5xx, an HTML error page, a time-out or a dropped
 * connection) ended as: done (with the service's record), not done (safe to run again), or
 * unknown (the service offers no way to tell). Carried by the item (`lostAnswer`) and the error.
 */
export type LostAnswerOutcome = 'done' | 'notDone' | 'unknown';

export interface LostAnswer extends IDataObject {
	outcome: LostAnswerOutcome;
	/** How the node knows, in words. */
	how: string;
}

/** True when the transport says the service may have acted although no clear answer came back. */
function wasAnswerLost(error: unknown): error is NodeError {
	const context = (error as { context?: IDataObject } | undefined)?.context;
	return context?.answerLost === true;
}

/**
 * The service may still be working on a request whose answer was lost (a proxy's 502/504 or the
 * node's own time-out). The read that settles it waits this long first; see
 * docs/retries-and-failures.md.
 */
export const SETTLE_PAUSE_MS = 2000;

export async function pauseBeforeCheck(): Promise<void> {
	await sleep(SETTLE_PAUSE_MS);
}

/** A write the node found done after its answer was lost: the item it becomes. */
export function doneAfterLostAnswer(json: IDataObject, how: string): IDataObject {
	return { ...json, lostAnswer: { outcome: 'done', how } satisfies LostAnswer };
}

/**
 * The error of a write whose answer was lost, said as what the node found: not done (safe to run
 * again) or unknown (how to find out). The error keeps the service's code and status.
 */
export function settledError(
	error: NodeError,
	outcome: Exclude<LostAnswerOutcome, 'done'>,
	message: string,
	how: string,
): NodeError {
	const lost = error.message;
	error.message = message;
	error.description = `${how} (The answer to the request was lost: ${lost}.)`;
	error.context.lostAnswer = { outcome, how } satisfies LostAnswer;
	return error;
}

/** What the error of a write says when nothing settled its lost answer: the outcome is unknown. */
export interface Unsettled {
	message: string;
	/** How to find out, and whether sending it again is safe. */
	how: string;
}

/**
 * The one ending of a failed write: a failure other than a lost answer is thrown as the node's
 * error; a lost answer goes to the operation's own check (`settle`: an item when it finds the write
 * done, or the error that says what it found), or, where the service offers no check, becomes the
 * error that says the outcome is unknown, in the operation's words.
 */
export function settleWriteFailure(
	ctx: Pick<IExecuteFunctions, 'getNode'>,
	itemIndex: number,
	error: unknown,
	settle: Unsettled,
): NodeError;
export function settleWriteFailure<T>(
	ctx: Pick<IExecuteFunctions, 'getNode'>,
	itemIndex: number,
	error: unknown,
	settle: (lost: NodeError) => T,
): T;
export function settleWriteFailure<T>(
	ctx: Pick<IExecuteFunctions, 'getNode'>,
	itemIndex: number,
	error: unknown,
	settle: Unsettled | ((lost: NodeError) => T),
): T | NodeError {
	if (!wasAnswerLost(error)) throw asNodeError(ctx, error, itemIndex);
	if (typeof settle === 'function') return settle(error);
	return settledError(error, 'unknown', settle.message, settle.how);
}

/**
 * A write sent through the transport, ending as settleWriteFailure says when it fails: a lost
 * answer its own repeat did not settle becomes the error `unsettled` makes (or states).
 */
export async function sendWrite(
	ctx: IExecuteFunctions,
	itemIndex: number,
	request: RequestSpec,
	unsettled: Unsettled | ((lost: NodeError) => NodeError),
): Promise<IDataObject> {
	try {
		return await apiRequest.call(ctx, itemIndex, request);
	} catch (error) {
		throw typeof unsettled === 'function'
			? settleWriteFailure(ctx, itemIndex, error, unsettled)
			: settleWriteFailure(ctx, itemIndex, error, unsettled);
	}
}
