/**
 * Regular mode's durable layer where n8n offers no processed-data rows (rows.ts): n8n's
 * processed-data list (what the Remove Duplicates node uses). Its update is a read-modify-write of
 * the whole key list without a lock, so calls are queued one at a time per process, and the keys
 * that arrive while one runs go together in the next call (one read and one write for a burst).
 */
import type { ProcessedList } from '../../n8n-internals';
import { scopeKey, type DeliveryScope } from './memory';

const queues = new Map<string, Promise<unknown>>();

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

/** Runs `run` after every earlier call for the same scope finished (n8n's update is not atomic). */
async function oneAtATime<T>(id: string, run: () => Promise<T>): Promise<T> {
	const previous = queues.get(id) ?? Promise.resolve();
	const next = previous.then(run, run);
	const finished = next.catch(() => undefined);
	queues.set(id, finished);
	void finished.then(() => {
		if (queues.get(id) === finished) queues.delete(id);
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
