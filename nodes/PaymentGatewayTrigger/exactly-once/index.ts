/**
 * The trigger's exactly-once record: whether a delivery runs (the first of its key runs, later
 * ones are dropped). Which layer is primary depends on the mode, named once in n8n's log
 * (docs/running-at-scale.md, "n8n's internals and the exactly-once modes"):
 * - queue mode: n8n's Redis is primary and the only layer, an atomic claim shared by every process,
 *   decided by n8n's answer (redis-claim.ts over redis-store.ts);
 * - regular mode: process memory first (memory.ts; atomic within the process), then the durable
 *   record: one row per delivery in n8n's processed_data table (rows.ts), or n8n's processed-data
 *   list where n8n offers no rows (list.ts), or nothing (memory only);
 * - both: a delivery whose first receiver died unanswered is decided by earlier-run.ts, one policy.
 * A delivery n8n answers with an error is forgotten again in every layer, so the service's retry
 * runs.
 */
import type { IWebhookFunctions } from 'n8n-workflow';

import type { TriggerOptions } from '../options';

import {
	n8nInternals,
	reportOnce,
	type N8nInternals,
	type ProcessedList,
} from '../../n8n-internals';
import { earlierRun } from './earlier-run';
import { claimPersisted, releasePersisted } from './list';
import { claimInMemory, releaseInMemory, scopeKey, type DeliveryScope } from './memory';
import { claimRow, pruneRows, releaseRow, type DeliveryRows, type RowValue } from './rows';
import { claimDelivery, repeatEvery, type WatchedResponse } from './redis-claim';
import { claimStore } from './redis-store';

export const MAX_REMEMBERED_DELIVERIES = 10000;

/** run; duplicate (answered 200, dropped); busy: another copy is in flight or the store is down. */
export type Verdict =
	| { run: true }
	| { run: false; duplicate: true }
	| { run: false; duplicate: false; message: string };

const DUPLICATE: Verdict = { run: false, duplicate: true };

/** One delivery as the layers see it. */
interface Judged {
	ctx: IWebhookFunctions;
	door: N8nInternals;
	scope: DeliveryScope;
	key: string;
	windowMs: number;
	response: WatchedResponse;
	warn(message: string): void;
}

/** `door`: n8n's internals as this n8n offers them (given by the unit tests of each mode). */
export async function judgeDelivery(
	ctx: IWebhookFunctions,
	key: string,
	options: Pick<TriggerOptions, 'duplicateWindowMinutes'>,
	door: N8nInternals = n8nInternals,
): Promise<Verdict> {
	const node = ctx.getNode();
	const judged: Judged = {
		ctx,
		door,
		key,
		scope: { workflowId: String(ctx.getWorkflow().id ?? ''), nodeId: node.id ?? node.name },
		windowMs: options.duplicateWindowMinutes * 60000,
		response: ctx.getResponseObject() as unknown as WatchedResponse,
		warn: (message: string) => ctx.logger.warn(message),
	};
	await reportOnce(door, ctx.logger);
	try {
		const redis = await door.queueRedis();
		if (redis.found) return await inQueue(judged, claimStore(redis.use));
	} catch (error) {
		judged.warn(`Payment Gateway Trigger: ${(error as Error).message}`);
		return busy(
			`n8n's shared duplicate store could not be used, so the delivery was not run; deliver it again (${(error as Error).message})`,
		);
	}
	return await inThisProcess(judged);
}

const earlier = (judged: Judged) => async (since: number, until?: number) =>
	await earlierRun(
		judged.door.executionCheck,
		judged.warn,
		{ workflowId: judged.scope.workflowId, key: judged.key },
		since,
		until ?? Date.now(),
	);

async function inQueue(judged: Judged, store: ReturnType<typeof claimStore>): Promise<Verdict> {
	const { scope, key, response, windowMs } = judged;
	const deps = {
		store,
		repeatEvery,
		now: Date.now,
		warn: judged.warn,
		earlierRun: earlier(judged),
	};
	const redisKey = store.keyFor(`${scope.workflowId}:${scope.nodeId}`, key);
	const taken = await claimDelivery(deps, redisKey, response, windowMs);
	if (taken === true) return { run: true };
	if (taken === 'done') return DUPLICATE;
	return inFlight();
}

