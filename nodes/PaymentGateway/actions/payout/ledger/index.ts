/**
 * The payout ledger: one record per Reference No per payout account, shared by every workflow
 * and node paying from the account (the credential's Payout URL and key), in an n8n data table of
 * the workflow's project named "Payout ledger <host> <last 6 of the key>". Its states and the one
 * transition rule: states.ts. Where the data table cannot be used, the node's own memory
 * (memoryLedger.ts) and the output says so. The rules: docs/retries-and-failures.md.
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { payoutAccount } from './account';
import type { RunRows } from './dataTableLedger';
import { DataTableLedger } from './dataTableLedger';
import { MemoryLedger } from './memoryLedger';
import type { PayoutLedger } from './port';
import { openTable } from './table';

export type { PayoutLedger, Settlement, Confirmed } from './port';
export { markerOf } from './memoryLedger';
export { transition, paidAs, mayPayAgain, isFinal, STATES, type PayoutState } from './states';
// For the results receiver and Wait for Results (to come): a row result applied by the rule,
// records read by reference and by batch.
export { applyResult, recordsByReference, recordsByRequestId, type RowResult } from './results';

const PAYOUT_CREDENTIAL = 'paymentGatewayPayoutApi';
/** n8n 1.123–2.41 give the data table helpers to n8n's own Data Table nodes only. */
const REFUSED_TO_THIS_NODE = /only available for Data table nodes/i;

function ledgerError(ctx: IExecuteFunctions, itemIndex: number, error: unknown) {
	return new NodeOperationError(
		ctx.getNode(),
		`The payout ledger cannot be opened: ${(error as Error).message}`,
		{
			itemIndex,
			description:
				"Nothing was sent. Every payout is recorded in the account's ledger (an n8n data table) before it goes out, so that no reference is paid twice; without it no payout goes out. Check that the workflow's project may create data tables and that n8n's data table storage is not full, then run again.",
		},
	);
}

/** The account's ledger for this run: its data table, else the node's memory (said in the output). */
export async function openLedger(
	ctx: IExecuteFunctions,
	itemIndex: number,
	run: RunRows,
): Promise<PayoutLedger> {
	const { getDataTableAggregateProxy, getDataTableProxy } = ctx.helpers;
	if (!getDataTableAggregateProxy || !getDataTableProxy)
		return new MemoryLedger(ctx, itemIndex, "n8n's data tables are off");
	let aggregate;
	try {
		aggregate = await getDataTableAggregateProxy();
	} catch (error) {
		if (REFUSED_TO_THIS_NODE.test((error as Error).message))
			return new MemoryLedger(
				ctx,
				itemIndex,
				'n8n lets only its own Data Table nodes use data tables',
			);
		throw ledgerError(ctx, itemIndex, error);
	}
	try {
		const account = payoutAccount(await ctx.getCredentials(PAYOUT_CREDENTIAL, itemIndex));
		const table = await openTable(
			aggregate,
			async (id) => await getDataTableProxy(id),
			account.tableName,
		);
		const writer = {
			workflowId: String(ctx.getWorkflow().id ?? ''),
			executionId: ctx.getExecutionId(),
		};
		return new DataTableLedger(table, account.key, writer, run, itemIndex);
	} catch (error) {
		throw ledgerError(ctx, itemIndex, error);
	}
}
