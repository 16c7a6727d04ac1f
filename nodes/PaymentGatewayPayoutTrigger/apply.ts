/**
 * A results post applied to the payout ledger, row by row, by the ledger's one transition rule
 * (ledger/results.ts `applyResults`: one read of the ledger per post, under the account's lock: in
 * this process and, in queue mode, in n8n's Redis, as Bulk Create's claims do). A row that changed
 * the ledger becomes one item; a repeated, late or unknown one changes nothing and starts nothing.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { Applied } from '../PaymentGateway/actions/payout/ledger/results';
import type { RowResult } from '../PaymentGateway/actions/payout/ledger';
import { appliedBefore, applyResults } from '../PaymentGateway/actions/payout/ledger';
import type { LedgerColumns, LedgerRecord } from '../PaymentGateway/actions/payout/ledger/record';
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

const iso = (value: Date | null) =>
	value instanceof Date ? value.toISOString() : value ? new Date(value).toISOString() : null;

/**
 * The ledger record as an item shows it (n8n's row id and updatedAt left out), built in one literal:
 * a post makes one per row, and copies of copies cost a 500-row post more than its reading.
 */
function recordJson(record: LedgerRecord): IDataObject {
	const json: Record<keyof LedgerColumns, IDataObject[string]> = {
		reference_no: record.reference_no,
		state: record.state,
		amount: record.amount,
		currency: record.currency,
		beneficiary_name: record.beneficiary_name,
		account_last4: record.account_last4,
		request_id: record.request_id,
		batch_remark: record.batch_remark,
		queued_at: iso(record.queued_at),
		workflow_id: record.workflow_id,
		execution_id: record.execution_id,
		utr: record.utr,
		reason: record.reason,
		attempt: record.attempt,
		attempts: record.attempts,
		state_changed_at: iso(record.state_changed_at),
		batch_digest: record.batch_digest,
		result_key: record.result_key,
	};
	return json;
}

function resultOf(post: ResultsPost, row: PostedRow, key?: string): RowResult {
	return {
		key,
		reference_no: row.reference_no,
		// `queued` settles a record claimed or sent without an answer; the rule refuses it elsewhere.
		state: row.status as RowResult['state'],
		request_id: post.request_id,
		utr: row.utr,
		reason: row.reason,
	};
}

/**
 * A post's rows as results for the rule, each with the index of its row. A reversal is preceded by
 * its `processed` (which the rule ignores when the record is processed already): a reversal that
 * overtook its `processed` post applies both, in order, and the reversal's answer is the row's.
 */
function resultsOf(post: ResultsPost, key?: string): Array<{ row: number; result: RowResult }> {
	return post.rows.flatMap((row, index) => {
		const result = resultOf(post, row, key);
		if (result.state !== 'reversed') return [{ row: index, result }];
		const paid: RowResult = { ...result, state: 'processed', reason: undefined };
		return [
			{ row: -1, result: paid },
			{ row: index, result },
		];
	});
}

/** The post's rows applied under one lock and one read of the ledger (ledger/results.ts). */
export async function applyPost(
	table: LedgerTable,
	lockKey: string,
	post: ResultsPost,
	/** The post's delivery key (body.ts postKey); without one a result is never applied again. */
	key?: string,
): Promise<PostOutcome> {
	const outcome: PostOutcome = { items: [], ignored: [] };
	const planned = resultsOf(post, key);
	let applied: Applied[];
	try {
		applied = await applyResults(
			table,
			lockKey,
			planned.map((p) => p.result),
		);
	} catch (error) {
		// The rows applied before the failure run; the rest are applied when the service posts again.
		applied = appliedBefore(error);
		outcome.failure = error as Error;
	}
	applied.forEach((one, at) => {
		const index = planned[at].row;
		if (index < 0) return;
		const row = post.rows[index];
		if (!one.applied) {
			const why = `${one.why}: ${one.detail}`;
			outcome.ignored.push({ reference_no: row.reference_no, status: row.status, why });
			return;
		}
		const json = recordJson(one.record);
		json.result = { ...row, request_id: post.request_id, sent_at: post.sent_at } as IDataObject;
		// deliveryKey: how n8n's executions are searched for the post's run (exactly once).
		if (key) json.deliveryKey = key;
		outcome.items.push({ json });
	});
	return outcome;
}