const busy = (message: string): Verdict => ({ run: false, duplicate: false, message });
const inFlight = () =>
	busy('Another copy of this delivery is being processed right now; deliver it again shortly');

async function inThisProcess(judged: Judged): Promise<Verdict> {
	const { scope, key, windowMs } = judged;
	if (!claimInMemory(scope, key, Date.now(), { windowMs, maxEntries: MAX_REMEMBERED_DELIVERIES }))
		return DUPLICATE;
	// An unsaved workflow (no ID) has nothing to key a durable record by: memory only.
	if (scope.workflowId === '') return afterAnswer(judged);
	try {
		const rows = await judged.door.processedRows<RowValue>();
		if (rows.found) return await inRows(judged, rows.use);
		const list = await judged.door.processedList();
		if (list.found) return await inList(judged, list.use);
	} catch (error) {
		releaseInMemory(scope, key);
		judged.warn(`Payment Gateway Trigger: ${(error as Error).message}`);
		return busy(
			`The delivery could not be recorded in n8n's database, so it was not run; deliver it again (${(error as Error).message})`,
		);
	}
	return afterAnswer(judged);
}

/** Memory only (the mode named in n8n's log): forgotten again when n8n answers with an error. */
function afterAnswer(judged: Judged, list?: ProcessedList): Verdict {
	const { scope, key, response, ctx } = judged;
	// n8n answers only after the execution was created; an error answer means none was.
	response.once('finish', () => {
		if (response.statusCode < 400) return;
		releaseInMemory(scope, key);
		if (list)
			releasePersisted(list, scope, ctx.getNode().name, key).catch((e: Error) =>
				judged.warn(`Payment Gateway Trigger: ${e.message}`),
			);
	});
	return { run: true };
}

/** n8n's processed-data list, where n8n offers no rows; a failure rejects (503 above). */
async function inList(judged: Judged, list: ProcessedList): Promise<Verdict> {
	const { scope, key, ctx } = judged;
	const name = ctx.getNode().name;
	if (!(await claimPersisted(list, scope, name, key, MAX_REMEMBERED_DELIVERIES))) return DUPLICATE;
	return afterAnswer(judged, list);
}

/**
 * Rows being deleted after n8n answered with an error, by scope and key: a retry waits for the
 * deletion (milliseconds), and after a failed one is answered 503 while it is tried again, never
 * "duplicate" (the row of an answered delivery of this process means a duplicate otherwise).
 */
const releasing = new Map<string, Promise<boolean>>();
const releaseId = (scope: DeliveryScope, key: string) => `${scopeKey(scope)}\u0000${key}`;

function startRelease(
	rows: DeliveryRows,
	scope: DeliveryScope,
	key: string,
	warn: (e: Error) => void,
): void {
	const id = releaseId(scope, key);
	const deleted = releaseRow(rows, scope.workflowId, scope.nodeId, key).then(
		() => true,
		(error: Error) => {
			warn(error);
			return false;
		},
	);
	releasing.set(id, deleted);
	void deleted.then((ok) => ok && releasing.get(id) === deleted && releasing.delete(id));
}

async function inRows(judged: Judged, rows: DeliveryRows): Promise<Verdict> {
	const { scope, key, windowMs, response } = judged;
	const warn = (e: Error) => judged.warn(`Payment Gateway Trigger: ${e.message}`);
	const pendingRelease = releasing.get(releaseId(scope, key));
	if (pendingRelease && !(await pendingRelease)) {
		releaseInMemory(scope, key);
		startRelease(rows, scope, key, warn);
		return inFlight();
	}
	const deps = { rows, now: Date.now, earlierRun: earlier(judged) };
	// A database failure rejects: inThisProcess answers 503.
	const claim = await claimRow(deps, scope.workflowId, scope.nodeId, key);
	if (claim === 'done') return DUPLICATE;
	if (claim === 'pending') {
		releaseInMemory(scope, key);
		return inFlight();
	}
	// n8n answers only after the execution was created; an error answer means none was.
	response.once('finish', () => {
		if (response.statusCode >= 400) {
			startRelease(rows, scope, key, warn);
			releaseInMemory(scope, key);
		}
		pruneRows(rows, scope.workflowId, scope.nodeId, windowMs, Date.now()).catch(warn);
	});
	return { run: true };
}
