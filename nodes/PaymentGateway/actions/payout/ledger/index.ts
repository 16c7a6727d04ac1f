/**
 * The payout ledger: one record per Reference No per payout account, shared by every workflow
 * and node paying from the account (the credential's Payout URL and key), in an n8n data table of
 * the workflow's project named "Payout ledger <host> <last 6 of the key>". Its states and the one
 * transition rule: states.ts. Where the data table cannot be used, the node's own memory
 * (memoryLedger.ts) and the output says so. The rules: docs/retries-and-failures.md.
 */
import type {
	IDataTableProjectAggregateService,
	IDataTableProjectService,
	IExecuteFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { n8nInternals, reportOnce } from '../../../../n8n-internals';
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

/** The data table service for this node: n8n's public helpers where n8n allows them, else the door's. */
interface Service {
	aggregate: IDataTableProjectAggregateService;
	table: (id: string) => Promise<IDataTableProjectService>;
	/** Said in the output when not n8n's public helpers. */
	via?: string;
}

/** The service, or why the node's memory holds the ledger instead (n8n's data tables off, or changed). */
async function tableService(ctx: IExecuteFunctions): Promise<Service | string> {
	const { getDataTableAggregateProxy, getDataTableProxy } = ctx.helpers;
	if (getDataTableAggregateProxy && getDataTableProxy) {
		const aggregate = await getDataTableAggregateProxy().catch((error: Error) => {
			if (REFUSED_TO_THIS_NODE.test(error.message)) return undefined;
			throw error;
		});
		if (aggregate)
			return { aggregate, table: async (id) => await getDataTableProxy(id), via: undefined };
	}
	// n8n keeps its helpers to its own Data Table nodes: the same service through the door.
	const door = await n8nInternals.dataTables(ctx).catch((error: Error) => error);
	await reportOnce(n8nInternals, ctx.logger, undefined, door);
	if (door instanceof Error) return `n8n's data tables cannot be used: ${door.message}`;
	// Absent: the module is off (N8N_DISABLED_MODULES=data-table), or no n8n around the node.
	if (!door.found) return "n8n's data tables are off";
	return {
		aggregate: await door.use.aggregate(),
		table: door.use.table,
		via: "n8n's data table service",
	};
}

/** The account's ledger for this run: its data table, else the node's memory (said in the output). */
export async function openLedger(
	ctx: IExecuteFunctions,
	itemIndex: number,
	run: RunRows,
): Promise<PayoutLedger> {
	let service;
	try {
		service = await tableService(ctx);
	} catch (error) {
		throw ledgerError(ctx, itemIndex, error);
	}
	if (typeof service === 'string') return new MemoryLedger(ctx, itemIndex, service);
	try {
		const account = payoutAccount(await ctx.getCredentials(PAYOUT_CREDENTIAL, itemIndex));
		const table = await openTable(service.aggregate, service.table, account.tableName);
		const writer = {
			workflowId: String(ctx.getWorkflow().id ?? ''),
			executionId: ctx.getExecutionId(),
		};
		return new DataTableLedger({ ...table, via: service.via }, account.key, writer, run, itemIndex);
	} catch (error) {
		throw ledgerError(ctx, itemIndex, error);
	}
}
