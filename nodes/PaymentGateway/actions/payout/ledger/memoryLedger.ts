import type { IDataObject } from 'n8n-workflow';

import type { Claimed, QueuedDetail } from '../bulkCreate.memory';
import { ReferenceMemory, sentKey } from '../bulkCreate.memory';
import type { Batch } from '../bulkCreate.plan';
import type { PayoutLedger, Settlement } from './port';

export const markerOf = (batch: Batch) => sentKey(batch.requestId, batch.digest);

/**
 * The node's own memory (n8n's processed-data store, scope node) where n8n's data tables cannot
 * be used: known to this node only, as before the ledger (see bulkCreate.memory.ts).
 */
export class MemoryLedger implements PayoutLedger {
	private readonly memory: ReferenceMemory;

	readonly info: IDataObject;

	constructor(
		ctx: ConstructorParameters<typeof ReferenceMemory>[0],
		readonly itemIndex: number,
		why: string,
	) {
		this.memory = new ReferenceMemory(ctx, itemIndex);
		this.info = { ledger: `node memory (${why})` };
	}

	async claim(refs: string[], attempt = 1): Promise<Claimed> {
		return await this.memory.claim(refs, attempt);
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
