/**
 * The shared claim's commands on n8n's queue Redis (reached through ../../n8n-internals): atomic
 * Lua scripts, so any number of processes see one holder per key.
 */
import { createHash } from 'node:crypto';

import type { QueueRedis } from '../../n8n-internals';

/** What a key held when a set-if-absent found it taken. */
export type Holder = 'done' | 'pending';

/**
 * A claim taken: `orphanSince` is set when an earlier claim of the key was never decided (its
 * process died before n8n's answer), with the time that claim was first taken.
 */
export interface Taken {
	orphanSince?: number;
}

export interface ClaimStore {
	/**
	 * SET key pending:token NX PX ttl, and a mark `<key>:since` kept for `keepMs` that only deciding
	 * the claim (confirm or release) removes: the claim taken, else who holds the key.
	 */
	claim(
		key: string,
		token: string,
		ttlMs: number,
		keepMs: number,
		now: number,
	): Promise<Taken | Holder>;
	/** Extends a pending claim still held by `token`. */
	renew(key: string, token: string, ttlMs: number): Promise<boolean>;
	/**
	 * Turns a pending claim held by `token`, or expired and not taken since, into `done`, kept for
	 * `keepMs`; removes the mark.
	 */
	confirm(key: string, token: string, keepMs: number): Promise<boolean>;
	/** Deletes a pending claim held by `token`, and the mark unless `keepMark`. */
	release(key: string, token: string, keepMark?: boolean): Promise<void>;
	/** The Redis key of a delivery key, under n8n's prefix (a hash tag in cluster mode). */
	keyFor(scope: string, deliveryKey: string): string;
}

// KEYS[1] the claim, KEYS[2] its mark; the mark keeps the first claim's time until decided.
const CLAIM = `local held = redis.call('GET', KEYS[1])
if held then if held == 'done' then return 'done' else return 'pending' end end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
local since = redis.call('GET', KEYS[2])
if since then redis.call('PEXPIRE', KEYS[2], ARGV[3]) return 'orphan:' .. since end
redis.call('SET', KEYS[2], ARGV[4], 'PX', ARGV[3])
return 'taken'`;
const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end`;
// A pending claim that expired before n8n's answer (a slowed process) is confirmed all the same:
// n8n answered, so its execution exists. One another copy took meanwhile is left to that copy.
const CONFIRM = `local held = redis.call('GET', KEYS[1])
if held == ARGV[1] or not held then redis.call('SET', KEYS[1], 'done', 'PX', ARGV[2]) redis.call('DEL', KEYS[2]) return 1 else return 0 end`;
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then if ARGV[2] == '0' then redis.call('DEL', KEYS[2]) end return redis.call('DEL', KEYS[1]) else return 0 end`;
const mark = (key: string) => `${key}:since`;

export function claimStore(redis: QueueRedis): ClaimStore {
	const prefix = `${redis.prefix}:payment-gateway-trigger`;
	return {
		async claim(key, token, ttlMs, keepMs, now) {
			await redis.ready();
			const held = String(
				await redis.eval(CLAIM, 2, key, mark(key), `pending:${token}`, ttlMs, keepMs, now),
			);
			if (held === 'done' || held === 'pending') return held;
			return held.startsWith('orphan:') ? { orphanSince: Number(held.slice(7)) } : {};
		},
		async renew(key, token, ttlMs) {
			return (await redis.eval(RENEW, 1, key, `pending:${token}`, ttlMs)) === 1;
		},
		async confirm(key, token, keepMs) {
			return (await redis.eval(CONFIRM, 2, key, mark(key), `pending:${token}`, keepMs)) === 1;
		},
		async release(key, token, keepMark = false) {
			await redis.eval(RELEASE, 2, key, mark(key), `pending:${token}`, keepMark ? '1' : '0');
		},
		keyFor(scope, deliveryKey) {
			return `${prefix}:${createHash('sha256').update(`${scope}\u0000${deliveryKey}`).digest('hex')}`;
		},
	};
}
