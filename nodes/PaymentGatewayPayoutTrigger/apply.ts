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

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

/** The ledger record as an item shows it (n8n's row id and updatedAt left out). */
function recordJson(record: LedgerRecord): IDataObject {
	// A rest copy, not `delete` (which turns each copy into a slow dictionary object).
	// eslint-disable-next-line @typescript-eslint/no-unused-vars
	const { id, updatedAt, ...columns } = record;
	return {
		...(columns as IDataObject),
		queued_at: iso(record.queued_at),
		state_changed_at: iso(record.state_changed_at),
	};
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
		const result = { ...row, request_id: post.request_id, sent_at: post.sent_at };
		// deliveryKey: how n8n's executions are searched for the post's run (exactly once).
		outcome.items.push({
			json: {
				...recordJson(one.record),
				result: result as unknown as IDataObject,
				...(key ? { deliveryKey: key } : {}),
			},
		});
	});
	return outcome;
}
