import type { IDataObject } from 'n8n-workflow';

import type { Claimed, QueuedDetail } from '../bulkCreate.memory';
import { ReferenceMemory, sentKey } from '../bulkCreate.memory';
import type { Batch } from '../bulkCreate.plan';
import type { PayoutLedger, Settlement } from './port';
import { FAILED_AGAIN, type WantedAttempt } from './states';

/** Said in every item of a run with Pay Failed Again where the ledger is the node's memory. */
export const FAILED_AGAIN_NEEDS_TABLES =
	"Pay Failed Again needs n8n's data tables: the node's memory knows which references were queued, never which failed, were rejected or reversed, so it paid nobody again here (new references went out as first payments)";

export const markerOf = (batch: Batch) => sentKey(batch.requestId, batch.digest);

/**
 * The node's own memory (n8n's processed-data store, scope node) where n8n's data tables cannot
 * be used: known to this node only, as before the ledger (see bulkCreate.memory.ts).
 */
export class MemoryLedger implements PayoutLedger {
	private readonly memory: ReferenceMemory;

	readonly knowsResults = false;

	private readonly where: string;

	private failedAgain = false;

	constructor(
		ctx: ConstructorParameters<typeof ReferenceMemory>[0],
		readonly itemIndex: number,
		why: string,
	) {
		this.memory = new ReferenceMemory(ctx, itemIndex);
		this.where = `node memory (${why})`;
	}

	get info(): IDataObject {
		return {
			ledger: this.where,
			...(this.failedAgain ? { payFailedAgain: FAILED_AGAIN_NEEDS_TABLES } : {}),
		};
	}

	/** Pay Failed Again cannot be judged here: every reference is claimed as a first payment. */
	async claim(refs: string[], wanted: WantedAttempt = 1): Promise<Claimed> {
		if (wanted === FAILED_AGAIN) this.failedAgain = true;
		return await this.memory.claim(refs, wanted === FAILED_AGAIN ? 1 : wanted);
	}

	async markBatches(batches: Batch[]): Promise<Set<Batch>> {
		const known = await this.memory.markBatches(batches.map(markerOf));
		return new Set(batches.filter((batch) => known.has(markerOf(batch))));
	}

	async settle({ confirmed, released, markers }: Settlement): Promise<void> {
		for (const { refs, requestId, attempt } of confirmed)
			this.memory.keepDetails(refs, requestId, attempt);
		await this.memory.settle(confirmed, released, markers);
	}

	async markQueued(refs: string[], attempt: number): Promise<void> {
		await this.memory.markQueued(refs, attempt);
	}

	details(): Map<string, QueuedDetail[]> {
		return this.memory.details();
	}

	async overLimit(adding: number, limit: number): Promise<{ held: number } | undefined> {
		const held = Math.round(((await this.memory.entries()) - adding) / 2);
		return held + adding <= limit ? undefined : { held };
	}
}
