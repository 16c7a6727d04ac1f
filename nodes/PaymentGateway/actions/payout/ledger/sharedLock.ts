/**
 * The claim lock across n8n processes (queue mode: several workers run payroll executions): a
 * short lock per payout account in n8n's queue Redis, held around "read the ledger, write the
 * claims". A random token marks the holder; the lock expires on its own (a killed worker holds it
 * at most EXPIRY_MS, longer than a claim of a whole payroll takes) and is released only by its
 * holder (a compare-and-delete script), never by a process whose lock already expired: a release
 * that finds another token (or none) means the lock expired while this run claimed, and those
 * claims are refused. (No renewal timer: n8n's package rules keep timers out of nodes.)
 */
import { randomBytes } from 'node:crypto';

import { sleep } from 'n8n-workflow';

import type { QueueRedis } from '../../../../n8n-internals';

export const EXPIRY_MS = 60_000;
const RETRY_MS = 50;
/** A claim waits this long for other processes' claims of the account, then sends nothing. */
export const WAIT_MS = 120_000;

export const ACQUIRE = `if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end return 0`;
export const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

export const lockKeyOf = (redis: QueueRedis, account: string) =>
	`${redis.prefix}:payment-gateway:payout-ledger-lock:${account}`;

/** Runs `work` holding the account's lock in `redis`; rejects when it cannot be had or was lost. */
export async function withRedisLock<T>(
	redis: QueueRedis,
	account: string,
	work: () => Promise<T>,
	waitMs = WAIT_MS,
): Promise<T> {
	const key = lockKeyOf(redis, account);
	const token = randomBytes(16).toString('hex');
	await redis.ready();
	for (const deadline = Date.now() + waitMs; ; await sleep(RETRY_MS)) {
		if (Number(await redis.eval(ACQUIRE, 1, key, token, EXPIRY_MS)) === 1) break;
		if (Date.now() > deadline)
			throw new Error(
				`another n8n process has held the payout account's claim lock for over ${Math.round(waitMs / 1000)} s (Redis key ${key})`,
			);
	}
	const result = await work().catch(async (error: unknown) => {
		await redis.eval(RELEASE, 1, key, token).catch(() => undefined);
		return await Promise.reject(error);
	});
	// Claims written after the lock expired may overlap another process's: said, never used.
	if (Number(await redis.eval(RELEASE, 1, key, token)) !== 1)
		throw new Error(
			`the payout account's claim lock expired while this run claimed (Redis key ${key}); its claims stay unknown`,
		);
	return result;
}
