import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * What this node has queued, known by Reference No (a payment's identity), kept by n8n's
 * processed-data store for this node (scope "node": n8n's Remove Duplicates node keeps its own
 * history, and a workflow-wide one would be shared with it). Three kinds of entries:
 * - `q:<ref>` queued: the service's answer (or its E0021 refusal of a repeat) confirmed it;
 * - `p:<ref>` pending: recorded before its batch is sent, removed once the batch is settled;
 * - `s:<request_id>:<digest>` a batch sent and not settled: the same rows under the same
 *   request_id, which the service queues at most once.
 * A pending reference is never called queued and never sent under another request_id: a crash
 * between recording and the answer leaves it pending, and the next run must find out (see
 * docs/retries-and-failures.md). n8n stores hashes, so the details shown to the user (request_id,
 * time) live in the node's static data, which n8n saves after production runs only.
 */
const OPTIONS = { mode: 'entries' } as const;
const queuedKey = (ref: string) => `q:${ref}`;
const pendingKey = (ref: string) => `p:${ref}`;
export const sentKey = (requestId: string, digest: string) => `s:${requestId}:${digest}`;

/** How many queued references the node keeps by default; a run that would pass it stops. */
export const DEFAULT_REMEMBERED = 100_000;
/** Details (request_id, time) kept for the newest references only: static data is saved whole. */
const DETAILS_KEPT = 5_000;

export interface Classified {
	queued: Set<string>;
	/** Recorded as being sent by an earlier run that never learned the answer. */
	unknown: Set<string>;
}

export interface QueuedDetail {
	request_id: string;
	queued_at: string;
}

type Details = Array<[ref: string, requestId: string, at: string]>;

function memoryError(
	ctx: IExecuteFunctions,
	itemIndex: number,
	error: unknown,
): NodeOperationError {
	return new NodeOperationError(
		ctx.getNode(),
		`The node cannot read or write its memory of queued payouts: ${(error as Error).message}`,
		{
			itemIndex,
			description:
				"Nothing was sent. The node keeps the Reference No of every payout it queued in n8n's processed-data store, so that no row is paid twice; without it no payout goes out. Save the workflow (the store belongs to a saved workflow) and run it again.",
		},
	);
}

export class ReferenceMemory {
	constructor(
		private readonly ctx: IExecuteFunctions,
		private readonly itemIndex: number,
	) {}

	private async record(values: string[]): Promise<Set<string>> {
		if (values.length === 0) return new Set();
		try {
			const result = await this.ctx.helpers.checkProcessedAndRecord(values, 'node', OPTIONS);
			return new Set(result.processed.map(String));
		} catch (error) {
			throw memoryError(this.ctx, this.itemIndex, error);
		}
	}

	private async remove(values: string[]): Promise<void> {
		if (values.length === 0) return;
		try {
			await this.ctx.helpers.removeProcessed(values, 'node', OPTIONS);
		} catch (error) {
			throw memoryError(this.ctx, this.itemIndex, error);
		}
	}

	async count(): Promise<number> {
		try {
			return await this.ctx.helpers.getProcessedDataCount('node', OPTIONS);
		} catch (error) {
			throw memoryError(this.ctx, this.itemIndex, error);
		}
	}

	/**
	 * Which references are queued and which are unknown. There is no read without a write, so each
	 * step records, then takes back what it should not have recorded; a crash in between leaves a
	 * reference pending (asked about next run), never queued.
	 */
	async classify(refs: string[]): Promise<Classified> {
		const wasPending = await this.record(refs.map(pendingKey));
		const wasQueued = await this.record(refs.map(queuedKey));
		const unknown = new Set(refs.filter((ref) => wasPending.has(pendingKey(ref))));
		const queued = new Set(
			refs.filter((ref) => wasQueued.has(queuedKey(ref)) && !unknown.has(ref)),
		);
		await this.remove(refs.filter((ref) => !wasQueued.has(queuedKey(ref))).map(queuedKey));
		await this.remove(refs.filter((ref) => !unknown.has(ref)).map(pendingKey));
		return { queued, unknown };
	}

	/** Which of these batch markers were recorded by an earlier run; the others are taken back. */
	async knownBatches(markers: string[]): Promise<Set<string>> {
		const known = await this.record(markers);
		await this.remove(markers.filter((marker) => !known.has(marker)));
		return known;
	}

	/** Before a batch is sent: its references pending, its marker recorded. */
	async beginBatch(refs: string[], marker: string): Promise<void> {
		await this.record([...refs.map(pendingKey), marker]);
	}

	/** The service queued the batch (or had queued it): its references queued, then not pending. */
	async confirmBatch(refs: string[], marker: string, requestId: string): Promise<void> {
		await this.record(refs.map(queuedKey));
		await this.remove([...refs.map(pendingKey), marker]);
		this.keepDetails(refs, requestId);
	}

	/** The service refused the batch, or it was never sent: its references are free again. */
	async releaseBatch(refs: string[], marker: string): Promise<void> {
		await this.remove([...refs.map(pendingKey), marker]);
	}

	/** Unknown references the user checked and found paid: queued from now on. */
	async markQueued(refs: string[]): Promise<void> {
		await this.record(refs.map(queuedKey));
		await this.remove(refs.map(pendingKey));
	}

	private staticData(): IDataObject {
		return this.ctx.getWorkflowStaticData('node');
	}

	private keepDetails(refs: string[], requestId: string): void {
		const data = this.staticData();
		const at = new Date().toISOString();
		const fresh = new Set(refs);
		const kept = ((data.payoutReferences as Details | undefined) ?? []).filter(
			([ref]) => !fresh.has(ref),
		);
		kept.push(...refs.map((ref): [string, string, string] => [ref, requestId, at]));
		data.payoutReferences = kept.slice(-DETAILS_KEPT);
	}

	/** request_id and time of each queued reference, where the details were kept. */
	details(): Map<string, QueuedDetail> {
		const kept = (this.staticData().payoutReferences as Details | undefined) ?? [];
		return new Map(kept.map(([ref, request_id, queued_at]) => [ref, { request_id, queued_at }]));
	}
}
