/**
 * Regular mode's first layer and its last fallback, per workflow and node:
 * - process memory, always first: checked and recorded without an `await` in between, so within
 *   one n8n process no two deliveries of one key can both pass, however many arrive at once;
 * - n8n's processed-data list (what the Remove Duplicates node uses), only where n8n offers no
 *   processed-data rows (rows.ts, the durable layer). Its update is a read-modify-write of the whole
 *   key list without a lock, so calls are queued one at a time per process, and the keys that
 *   arrive while one runs go together in the next call (one read and one write for a burst).
 */
import type { ProcessedList } from '../n8n-internals';

export interface DeliveryScope {
	workflowId: string;
	nodeId: string;
}

export interface LedgerLimits {
	/** How long memory remembers a key. */
	windowMs: number;
	/** Keys kept, in memory and in the processed-data table (oldest dropped first). */
	maxEntries: number;
}

const memory = new Map<string, Map<string, number>>();
const queues = new Map<string, Promise<unknown>>();

export const scopeKey = (scope: DeliveryScope) => `${scope.workflowId}\u0000${scope.nodeId}`;

/**
 * Records `key` in process memory unless it is already there (within the window). Synchronous on
 * purpose: JavaScript runs it to the end before any other delivery's webhook call continues.
 */
export function claimInMemory(
	scope: DeliveryScope,
	key: string,
	now: number,
	limits: LedgerLimits,
): boolean {
	let seen = memory.get(scopeKey(scope));
	if (!seen) memory.set(scopeKey(scope), (seen = new Map()));
	const at = seen.get(key);
	if (at !== undefined && now - at <= limits.windowMs) return false;
	seen.delete(key);
	seen.set(key, now);
	// Map keeps insertion order: the first keys are the oldest.
	for (const [old, when] of seen) {
		if (seen.size <= limits.maxEntries && now - when <= limits.windowMs) break;
		seen.delete(old);
	}
	return true;
}

/** Forgets a claim whose delivery could not be recorded, so the service's retry is not dropped. */
export function releaseInMemory(scope: DeliveryScope, key: string): void {
	memory.get(scopeKey(scope))?.delete(key);
}

/** Moves the first-seen time of a remembered key (tests of the window use it). */
export function rememberedAt(scope: DeliveryScope, key: string, at?: number): number | undefined {
	const seen = memory.get(scopeKey(scope));
	if (at !== undefined && seen?.has(key)) seen.set(key, at);
	return seen?.get(key);
}

/** Keys waiting for the next processed-data call of a scope; it takes them all when it starts. */
interface Batch {
	keys: string[];
	recorded: Promise<Set<string>>;
}
const waiting = new Map<string, Batch>();

/**
 * Checks and records `key` in n8n's processed-data table: true when it was not there yet. Calls
 * for one scope run one after another in this process, so none overwrites another's record; keys
 * claimed while a call runs share the next one. Keys of one call are distinct: process memory
 * claimed each first.
 */
export async function claimPersisted(
	list: ProcessedList,
	scope: DeliveryScope,
	nodeName: string,
	key: string,
	maxEntries: number,
): Promise<boolean> {
	const id = scopeKey(scope);
	let batch = waiting.get(id);
	if (!batch) {
		const keys: string[] = [];
		const run = async () => {
			if (waiting.get(id) === batch) waiting.delete(id);
			return await list.checkAndRecord(keys, { ...scope, nodeName }, maxEntries);
		};
		batch = { keys, recorded: oneAtATime(id, run) };
		waiting.set(id, batch);
	}
	batch.keys.push(key);
	return (await batch.recorded).has(key);
}

/** Runs `run` after every earlier call for the same scope settled (n8n's update is not atomic). */
async function oneAtATime<T>(id: string, run: () => Promise<T>): Promise<T> {
	const previous = queues.get(id) ?? Promise.resolve();
	const next = previous.then(run, run);
	const settled = next.catch(() => undefined);
	queues.set(id, settled);
	void settled.then(() => {
		if (queues.get(id) === settled) queues.delete(id);
	});
	return await next;
}

/** Removes `key` from n8n's processed-data table (its delivery produced no execution). */
export async function releasePersisted(
	list: ProcessedList,
	scope: DeliveryScope,
	nodeName: string,
	key: string,
): Promise<void> {
	const id = scopeKey(scope);
	// A retry of this delivery claimed from now on must be recorded after the removal, not in a
	// call queued before it (which would still find the key and drop the retry).
	waiting.delete(id);
	const run = async () => await list.remove([key], { ...scope, nodeName });
	await oneAtATime(id, run);
}
