/**
 * The payout account's results address: where the service posts bulk payout results when a Bulk
 * Create run leaves Callback URL empty. A small data table "Payout results <host> <last 6>" in the
 * workflow's project (beside the ledger) holds the account's token (one row, created once and kept
 * across re-publishing) and the production URL of each published workflow whose Payout Results
 * Trigger pays into the account (one row per workflow, removed when it is unpublished). A post is
 * accepted only with `?t=<token>`; the token never goes into an output, an error or a log.
 */
import { randomBytes } from 'node:crypto';

import type { DataTable, DataTableColumnType, IDataTableProjectService } from 'n8n-workflow';

import type { DataTableContext } from '../../../../n8n-internals';
import type { PayoutAccount } from './account';
import { accountService, type Service } from './index';
import { withAccountLock } from './lock';

/** The query parameter carrying the token: short, so the address fits callback_url's 100 characters. */
export const TOKEN_PARAMETER = 't';
/** base64url of 12 random bytes: 16 characters, 96 bits. */
const TOKEN_BYTES = 12;

/** The column holding the account's token (one row). */
const TOKEN_COLUMN = 'token';

const COLUMNS: Array<{ name: string; type: DataTableColumnType }> = [
	{ name: 'workflow_id', type: 'string' },
	{ name: 'url', type: 'string' },
	{ name: TOKEN_COLUMN, type: 'string' },
	{ name: 'published_at', type: 'date' },
];

export interface ResultsTable {
	proxy: IDataTableProjectService;
	name: string;
	account: PayoutAccount;
}

export interface Address {
	workflowId: string;
	url: string;
}

/** What the table holds: the account's token (the first row holding one) and the addresses. */
export interface Held {
	token?: string;
	/** Oldest first; the newest is used. */
	addresses: Address[];
}

/** The account's results table (created on first use), or why there is none (data tables off). */
export async function openResultsTable(
	ctx: DataTableContext,
	itemIndex = 0,
	given?: { service: Service; account: PayoutAccount },
): Promise<ResultsTable | { off: string }> {
	const looked = given ?? (await accountService(ctx, itemIndex));
	if ('off' in looked) return looked;
	const { service, account } = looked;
	const name = account.resultsTableName;
	const find = async () =>
		(await service.aggregate.getManyAndCount({ filter: { name }, take: 50 })).data.find(
			(table) => table.name === name,
		);
	// Created meanwhile by another activation: found the second time (names are unique per project).
	const table =
		(await find()) ??
		((await service.aggregate
			.createDataTable({ name, columns: COLUMNS })
			.catch(
				async (error: unknown) => (await find()) ?? (await Promise.reject(error)),
			)) as DataTable);
	return { proxy: await service.table(table.id), name, account };
}

/** Each account's token as this process read it last, by project and results table (never logged). */
const tokens = new Map<string, string>();

/**
 * The account's token for a results post: as read last in this process (`cached`), else read from
 * the results table now. A post whose token differs from the cached one reads it again (fresh)
 * before it is refused, so a changed token counts at once.
 */
export async function postToken(
	ctx: DataTableContext,
	given: { service: Service; account: PayoutAccount },
	fresh = false,
): Promise<{ token?: string; cached: boolean }> {
	const key = `${given.service.aggregate.getProjectId()}|${given.account.resultsTableName}`;
	const held = tokens.get(key);
	if (held && !fresh) return { token: held, cached: true };
	const opened = await openResultsTable(ctx, 0, given);
	if ('off' in opened) return { cached: false };
	const { token } = await readHeld(opened);
	if (token) tokens.set(key, token);
	else tokens.delete(key);
	return { token, cached: false };
}

const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));

export async function readHeld(table: ResultsTable): Promise<Held> {
	const { data } = await table.proxy.getManyRowsAndCount({ sortBy: ['id', 'ASC'], take: 1000 });
	const rows = data as Array<Record<string, unknown>>;
	const token = rows.map((row) => text(row[TOKEN_COLUMN])).find((value) => value !== '');
	const addresses = rows
		.filter((row) => text(row.url) !== '' && text(row.workflow_id) !== '')
		.map((row) => ({ workflowId: text(row.workflow_id), url: text(row.url) }));
	return { token: token || undefined, addresses };
}

/** One holder at a time per account (two activations at once create one token). */
const lockKeyOf = (table: ResultsTable) => `${table.account.key}:results-address`;

async function keepToken(table: ResultsTable): Promise<string> {
	const held = await readHeld(table);
	if (held.token) return held.token;
	const token = randomBytes(TOKEN_BYTES).toString('base64url');
	await table.proxy.insertRows([{ [TOKEN_COLUMN]: token }], 'count');
	return token;
}

/** The account's token, created on first use and kept. */
export async function accountToken(table: ResultsTable): Promise<string> {
	return await withAccountLock(lockKeyOf(table), async () => await keepToken(table));
}

const ofWorkflow = (workflowId: string) => ({
	type: 'and' as const,
	filters: [{ columnName: 'workflow_id', condition: 'eq' as const, value: workflowId }],
});

/** On publish: this workflow's production URL becomes the account's newest results address. */
export async function recordAddress(table: ResultsTable, address: Address): Promise<void> {
	await withAccountLock(lockKeyOf(table), async () => {
		await keepToken(table);
		const { addresses } = await readHeld(table);
		const newest = addresses[addresses.length - 1];
		if (newest?.workflowId === address.workflowId && newest.url === address.url) return;
		await table.proxy.deleteRows({ filter: ofWorkflow(address.workflowId) });
		await table.proxy.insertRows(
			[{ workflow_id: address.workflowId, url: address.url, published_at: new Date() }],
			'count',
		);
	});
}

/** On unpublish: the workflow's address goes (the token stays, for the workflow's next publish). */
export async function removeAddress(table: ResultsTable, address: Address): Promise<void> {
	await withAccountLock(lockKeyOf(table), async () => {
		const { addresses } = await readHeld(table);
		// A test URL's removal (the editor's "listen") leaves the production address alone.
		if (!addresses.some((a) => a.workflowId === address.workflowId && a.url === address.url))
			return;
		await table.proxy.deleteRows({ filter: ofWorkflow(address.workflowId) });
	});
}

/** `<url>?t=<token>` (or `&t=` when the URL has a query). */
export const withToken = (url: string, token: string) =>
	`${url}${url.includes('?') ? '&' : '?'}${TOKEN_PARAMETER}=${token}`;

/** The address as it may be shown: the token replaced. */
export const maskToken = (url: string) =>
	url.replace(new RegExp(`([?&]${TOKEN_PARAMETER}=)[^&#]*`), '$1(hidden)');
