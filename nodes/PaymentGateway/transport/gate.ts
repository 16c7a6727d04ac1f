import { sleep } from 'n8n-workflow';

import type { NodeContext } from '../helpers/context';

/**
 * One gate for every request of a node run. It bounds the requests in flight, and when the service
 * answers 429 it pauses every slot, not only the one that was refused, then lets the slots back one
 * by one as requests succeed (the service's limit is per account, not per request).
 */
export class RateGate {
	private inFlight = 0;
	private allowed: number;
	private pausedUntil = 0;
	private readonly waiting: Array<() => void> = [];

	constructor(
		readonly maxInFlight: number,
		private readonly now: () => number = Date.now,
	) {
		this.allowed = maxInFlight;
	}

	/** Waits for a free slot and for any pause to end. */
	async acquire(): Promise<void> {
		for (;;) {
			const pause = this.pausedUntil - this.now();
			if (pause > 0) {
				await sleep(pause);
				continue;
			}
			if (this.inFlight < this.allowed) {
				this.inFlight++;
				return;
			}
			await new Promise<void>((resolve) => this.waiting.push(resolve));
		}
	}

	/** Frees a slot; a success also lets one more slot back after a 429 (additive ramp-up). */
	release(succeeded: boolean): void {
		this.inFlight = Math.max(0, this.inFlight - 1);
		if (succeeded && this.allowed < this.maxInFlight) this.allowed++;
		this.waiting.splice(0).forEach((wake) => wake());
	}

	/** A 429: no slot sends again before `waitMs` has passed, and only one at first. */
	rateLimited(waitMs: number): void {
		this.pausedUntil = Math.max(this.pausedUntil, this.now() + waitMs);
		this.allowed = 1;
	}

	get pausedForMs(): number {
		return Math.max(0, this.pausedUntil - this.now());
	}
}

const gates = new WeakMap<object, RateGate>();

/** The gate of this node run (one per execution context), made on first use. */
export function gateOf(ctx: NodeContext, maxInFlight = 1): RateGate {
	let gate = gates.get(ctx);
	if (!gate) {
		gate = new RateGate(maxInFlight);
		gates.set(ctx, gate);
	}
	return gate;
}

/** Runs `task` for every index with at most `limit` at once; results keep the input order. */
export async function mapInOrder<T>(
	count: number,
	limit: number,
	task: (index: number) => Promise<T>,
	stop: () => boolean = () => false,
): Promise<Array<T | undefined>> {
	const results: Array<T | undefined> = new Array(count);
	let next = 0;
	const worker = async () => {
		while (next < count && !stop()) {
			const index = next++;
			results[index] = await task(index);
		}
	};
	await Promise.all(Array.from({ length: Math.min(limit, count) }, worker));
	return results;
}
