/**
 * A results post applied to the payout ledger, row by row, by the ledger's one transition rule
 * (ledger/results.ts `applyResult`, which holds the account's lock: in this process and, in queue
 * mode, in n8n's Redis, as Bulk Create's claims do). A row that changed the ledger becomes one
 * item; a repeated, late or unknown one changes nothing and starts nothing.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { RowResult } from '../PaymentGateway/actions/payout/ledger';
import { applyResult } from '../PaymentGateway/actions/payout/ledger';
import type { LedgerRecord } from '../PaymentGateway/actions/payout/ledger/record';
import type { LedgerTable } from '../PaymentGateway/actions/payout/ledger/table';
import type { PostedRow, ResultsPost } from './body';

export interface NotApplied {
	reference_no: string;
	status: string;
	why: string;
}

export interface PostOutcome {
	items: INodeExecutionData[];
	ignored: NotApplied[];
	/** Set when applying stopped part-way (the rows before it are applied and in `items`). */
	failure?: Error;
}

/** Not yet processed: a reversal found here means the payout was paid first (its post came late). */
const BEFORE_PAID = new Set(['claimed', 'unknown', 'queued']);

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

/** The ledger record as an item shows it (n8n's row id and updatedAt left out). */
function recordJson(record: LedgerRecord): IDataObject {
	const columns: Partial<LedgerRecord> = { ...record };
	delete columns.id;
	delete columns.updatedAt;
	return {
		...(columns as IDataObject),
		queued_at: iso(record.queued_at),
		state_changed_at: iso(record.state_changed_at),
	};
}

function resultOf(post: ResultsPost, row: PostedRow): RowResult {
	return {
		reference_no: row.reference_no,
		// `queued` settles a record claimed or sent without an answer; the rule refuses it elsewhere.
		state: row.status as RowResult['state'],
		request_id: post.request_id,
		utr: row.utr,
		reason: row.reason,
	};
}

/** One row through the rule; a reversal that overtook its `processed` applies both, in order. */
async function applyRow(table: LedgerTable, lockKey: string, result: RowResult) {
	const first = await applyResult(table, lockKey, result);
	const record = first.applied ? undefined : first.record;
	if (result.state !== 'reversed' || !record || !BEFORE_PAID.has(record.state)) return first;
	const paid = await applyResult(table, lockKey, {
		...result,
		state: 'processed',
		reason: undefined,
	});
	if (!paid.applied) return paid;
	return await applyResult(table, lockKey, result);
}

export async function applyPost(
	table: LedgerTable,
	lockKey: string,
	post: ResultsPost,
): Promise<PostOutcome> {
	const outcome: PostOutcome = { items: [], ignored: [] };
	for (const row of post.rows) {
		let applied;
		try {
			applied = await applyRow(table, lockKey, resultOf(post, row));
		} catch (error) {
			outcome.failure = error as Error;
			return outcome;
		}
		if (!applied.applied) {
			const why = `${applied.why}: ${applied.detail}`;
			outcome.ignored.push({ reference_no: row.reference_no, status: row.status, why });
			continue;
		}
		const result = { ...row, request_id: post.request_id, sent_at: post.sent_at };
		outcome.items.push({
			json: { ...recordJson(applied.record), result: result as unknown as IDataObject },
		});
	}
	return outcome;
}
