/**
 * The payout ledger: one record per Reference No per payout account, shared by every workflow
 * and node paying from the account (the credential's Payout URL and key), in an n8n data table of
 * the workflow's project named "Payout ledger <host> <last 6 of the key>". Its states and the one
 * transition rule: states.ts. Where the data table cannot be used, the node's own memory
 * (memoryLedger.ts) and the output says so. The rules: docs/retries-and-failures.md.
 */
import type {
	ICredentialDataDecryptedObject,
	IDataTableProjectAggregateService,
	IDataTableProjectService,
	IExecuteFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { n8nInternals, reportOnce, type DataTableContext } from '../../../../n8n-internals';
import type { PayoutAccount } from './account';
import { payoutAccount } from './account';
import type { RunRows } from './dataTableLedger';
import { DataTableLedger } from './dataTableLedger';
import { MemoryLedger } from './memoryLedger';
import type { PayoutLedger } from './port';
import type { LedgerTable } from './table';
import { openTable } from './table';

export type { PayoutLedger, Settlement, Confirmed } from './port';
export { markerOf } from './memoryLedger';
export {
	transition,
	paidAs,
	standingOf,
	mayPayAgain,
	isFinal,
	STATES,
	FAILED_AGAIN,
	type PayoutState,
	type WantedAttempt,
} from './states';
// For the results receiver and Wait for Results: row results applied by the rule, records read
// by reference and by batch.
export {
	appliedBefore,
	applyResult,
	applyResults,
	recordsByReference,
	recordsByRequestId,
	type RowResult,
} from './results';

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
export interface Service {
	aggregate: IDataTableProjectAggregateService;
	table: (id: string) => Promise<IDataTableProjectService>;
	/** Said in the output when not n8n's public helpers. */
	via?: string;
}

/** n8n's public helpers, where n8n gives them to this node (executions only; not refused). */
async function publicHelpers(ctx: DataTableContext): Promise<Service | undefined> {
	const helpers = (ctx as IExecuteFunctions).helpers;
	const { getDataTableAggregateProxy, getDataTableProxy } = helpers ?? {};
	if (!getDataTableAggregateProxy || !getDataTableProxy) return undefined;
	const aggregate = await getDataTableAggregateProxy().catch((error: Error) => {
		if (REFUSED_TO_THIS_NODE.test(error.message)) return undefined;
		throw error;
	});
	return aggregate
		? { aggregate, table: async (id) => await getDataTableProxy(id), via: undefined }
		: undefined;
}

/** The service, or why the node's memory holds the ledger instead (n8n's data tables off, or changed). */
export async function tableService(ctx: DataTableContext): Promise<Service | string> {
	const helpers = await publicHelpers(ctx);
	if (helpers) return helpers;
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

/** The payout account's ledger table, from any n8n context (an execution, a results post, activation). */
export interface AccountTable {
	table: LedgerTable;
	account: PayoutAccount;
}

/** What the account is known by, as stored: plain text (an expression is n8n's to resolve). */
const plain = (value: unknown) =>
	typeof value === 'string' && value !== '' && !value.startsWith('=');

/**
 * The payout account from the credential as stored (the door's "stored credential": no expression
 * isolate, most of a webhook's cost), when every field it is known by is plain text there; else
 * undefined (n8n's `getCredentials`, whose defaults and overwrites then apply).
 */
async function storedAccount(ctx: DataTableContext): Promise<PayoutAccount | undefined> {
	const stored = n8nInternals.storedCredential(ctx as IWebhookFunctions);
	if (!stored.found) return undefined;
	const raw = await stored.use.read(PAYOUT_CREDENTIAL).catch(() => undefined);
	if (!raw || !plain(raw.payoutUrl)) return undefined;
	const paste = raw.obtainBy === 'paste';
	if (raw.obtainBy !== undefined && !plain(raw.obtainBy)) return undefined;
	if (!paste && !plain(raw.merchantKey)) return undefined;
	return payoutAccount(raw as ICredentialDataDecryptedObject);
}

/**
 * The data table service and the payout account of a node's credential (one look per post).
 * `stored`: the account read from the credential as stored where it can be (results posts).
 */
export async function accountService(
	ctx: DataTableContext,
	itemIndex = 0,
	stored = false,
): Promise<{ service: Service; account: PayoutAccount } | { off: string }> {
	const service = await tableService(ctx);
	if (typeof service === 'string') return { off: service };
	const account =
		(stored ? await storedAccount(ctx) : undefined) ??
		payoutAccount(await (ctx as IExecuteFunctions).getCredentials(PAYOUT_CREDENTIAL, itemIndex));
	return { service, account };
}

/**
 * The account's ledger table (created on first use), or why there is none here (n8n's data tables
 * off or changed: the node's memory then holds what Bulk Create paid, and nothing else can read it).
 */
export async function openAccountTable(
	ctx: DataTableContext,
	itemIndex = 0,
	given?: { service: Service; account: PayoutAccount },
): Promise<AccountTable | { off: string }> {
	const looked = given ?? (await accountService(ctx, itemIndex));
	if ('off' in looked) return looked;
	return await openFound(ctx, looked);
}

/** The table of an account whose data table service was found. */
async function openFound(
	ctx: DataTableContext,
	{ service, account }: { service: Service; account: PayoutAccount },
): Promise<AccountTable> {
	const table = await openTable(service.aggregate, service.table, account.tableName);
	const opened: LedgerTable = { ...table, via: service.via, indexed: await indexed(ctx, table.id) };
	return { table: { ...opened, rows: await rowWriter(ctx) }, account };
}

/**
 * Ledger tables opened by this process's results posts, by project and name: the table's id, its
 * column check and index done once. Each post gets its own copy (its own view of records: never
 * more than its rows). Dropped when a post's read or write of it fails (deleted, changed).
 */
const reused = new Map<string, LedgerTable>();

const reuseKey = (service: Service, account: PayoutAccount) =>
	`${service.aggregate.getProjectId()}|${account.tableName}`;

/** As `openAccountTable`, the table found once per process (for the results trigger's posts). */
export async function reuseAccountTable(
	ctx: DataTableContext,
	given: { service: Service; account: PayoutAccount },
): Promise<AccountTable> {
	const key = reuseKey(given.service, given.account);
	let table = reused.get(key);
	if (!table) {
		table = (await openFound(ctx, given)).table;
		reused.set(key, table);
	}
	return { table: { ...table }, account: given.account };
}

/** The next post opens the table afresh (its read or write failed: deleted, changed). */
export function forgetAccountTable(given: { service: Service; account: PayoutAccount }): void {
	reused.delete(reuseKey(given.service, given.account));
}

/**
 * How the ledger's rows are written: all rows of a write in one transaction (the door's "data table
 * rows"), else n8n's data table service, one call per row with values of its own (logged once).
 */
async function rowWriter(ctx: DataTableContext): Promise<LedgerTable['rows']> {
	const outcome = await n8nInternals.dataTableRows(ctx).catch((error: Error) => error);
	if (!(outcome instanceof Error) && outcome.found) return outcome.use;
	if (!toldRowByRow)
		ctx.logger.warn(
			`Payment Gateway, payout ledger: rows written one call each through n8n's data table service (${outcome instanceof Error ? outcome.message : outcome.why})`,
		);
	toldRowByRow = true;
	return undefined;
}

let toldRowByRow = false;

/** Columns the ledger is read by: a run's references, Wait for Results' batches. */
const INDEXED_COLUMNS = ['reference_no', 'request_id'];

/**
 * Whether the ledger's lookup columns carry an index (the door's "data table index"): reads by
 * reference are then lookups whatever the ledger's size. Without it (outside n8n, another database,
 * n8n changed) every read passes over the table: slower as it grows, never wrong (logged once).
 */
async function indexed(ctx: DataTableContext, tableId: string): Promise<boolean> {
	try {
		const index = await n8nInternals.dataTableIndex();
		if (!index.found) return false;
		for (const column of INDEXED_COLUMNS) await index.use.ensure(tableId, column);
		return true;
	} catch (error) {
		if (!toldNoIndex)
			ctx.logger.warn(
				`Payment Gateway, payout ledger: no index on its lookup columns, each read passes over the table (${(error as Error).message})`,
			);
		toldNoIndex = true;
		return false;
	}
}

let toldNoIndex = false;

/** The account's ledger for this run: its data table, else the node's memory (said in the output). */
export async function openLedger(
	ctx: IExecuteFunctions,
	itemIndex: number,
	run: RunRows,
): Promise<PayoutLedger> {
	let opened;
	try {
		opened = await openAccountTable(ctx, itemIndex);
	} catch (error) {
		throw ledgerError(ctx, itemIndex, error);
	}
	if ('off' in opened) return new MemoryLedger(ctx, itemIndex, opened.off);
	const writer = {
		workflowId: String(ctx.getWorkflow().id ?? ''),
		executionId: ctx.getExecutionId(),
	};
	return new DataTableLedger(opened.table, opened.account.key, writer, run, itemIndex);
}
