// n8n's floor for the payout results figure: the items the Payout Results Trigger emits for a
// post, built here without any ledger, posted as `{ items }` to a bench-only trigger
// (bench/floor/ItemsFloorTrigger.node.js) that emits them as they are. Its workflow's cost is
// what n8n itself spends on a run of those items (creating, running and saving the execution),
// so the trigger's figure minus this one is the trigger's own work.
import { resolve } from 'node:path';

import { parsePost, postKey } from '../nodes/PaymentGatewayPayoutTrigger/body';

/** The folder n8n loads the floor trigger from (N8N_CUSTOM_EXTENSIONS). */
export const FLOOR_FOLDER = resolve(__dirname, 'floor');
/** n8n's type of the floor trigger: custom folders' nodes are the package "CUSTOM". */
export const FLOOR_TYPE = 'CUSTOM.itemsFloorTrigger';

/** A queued reference as the bench writes it to the ledger (payoutResults.ts queuedRecords). */
export type QueuedRecord = Record<string, unknown> & { reference_no: string; queued_at: string };

/**
 * The body for the floor trigger: per row of the post, the item the trigger emits once the row is
 * applied to its queued record (nodes/PaymentGatewayPayoutTrigger/apply.ts: the record's columns,
 * the row's state, utr or reason, state_changed_at and result_key, then `result` and deliveryKey).
 */
export function floorBody(records: Map<string, QueuedRecord>, body: unknown): { items: unknown[] } {
	const post = parsePost(body, 'application/json');
	if ('invalid' in post) throw new Error(`floor: ${post.invalid}`);
	const key = postKey(post);
	const now = new Date().toISOString();
	const items = post.rows.map((row) => {
		const record = records.get(row.reference_no);
		if (!record) throw new Error(`floor: no queued record of ${row.reference_no}`);
		return {
			...record,
			result_key: key,
			state: row.status,
			state_changed_at: now,
			...(row.utr !== undefined ? { utr: row.utr } : {}),
			...(row.reason !== undefined ? { reason: row.reason } : {}),
			result: { ...row, request_id: post.request_id, sent_at: post.sent_at },
			deliveryKey: key,
		};
	});
	return { items };
}

/** Keys and value types of a JSON value, recursively ("null", "string", { key: type }, ...). */
export function shapeOf(value: unknown): unknown {
	if (value === null) return 'null';
	if (Array.isArray(value)) return value.map(shapeOf);
	if (typeof value !== 'object') return typeof value;
	return Object.fromEntries(
		Object.entries(value as Record<string, unknown>)
			.filter(([, v]) => v !== undefined)
			.sort(([a], [b]) => a.localeCompare(b))
			.map(([k, v]) => [k, shapeOf(v)]),
	);
}

/** The value with its timestamps (keys ending in _at) masked: they differ from run to run. */
const masked = (value: unknown): string =>
	JSON.stringify(value, (key, v: unknown) =>
		key.endsWith('_at') && typeof v === 'string' ? 'at' : v,
	);

/**
 * Throws unless the floor's items have the trigger's keys and value types, item by item, and the
 * same values apart from timestamps (both warm-ups post the same rows); else a one-line summary.
 */
export function sameItems(trigger: unknown[], floor: unknown[]): string {
	const [a, b] = [JSON.stringify(shapeOf(trigger)), JSON.stringify(shapeOf(floor))];
	if (!trigger.length || a !== b)
		throw new Error(
			`floor items differ from the trigger's:\ntrigger ${a.slice(0, 2000)}\nfloor   ${b.slice(0, 2000)}`,
		);
	const differ = trigger.findIndex((item, at) => masked(item) !== masked(floor[at]));
	if (differ >= 0)
		throw new Error(
			`floor item ${differ} differs from the trigger's:\ntrigger ${masked(trigger[differ])}\nfloor   ${masked(floor[differ])}`,
		);
	const keys = Object.keys(trigger[0] as object).length;
	return `floor items = trigger items: ${trigger.length} items, ${keys} keys each, same keys and value types, same values apart from timestamps`;
}
