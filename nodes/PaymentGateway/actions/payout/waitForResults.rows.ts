/**
 * What Payout > Wait for Results reads: the Request IDs of its input items (Bulk Create's batch
 * items), and the ledger rows of those batches from the payout account's ledger.
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readTable } from '../../fields/read';
import type { Field, Violation } from '../../fields/types';
import { assertValid } from '../../fields/violations';
import type { AccountTable } from './ledger';
import { openAccountTable, recordsByRequestId } from './ledger';
import type { BatchRow } from './waitForResults.outcome';

/** The service's limit of a request_id (Bulk Create's Request ID). */
const MAX_REQUEST_ID = 30;

export const requestIdsField: Field = {
	name: 'requestIds',
	displayName: 'Request IDs',
	type: 'text',
	required: true,
	description:
		'The request_id of the batch this item stands for, as Payout > Bulk Create returned it (one per batch item). Several separated by commas wait for them together.',
	ui: { default: '={{ $json.request_id }}' },
};

/** A batch waited for: its request_id and the input item that named it first. */
export interface WantedBatch {
	requestId: string;
	item: number;
}

/** Each input item's Request IDs, checked before anything is read; one batch named twice counts once. */
export function readRequestIds(ctx: IExecuteFunctions): WantedBatch[] {
	const wanted: WantedBatch[] = [];
	const seen = new Set<string>();
	ctx.getInputData().forEach((_, item) => {
		const { values, violations } = readTable(ctx, item, [requestIdsField]);
		const ids = String(values.requestIds ?? '')
			.split(',')
			.map((id) => id.trim())
			.filter((id) => id !== '');
		const extra: Violation[] = [];
		if (violations.length === 0 && ids.length === 0)
			extra.push({
				field: 'Request IDs',
				rule: 'must name at least one request_id',
				value: values.requestIds,
			});
		for (const id of ids)
			if (id.length > MAX_REQUEST_ID)
				extra.push({
					field: 'Request IDs',
					rule: `must each be at most ${MAX_REQUEST_ID} characters (the service's limit of a request_id)`,
					value: id,
				});
		assertValid(ctx, item, [...violations, ...extra]);
		for (const requestId of ids) {
			if (seen.has(requestId)) continue;
			seen.add(requestId);
			wanted.push({ requestId, item });
		}
	});
	return wanted;
}

const NOT_KNOWN_HELP =
	"Payout results are kept in the payout account's ledger, an n8n data table that Bulk Create fills and the Payment Gateway Payout Results Trigger updates. Where n8n's data tables are off (N8N_DISABLED_MODULES contains data-table), Bulk Create remembers only what it queued, in the node's memory, and no result is kept anywhere n8n can read. Turn n8n's data tables on, or receive the results with the Payment Gateway Payout Results Trigger.";

/** The account's ledger table; refused where the ledger is the node's memory (nothing can be known). */
export async function openResultsLedger(ctx: IExecuteFunctions): Promise<AccountTable> {
	let opened;
	try {
		opened = await openAccountTable(ctx, 0);
	} catch (error) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The payout ledger cannot be read: ${(error as Error).message}`,
			{
				itemIndex: 0,
				description:
					"Nothing was routed. Check that the workflow's project may use data tables, then run again.",
			},
		);
	}
	if ('off' in opened)
		throw new NodeOperationError(
			ctx.getNode(),
			`The payouts' results cannot be known without n8n's data tables (${opened.off})`,
			{ itemIndex: 0, description: NOT_KNOWN_HELP },
		);
	return opened;
}

/** Every row of the batches waited for, in batch then ledger order; a batch the ledger lacks is refused. */
export async function readRows(
	ctx: IExecuteFunctions,
	ledger: AccountTable,
	wanted: WantedBatch[],
): Promise<BatchRow[]> {
	const rows: BatchRow[] = [];
	for (const { requestId, item } of wanted) {
		const records = await recordsByRequestId(ledger.table, ledger.account.key, requestId);
		if (records.length === 0)
			throw new NodeOperationError(
				ctx.getNode(),
				`No payout with request_id ${requestId} in the payout ledger "${ledger.table.name}"`,
				{
					itemIndex: item,
					description:
						"Give the request_id that Payout > Bulk Create returned for a batch it sent from this credential's payout account. A reference paid again later is known by its new attempt's request_id.",
				},
			);
		rows.push(...records.map((record) => ({ record, item })));
	}
	return rows;
}
