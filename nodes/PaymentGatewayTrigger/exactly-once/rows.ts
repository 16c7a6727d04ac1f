/**
 * Regular mode's durable record of accepted deliveries: one row per delivery in n8n's
 * processed_data table (primary key: workflow ID + context), taken with one INSERT before n8n's
 * answer and not written again. The database refuses a second row with the same key, so the claim
 * is atomic for every process on that database, and it costs one small write where n8n's
 * processed-data list (what the Remove Duplicates node uses) is read and written whole, all 10,000
 * keys, for each delivery.
 *
 * A row names the process that took it (a new ID per n8n start). n8n answered with an error (no
 * execution): the row is deleted, so the service's retry runs. A row of this process that is still
 * there was answered (a copy in flight is stopped by process memory first). A row of another process
 * may have been left by one that ended before n8n's answer: n8n's executions created around the
 * claim tell whether the delivery ran. Rows older than the duplicate window are deleted, at most
 * once a minute per trigger.
 */
import { randomUUID } from 'node:crypto';

import type { ProcessedRows, RowScope } from '../../n8n-internals';
import type { EarlierRun } from './earlier-run';
import { scopeKey } from './memory';

export interface RowValue {
	/** The process that took the row (a new one per n8n start). */
	boot: string;
	/** When the row was taken (ms). */
	since: number;
}
export type DeliveryRows = ProcessedRows<RowValue>;

/** 'pending': the row went while it was read (n8n answered that copy with an error), or an
 * unfinished delivery's run cannot be told now: ask again. */
export type RowClaim = 'taken' | 'done' | 'pending';

const BOOT = randomUUID();
const PRUNE_EVERY_MS = 60_000;
const lastPruned = new Map<string, number>();

/** The rows of one trigger node. */
const deliveries = (workflowId: string, nodeId: string): RowScope => ({
	workflowId,
	nodeId,
	kind: 'delivery',
});

export interface RowDeps {
	rows: DeliveryRows;
	now(): number;
	/** Whether the delivery's execution started between `since` and `until` (earlier-run.ts). */
	earlierRun(since: number, until: number): Promise<EarlierRun>;
}

/** n8n creates the execution within this time of the claim, or never (MAX_PENDING_MS). */
const ANSWER_WITHIN_MS = 300_000;

/** Takes the delivery's row: 'taken' (run it), 'done' (a duplicate) or 'pending' (ask again). */
export async function claimRow(
	deps: RowDeps,
	workflowId: string,
	nodeId: string,
	key: string,
): Promise<RowClaim> {
	const scope = deliveries(workflowId, nodeId);
	const value: RowValue = { boot: BOOT, since: deps.now() };
	// Any database error other than the duplicate row rejects: the caller answers 503.
	if (await deps.rows.insert(scope, key, value)) return 'taken';
	const held = await deps.rows.read(scope, key);
	if (!held) return 'pending';
	if (held.boot === BOOT) return 'done';
	// Taken by another process, maybe one that ended before n8n answered: did its execution start?
	const earlier = await deps.earlierRun(held.since, held.since + ANSWER_WITHIN_MS);
	if (earlier === 'ran') return 'done';
	if (earlier === 'cannot tell now') return 'pending';
	await deps.rows.update(scope, key, value);
	return 'taken';
}

/** After n8n answered with an error (no execution): the row goes, so the service's retry runs. */
export async function releaseRow(
	rows: DeliveryRows,
	workflowId: string,
	nodeId: string,
	key: string,
): Promise<void> {
	await rows.delete(deliveries(workflowId, nodeId), key);
}

/** Deletes the trigger's rows older than the window; at most once a minute per trigger node. */
export async function pruneRows(
	rows: DeliveryRows,
	workflowId: string,
	nodeId: string,
	windowMs: number,
	now: number,
): Promise<void> {
	const id = scopeKey({ workflowId, nodeId });
	if (now - (lastPruned.get(id) ?? 0) < PRUNE_EVERY_MS) return;
	lastPruned.set(id, now);
	await rows.deleteOlder(deliveries(workflowId, nodeId), now - windowMs);
}
