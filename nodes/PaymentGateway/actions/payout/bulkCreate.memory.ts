import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * What this node has queued, known by Reference No (a payment's identity), kept by n8n's
 * processed-data store for this node (scope "node": n8n's Remove Duplicates node keeps its own
 * history, and a workflow-wide one would be shared with it). Three kinds of entries:
 * - `q:<ref>` claimed: recorded before the reference is sent, removed again only when the service
 *   refused its batch or it was never sent;
 * - `c:<ref>` confirmed: the service's answer (or its E0021 refusal of a repeat) said it is queued;
 *   a re-payment made on purpose (Pay Again) is a payment of its own, `q@<attempt>:<ref>` and
 *   `c@<attempt>:<ref>` (the first colon ends the prefix, so no Reference No can look like one);
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
const tagOf = (attempt: number) => (attempt > 1 ? `@${attempt}` : '');
const claimKey = (ref: string, attempt = 1) => `q${tagOf(attempt)}:${ref}`;
const confirmKey = (ref: string, attempt = 1) => `c${tagOf(attempt)}:${ref}`;
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
	/** Per reference, the attempt it was claimed for (or, paid or unknown, the attempt it holds). */
	attempts: Map<string, number>;
}

export interface QueuedDetail {
	request_id: string;
	queued_at: string;
	/** 1: the first payment; 2 and more: a re-payment. */
	attempt: number;
	/** Known where the ledger is a data table: its state, and who paid it. */
	state?: string;
	/** Why it failed, was rejected or reversed (the service's result). */
	reason?: string;
	workflow_id?: string;
	execution_id?: string;
}

/** References of one attempt, as the memory settles them. */
export interface Payments {
	refs: string[];
	attempt: number;
}

/** Saved before re-payments existed as three entries: attempt 1. */
type Details = Array<[ref: string, requestId: string, at: string, attempt?: number]>;

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
	async claim(refs: string[], attempt = 1): Promise<Claimed> {
		const claim = (ref: string) => claimKey(ref, attempt);
		const confirm = (ref: string) => confirmKey(ref, attempt);
		const claimed = await this.record(refs.map(claim));
		const earlier = refs.filter((ref) => claimed.has(claim(ref)));
		const confirmed = await this.record(earlier.map(confirm));
		const unknown = earlier.filter((ref) => !confirmed.has(confirm(ref)));
		await this.remove(unknown.map(confirm));
		return {
			queued: new Set(earlier.filter((ref) => confirmed.has(confirm(ref)))),
			unknown: new Set(unknown),
			fresh: refs.filter((ref) => !claimed.has(claim(ref))),
			attempts: new Map(refs.map((ref) => [ref, attempt])),
		};
	}

	/** Records batch markers; returns those an earlier run had recorded. */
	async markBatches(markers: string[]): Promise<Set<string>> {
		return await this.record(markers);
	}

	/** After the run: confirmed references recorded, refused or unsent ones and markers let go. */
	async settle(confirmed: Payments[], released: Payments[], markers: string[]): Promise<void> {
		const keys = (all: Payments[], key: typeof claimKey) =>
			all.flatMap(({ refs, attempt }) => refs.map((ref) => key(ref, attempt)));
		await this.record(keys(confirmed, confirmKey));
		await this.remove([...keys(released, claimKey), ...markers]);
	}

	/** Unknown references the user checked and found paid: queued from now on. */
	async markQueued(refs: string[], attempt = 1): Promise<void> {
		await this.record(refs.map((ref) => confirmKey(ref, attempt)));
	}

	private staticData(): IDataObject {
		return this.ctx.getWorkflowStaticData('node');
	}

	/** request_id and time of queued references (of one attempt), kept for the newest ones. */
	keepDetails(refs: string[], requestId: string, attempt = 1): void {
		const data = this.staticData();
		const at = new Date().toISOString();
		const fresh = new Set(refs);
		const kept = ((data.payoutReferences as Details | undefined) ?? []).filter(
			([ref, , , made]) => !fresh.has(ref) || (made ?? 1) !== attempt,
		);
		// Attempt 1 as three entries, as saved before re-payments existed.
		kept.push(...refs.map((ref) => detailOf(ref, requestId, at, attempt)));
		data.payoutReferences = kept.slice(-DETAILS_KEPT);
	}

	/**
	 * Per reference, the details of each payment the node kept (request_id, time, attempt), oldest
	 * attempt first; a reference whose details were not kept (a manual run) is not there.
	 */
	details(): Map<string, QueuedDetail[]> {
		const kept = (this.staticData().payoutReferences as Details | undefined) ?? [];
		const byRef = new Map<string, QueuedDetail[]>();
		for (const [ref, request_id, queued_at, attempt] of kept) {
			const all = byRef.get(ref) ?? [];
			all.push({ request_id, queued_at, attempt: attempt ?? 1 });
			byRef.set(ref, all);
		}
		for (const all of byRef.values()) all.sort((a, b) => a.attempt - b.attempt);
		return byRef;
	}
}

function detailOf(ref: string, requestId: string, at: string, attempt: number): Details[number] {
	return attempt > 1 ? [ref, requestId, at, attempt] : [ref, requestId, at];
}
