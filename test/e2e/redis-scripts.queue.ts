// The package's Lua scripts on a real Redis (the queue suite's, under prefixes of their own so n8n's
// queue is never touched): the trigger's claim settled after its pending key expired, and the
// execution check's look for queued jobs in every list and set Bull or BullMQ keeps them in.
import { execFileSync } from 'node:child_process';

import type { QueueRedis } from '../../nodes/n8n-internals';
import { queuedExecutions } from '../../nodes/n8n-internals/queued-jobs';
import { withRedisLock } from '../../nodes/PaymentGateway/actions/payout/ledger/sharedLock';
import { claimStore } from '../../nodes/PaymentGatewayTrigger/exactly-once/redis-store';
import { redisCommand } from './queue';

/** One command through redis-cli, its reply as JSON (integers, strings, arrays, null). */
function redisJson(...args: string[]): unknown {
	const out = execFileSync(
		'redis-cli',
		['--json', '-h', '127.0.0.1', '-p', process.env.QUEUE_REDIS_PORT!, ...args],
		{ encoding: 'utf8' },
	);
	return JSON.parse(out) as unknown;
}

const BULL = 'e2e-bull';
const redis: QueueRedis = {
	prefix: 'e2e-scripts',
	bullPrefix: BULL,
	ready: async () => undefined,
	eval: async (script, keys, ...args) =>
		redisJson('EVAL', script, String(keys), ...args.map(String)),
};
const store = claimStore(redis);
const KEEP_MS = 600_000;

afterAll(() => {
	const keys = ['e2e-scripts:*', `${BULL}:*`].flatMap((pattern) =>
		redisCommand('--scan', '--pattern', pattern)
			.split('\n')
			.filter((key) => key !== ''),
	);
	if (keys.length > 0) redisCommand('DEL', ...keys);
});

describe("the trigger's claim scripts on Redis", () => {
	it("a pending claim that expired before n8n's 2xx is confirmed done, its mark removed", async () => {
		const key = store.keyFor('scripts', 'expired');
		expect(await store.claim(key, 'slow', 60_000, KEEP_MS, Date.now())).toEqual({});
		// As its expiry leaves it: the pending key gone, the mark still there.
		redisCommand('DEL', key);
		expect(await store.confirm(key, 'slow', KEEP_MS)).toBe(true);
		expect(redisCommand('GET', key)).toBe('done');
		expect(redisCommand('EXISTS', `${key}:since`)).toBe('0');
	});

	it('an expired claim another copy took meanwhile is left to that copy', async () => {
		const key = store.keyFor('scripts', 'taken');
		await store.claim(key, 'slow', 60_000, KEEP_MS, Date.now());
		redisCommand('DEL', key);
		const other = await store.claim(key, 'other', 60_000, KEEP_MS, Date.now());
		expect(other).toEqual({ orphanSince: expect.any(Number) });
		expect(await store.confirm(key, 'slow', KEEP_MS)).toBe(false);
		expect(redisCommand('GET', key)).toBe('pending:other');
	});
});

describe("the payout ledger's claim lock on Redis", () => {
	const key = 'e2e-scripts:payment-gateway:payout-ledger-lock:acct';

	it('held with an expiry while the claim runs, released by its holder only, waited for by another', async () => {
		let during = '';
		let ttl = 0;
		await withRedisLock(redis, 'acct', async () => {
			during = redisCommand('GET', key);
			ttl = Number(redisCommand('PTTL', key));
		});
		expect(during).toMatch(/^[0-9a-f]{32}$/);
		expect(ttl).toBeGreaterThan(20_000);
		expect(redisCommand('EXISTS', key)).toBe('0');

		// Another holder's lock: waited for, then refused after the wait; left as it was.
		redisCommand('SET', key, 'other', 'PX', '60000');
		await expect(withRedisLock(redis, 'acct', async () => undefined, 200)).rejects.toThrow(
			/another n8n process has held the payout account's claim lock/,
		);
		expect(redisCommand('GET', key)).toBe('other');
		// Its expiry lets the next claim through.
		redisCommand('PEXPIRE', key, '100');
		await withRedisLock(redis, 'acct', async () => undefined, 5000);
		expect(redisCommand('EXISTS', key)).toBe('0');
	});
});

describe("the execution check's look at n8n's queue (Bull's keys)", () => {
	/** A job carrying `executionId` in `queue`'s hash `id`, its id put in `where`. */
	function job(queue: string, id: string, executionId: string, where: 'list' | 'set', key: string) {
		redisCommand('HSET', `${BULL}:${queue}:${id}`, 'data', JSON.stringify({ executionId }));
		if (where === 'list') redisCommand('LPUSH', `${BULL}:${queue}:${key}`, id);
		else redisCommand('ZADD', `${BULL}:${queue}:${key}`, '1', id);
	}

	it('finds a job waiting, active, delayed or by priority, in the default queue and a pool queue', async () => {
		job('jobs', '1', '901', 'list', 'wait');
		job('jobs', '2', '902', 'list', 'active');
		job('jobs', '3', '903', 'set', 'delayed');
		job('jobs', '4', '904', 'set', 'priority');
		job('jobs', '5', '905', 'set', 'prioritized');
		// A worker pool's queue (n8n 2.x), known by its id counter.
		redisCommand('SET', `${BULL}:jobs-pool:id`, '1');
		job('jobs-pool', '1', '906', 'list', 'wait');
		const asked = ['900', '901', '902', '903', '904', '905', '906', '907'];
		const found = await queuedExecutions(redis, asked);
		expect([...found].sort()).toEqual(['901', '902', '903', '904', '905', '906']);
	});
});
