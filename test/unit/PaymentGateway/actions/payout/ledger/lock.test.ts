// The payout account's claim lock across n8n processes (queue mode): two copies of the lock module
// (two workers, each with its own in-process lock) share one Redis. The Redis here runs the two
// scripts' semantics with real expiry; the scripts themselves run on a real Redis in
// test/e2e/redis-scripts.queue.ts.
import type { Capability, QueueRedis } from '../../../../../../nodes/n8n-internals';
import {
	ACQUIRE,
	EXPIRY_MS,
	RELEASE,
	withRedisLock,
} from '../../../../../../nodes/PaymentGateway/actions/payout/ledger/sharedLock';

type LockModule =
	typeof import('../../../../../../nodes/PaymentGateway/actions/payout/ledger/lock');

/** A worker process: its own copy of the lock module (its own in-process lock). */
function worker(): LockModule {
	let copy: LockModule | undefined;
	jest.isolateModules(() => {
		copy = require('../../../../../../nodes/PaymentGateway/actions/payout/ledger/lock');
	});
	return copy!;
}

/** One Redis: keys with a value and an expiry time (ms), the lock scripts by their text. */
function fakeRedis(): QueueRedis & { keys: Map<string, { value: string; until: number }> } {
	const keys = new Map<string, { value: string; until: number }>();
	const live = (key: string) => {
		const entry = keys.get(key);
		if (entry && entry.until <= Date.now()) keys.delete(key);
		return keys.get(key);
	};
	return {
		keys,
		prefix: 'n8n',
		bullPrefix: 'bull',
		ready: async () => undefined,
		eval: async (script, _n, key, token, ms) => {
			await new Promise((resolve) => setTimeout(resolve, 1));
			const held = live(String(key));
			if (script === ACQUIRE) {
				if (held) return 0;
				keys.set(String(key), { value: String(token), until: Date.now() + Number(ms) });
				return 1;
			}
			if (held?.value !== String(token)) return 0;
			if (script === RELEASE) keys.delete(String(key));
			else throw new Error(`unknown script ${String(script)}`);
			return 1;
		},
	};
}

/** Read, wait, write: what a claim does; counts how many ran at once. */
function claims() {
	const seen = { atOnce: 0, most: 0 };
	const claim = async () => {
		seen.atOnce += 1;
		seen.most = Math.max(seen.most, seen.atOnce);
		await new Promise((resolve) => setTimeout(resolve, 20));
		seen.atOnce -= 1;
	};
	return { seen, claim };
}

const store = (redis: QueueRedis) => async (): Promise<Capability<QueueRedis>> => ({
	found: true,
	use: redis,
});
const regular = async (): Promise<Capability<QueueRedis>> => ({
	found: false,
	why: 'regular mode',
});

describe("the payout account's claim lock", () => {
	test('regular mode: the process lock alone; two workers would claim at the same time', async () => {
		const { seen, claim } = claims();
		const [a, b] = [worker(), worker()];
		await Promise.all([
			a.withAccountLock('acct', claim, regular),
			b.withAccountLock('acct', claim, regular),
		]);
		expect(seen.most).toBe(2);
	});

	test("queue mode: two workers' claims of one account take turns through n8n's Redis; other accounts do not wait", async () => {
		const redis = fakeRedis();
		const { seen, claim } = claims();
		const [a, b] = [worker(), worker()];
		await Promise.all([
			...[a, b, a, b].map(async (w) => await w.withAccountLock('acct', claim, store(redis))),
		]);
		expect(seen.most).toBe(1);
		// Released by each holder: nothing left behind.
		expect([...redis.keys.keys()]).toEqual([]);

		const other = claims();
		await Promise.all([
			a.withAccountLock('acct-1', other.claim, store(redis)),
			b.withAccountLock('acct-2', other.claim, store(redis)),
		]);
		expect(other.seen.most).toBe(2);
	});

	test('a lock left by a killed worker expires; a lock that expired is never released by its old holder', async () => {
		const redis = fakeRedis();
		const key = 'n8n:payment-gateway:payout-ledger-lock:acct';
		redis.keys.set(key, { value: 'killed', until: Date.now() + 60 });
		const started = Date.now();
		await worker().withAccountLock('acct', async () => undefined, store(redis));
		expect(Date.now() - started).toBeGreaterThanOrEqual(50);
		// The old holder's release (another token) leaves the new holder's lock alone.
		redis.keys.set(key, { value: 'new', until: Date.now() + EXPIRY_MS });
		expect(await redis.eval(RELEASE, 1, key, 'killed')).toBe(0);
		expect(redis.keys.get(key)?.value).toBe('new');
	});

	test("where n8n's Redis fails in queue mode, nothing is claimed: the claim rejects", async () => {
		const failing = async (): Promise<Capability<QueueRedis>> => {
			throw new Error('queue Redis (n8n 2.41.1): Redis not reachable (reconnecting)');
		};
		const work = jest.fn(async () => undefined);
		await expect(worker().withAccountLock('acct', work, failing)).rejects.toThrow(
			/Redis not reachable/,
		);
		expect(work).not.toHaveBeenCalled();
	});

	test('a lock that expired while its holder claimed: the claim is refused, never taken as held', async () => {
		const redis = fakeRedis();
		const key = 'n8n:payment-gateway:payout-ledger-lock:acct';
		await expect(
			withRedisLock(redis, 'acct', async () => {
				// The expiry passes mid-claim and another process takes the lock.
				redis.keys.set(key, { value: 'other', until: Date.now() + EXPIRY_MS });
				return 'claimed';
			}),
		).rejects.toThrow(/claim lock expired while this run claimed/);
		expect(redis.keys.get(key)?.value).toBe('other');
	});
});
