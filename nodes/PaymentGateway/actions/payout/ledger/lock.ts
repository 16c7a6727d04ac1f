/**
 * The claim lock: "read the run's references, write the claims" of one payout account, one run at
 * a time. Data tables have no unique constraint, so this lock is what makes a claim atomic. In
 * regular mode every execution runs in n8n's main process, so a lock in this process covers every
 * workflow paying from the account. In queue mode (several processes) the same lock is also taken
 * in n8n's queue Redis (sharedLock.ts); see docs/retries-and-failures.md.
 */
import type { Capability, QueueRedis } from '../../../../n8n-internals';
import { n8nInternals } from '../../../../n8n-internals';
import { withRedisLock } from './sharedLock';

const tails = new Map<string, Promise<void>>();

/** n8n's queue Redis: found in queue mode, absent in regular mode; a changed n8n rejects. */
export type SharedStore = () => Promise<Capability<QueueRedis>>;

/**
 * Runs `work` when every earlier holder of `key` in this process has finished and, in queue mode,
 * holding the account's lock in n8n's Redis; releases whatever happens. Where n8n's Redis cannot
 * be used in queue mode, rejects (nothing claimed, nothing sent).
 */
export async function withAccountLock<T>(
	key: string,
	work: () => Promise<T>,
	shared: SharedStore = n8nInternals.queueRedis,
): Promise<T> {
	const before = tails.get(key) ?? Promise.resolve();
	let release: () => void = () => undefined;
	const mine = new Promise<void>((resolve) => (release = resolve));
	const tail = before.then(async () => await mine);
	tails.set(key, tail);
	await before;
	try {
		const redis = await shared();
		return redis.found ? await withRedisLock(redis.use, key, work) : await work();
	} finally {
		release();
		// The last holder leaves no entry behind.
		if (tails.get(key) === tail) tails.delete(key);
	}
}
