/**
 * Capability "data table index": an index on a column of one of n8n's data tables. n8n gives its
 * data tables (`<prefix>data_table_user_<id>`, n8n's data-table module, the same in 1.123 and
 * 2.41) no index but the row id, so its own `eq` filters compare every row: a payout ledger of
 * 100,000 records read by 5,000 references costs seconds. With an index on the column, n8n's own
 * filter queries (`"<column>" = :p OR …`) become index lookups in SQLite and PostgreSQL alike.
 * The index is n8n's table's only addition: n8n drops it with the table; a column with an index
 * cannot be dropped in SQLite (the ledger's columns are the package's own).
 */
import { absent, asFault, found, type Capability } from './load';
import { n8nConfig } from './queue-redis';
import { n8nRepository, type EntityShape } from './repositories';

export const DATA_TABLE_INDEX = "data table index (n8n's data_table_user_<id> tables)";

export interface DataTableIndex {
	/** Indexes `column` of data table `dataTableId` (once; quick when the index exists). */
	ensure(dataTableId: string, column: string): Promise<void>;
}

interface Repository extends EntityShape {
	manager: {
		query(sql: string, parameters?: unknown[]): Promise<unknown>;
		connection: { options: { type: string }; driver: { escape(name: string): string } };
	};
}

/** n8n names data tables and columns from these characters only; anything else is refused here. */
const SAFE = /^[A-Za-z0-9_]+$/;

let probed: Promise<Capability<DataTableIndex>> | undefined;

export async function dataTableIndex(): Promise<Capability<DataTableIndex>> {
	probed ??= probe().catch(async (error: unknown) => {
		probed = undefined;
		return await Promise.reject(error);
	});
	return await probed;
}

async function probe(): Promise<Capability<DataTableIndex>> {
	// Any of n8n's repositories gives its database connection; this one every release has.
	const repository = await n8nRepository<Repository>(DATA_TABLE_INDEX, 'ExecutionRepository', [
		'id',
	]);
	const config = await n8nConfig<{ database?: { tablePrefix?: string } }>(DATA_TABLE_INDEX);
	if (!repository || !config) return absent('no @n8n/db here');
	const { options, driver } = repository.manager.connection;
	if (!['sqlite', 'sqlite-pooled', 'better-sqlite3', 'postgres'].includes(options.type))
		return absent(`not known for a ${options.type} database`);
	const prefix = config.database?.tablePrefix ?? '';
	const done = new Set<string>();
	return found({
		ensure: async (dataTableId, column) => {
			const key = `${dataTableId}|${column}`;
			if (done.has(key)) return;
			if (!SAFE.test(dataTableId) || !SAFE.test(column) || !SAFE.test(`x${prefix}`))
				throw new Error(`not an n8n data table name: ${dataTableId}.${column}`);
			const table = driver.escape(`${prefix}data_table_user_${dataTableId}`);
			const index = driver.escape(`${prefix}pgw_${dataTableId}_${column}`);
			await asFault(DATA_TABLE_INDEX, async () => {
				await repository.manager.query(
					`CREATE INDEX IF NOT EXISTS ${index} ON ${table} (${driver.escape(column)})`,
				);
			});
			done.add(key);
		},
	});
}
