import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * What this node has queued, known by Reference No (a payment's identity), kept by n8n's
 * processed-data store for this node (scope "node": n8n's Remove Duplicates node keeps its own
 * history, and a workflow-wide one would be shared with it). Three kinds of entries:
 * - `q:<ref>` claimed: recorded before the reference is sent, removed again only when the service
 *   refused its batch or it was never sent;
 * - `c:<ref>` confirmed: the service's answer (or its E0021 refusal of a repeat) said it is queued;
 * - `s:<request_id>:<digest>` a batch that may have been sent: the same rows under the same
 *   request_id, which the service queues at most once.
 * A reference claimed and not confirmed is unknown: never called queued, never sent under another
 * request_id. A crash anywhere leaves references claimed, so the next run must find out (see
 * docs/retries-and-failures.md). Entries are only appended on the usual path: n8n's store reads and
 * writes its whole list per call and removes entries one by one, so removals are kept for failures.
 * n8n stores hashes, so the details shown to the user (request_id, time) live in the node's static
 * data, which n8n saves after production runs only.
 */
const OPTIONS = { mode: 'entries' } as const;
const claimKey = (ref: string) => `q:${ref}`;
const confirmKey = (ref: string) => `c:${ref}`;
export const sentKey = (requestId: string, digest: string) => `s:${requestId}:${digest}`;

/** How many queued references the node keeps by default; a run that would pass it stops. */
export const DEFAULT_REMEMBERED = 100_000;
/** Details (request_id, time) kept for the newest references only: static data is saved whole. */
const DETAILS_KEPT = 5_000;

export interface Claimed {
	queued: Set<string>;
	/** Claimed by an earlier run that never learned (or never recorded) the service's answer. */
	unknown: Set<string>;
	/** Claimed by this run: new to the node. */
	fresh: string[];
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
		readonly itemIndex: number,
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

	/** Entries held: about two per remembered reference. */
	async entries(): Promise<number> {
		try {
			return await this.ctx.helpers.getProcessedDataCount('node', OPTIONS);
		} catch (error) {
			throw memoryError(this.ctx, this.itemIndex, error);
		}
	}

	/**
	 * Claims the references for this run and says which an earlier run claimed: confirmed (queued)
	 * or not (unknown). There is no read without a write: the confirmations recorded by the check
	 * for unknown references are taken back at once (only those, usually none).
	 */
	async claim(refs: string[]): Promise<Claimed> {
		const claimed = await this.record(refs.map(claimKey));
		const earlier = refs.filter((ref) => claimed.has(claimKey(ref)));
		const confirmed = await this.record(earlier.map(confirmKey));
		const unknown = earlier.filter((ref) => !confirmed.has(confirmKey(ref)));
		await this.remove(unknown.map(confirmKey));
		return {
			queued: new Set(earlier.filter((ref) => confirmed.has(confirmKey(ref)))),
			unknown: new Set(unknown),
			fresh: refs.filter((ref) => !claimed.has(claimKey(ref))),
		};
	}

	/** Records batch markers; returns those an earlier run had recorded. */
	async markBatches(markers: string[]): Promise<Set<string>> {
		return await this.record(markers);
	}

	/** After the run: confirmed references recorded, refused or unsent ones and markers let go. */
	async settle(confirmed: string[], released: string[], markers: string[]): Promise<void> {
		await this.record(confirmed.map(confirmKey));
		await this.remove([...released.map(claimKey), ...markers]);
	}

	/** Unknown references the user checked and found paid: queued from now on. */
	async markQueued(refs: string[]): Promise<void> {
		await this.record(refs.map(confirmKey));
	}

	private staticData(): IDataObject {
		return this.ctx.getWorkflowStaticData('node');
	}

	/** request_id and time of queued references, kept for the newest ones. */
	keepDetails(refs: string[], requestId: string): void {
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
