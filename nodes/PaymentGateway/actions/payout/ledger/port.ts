import type { IDataObject } from 'n8n-workflow';

import type { Claimed, Payments, QueuedDetail } from '../bulkCreate.memory';
import type { Batch } from '../bulkCreate.plan';
import type { WantedAttempt } from './states';

/** A batch's references confirmed queued by the service, under its request_id. */
export interface Confirmed extends Payments {
	requestId: string;
}

/** What the run did, settled at its end. */
export interface Settlement {
	confirmed: Confirmed[];
	released: Payments[];
	/** Batch markers recorded by the node memory that no batch of the run stands for. */
	markers: string[];
}

/** A reference another run claimed and has not settled: it may still be sending it. */
export interface ClaimedElsewhere {
	reference_no: string;
	workflow_id?: string;
	execution_id?: string;
	/** When it was claimed (ISO). */
	since?: string;
}

/**
 * What Bulk Create's send path asks of the ledger, whichever store holds it: the account's data
 * table (ledger/dataTableLedger.ts) or, where n8n's data tables are off, the node's memory.
 */
export interface PayoutLedger {
	readonly itemIndex: number;
	/** Whether it holds the service's results (failed, rejected, reversed): the data table only. */
	readonly knowsResults: boolean;
	/** Said in every batch item: where the ledger is, and anything near a limit. */
	readonly info: IDataObject;
	/**
	 * Claims the references for this run (atomically for the account), each for the attempt
	 * wanted (Pay Failed Again: per reference, by its record); says which were paid or unknown.
	 */
	claim(refs: string[], attempt?: WantedAttempt): Promise<Claimed>;
	/** Batches that may have been sent by an earlier run (same rows, same request_id); marks the rest. */
	markBatches(batches: Batch[]): Promise<Set<Batch>>;
	settle(settlement: Settlement): Promise<void>;
	/** Unknown references the user checked and found paid: queued from now on. */
	markQueued(refs: string[], attempt: number): Promise<void>;
	/** Of `refs`, those another run claimed and has not settled (known where the ledger is a data table). */
	claimedElsewhere?(refs: string[]): ClaimedElsewhere[];
	/** Per reference, each earlier payment (request_id, time, attempt, workflow, execution). */
	details(): Map<string, QueuedDetail[]>;
	/** Undefined when the run fits; else how many are held (the node memory's own size limit). */
	overLimit(adding: number, limit: number): Promise<{ held: number } | undefined>;
}
