/**
 * A delivery claimed in the shared store (queue mode), for as long as n8n has not said whether
 * the delivery produced an execution.
 *
 * The claim is taken `pending` with a short expiry and renewed while this process works on the
 * delivery. n8n 2.41 answers a trigger with responseMode onReceived only after
 * WorkflowRunner.run() has created the execution and queued it (webhook-helpers.js,
 * shouldDeferOnReceivedResponse), and answers 5xx when that fails. So the answer decides:
 * 2xx/3xx → the claim becomes `done` for the duplicate window; 4xx/5xx → the claim is deleted and
 * the service's retry runs. A process killed in between stops renewing: the claim expires, its mark
 * stays, and the next copy asks n8n's database whether the dead process's execution exists.
 */
import { randomUUID } from 'node:crypto';

import { sleep } from 'n8n-workflow';

import type { EarlierRun } from './earlier-run';
import type { ClaimStore, Holder } from './redis-store';

export const PENDING_TTL_MS = 15_000;
export const RENEW_EVERY_MS = 5_000;
/** How often the claim looks at the answer (and retries a confirm or release that failed). */
export const TICK_MS = 1_000;
/** A request n8n never answers stops holding its claim after this long. */
export const MAX_PENDING_MS = 300_000;

/** The part of n8n's (express) response object the claim watches. */
export interface WatchedResponse {
	headersSent: boolean;
	statusCode: number;
	once(event: 'finish' | 'close', listener: () => void): unknown;
}

export interface ClaimDeps {
	store: ClaimStore;
	repeatEvery(ms: number, tick: () => void): () => void;
	now(): number;
	/** Told when a confirm or release could not reach the store in time. */
	warn(message: string): void;
	/**
	 * Whether the delivery's execution started since `since` (earlier-run.ts: the one policy for
	 * both modes). Asked only after a claim was left undecided.
	 */
	earlierRun(since: number): Promise<EarlierRun>;
}

/** true: this process runs the delivery; otherwise who holds its key. */
export async function claimDelivery(
	deps: ClaimDeps,
	redisKey: string,
	response: WatchedResponse,
	keepMs: number,
): Promise<true | Holder> {
	const token = randomUUID();
	const started = deps.now();
	const taken = await deps.store.claim(redisKey, token, PENDING_TTL_MS, keepMs, started);
	if (taken === 'done' || taken === 'pending') return taken;
	if (taken.orphanSince !== undefined) {
		const decided = await decideOrphan(deps, redisKey, token, keepMs, taken.orphanSince);
		if (decided) return decided;
	}
	// Until `heldUntil` the pending key surely exists (it was set or renewed with PENDING_TTL_MS).
	let heldUntil = started + PENDING_TTL_MS;
	let busy = false;
	let finished = false;
	let stop: () => void = () => undefined;
	const end = (warning?: string) => {
		finished = true;
		stop();
		if (warning) deps.warn(warning);
	};
	const step = async () => {
		const now = deps.now();
		if (!response.headersSent) {
			if (now - started >= MAX_PENDING_MS) return end(); // never answered: let the claim expire
			if (heldUntil - now > PENDING_TTL_MS - RENEW_EVERY_MS) return;
			if (await deps.store.renew(redisKey, token, PENDING_TTL_MS)) heldUntil = now + PENDING_TTL_MS;
			return;
		}
		const ran = response.statusCode < 400;
		if (ran) await deps.store.confirm(redisKey, token, keepMs);
		else await deps.store.release(redisKey, token);
		end();
	};
	const tick = () => {
		if (finished || busy) return;
		busy = true;
		step()
			.catch((error: Error) => {
				// Retried on the next tick while the pending key surely still exists.
				if (deps.now() >= heldUntil && !finished) {
					end(
						`Payment Gateway Trigger: could not confirm or release the claim of a delivery (${error.message}); it expires by itself`,
					);
				}
			})
			.finally(() => (busy = false));
	};
	stop = deps.repeatEvery(TICK_MS, tick);
	response.once('finish', tick);
	response.once('close', tick);
	return true;
}

/**
 * After a claim left by a dead process: 'done' when its execution started (this claim is
 * confirmed), 'pending' when that cannot be told now (released, mark kept: a later copy asks
 * again), undefined when the delivery runs here.
 */
async function decideOrphan(
	deps: ClaimDeps,
	redisKey: string,
	token: string,
	keepMs: number,
	since: number,
): Promise<Holder | undefined> {
	const earlier = await deps.earlierRun(since);
	if (earlier === 'not run') return undefined;
	if (earlier === 'cannot tell now') {
		await deps.store.release(redisKey, token, true);
		return 'pending';
	}
	await deps.store.confirm(redisKey, token, keepMs);
	return 'done';
}

/** Calls `tick` every `ms` until the returned function is called (n8n-workflow's sleep, no timers of our own). */
export function repeatEvery(ms: number, tick: () => void): () => void {
	let stopped = false;
	void (async () => {
		while (!stopped) {
			await sleep(ms);
			if (!stopped) tick();
		}
	})();
	return () => (stopped = true);
}
