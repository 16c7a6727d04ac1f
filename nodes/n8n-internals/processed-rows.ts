/**
 * Capability "processed-data rows": n8n's processed_data table (the table behind the Remove
 * Duplicates node; primary key workflow ID + context) through @n8n/db's ProcessedDataRepository,
 * one row per key: an atomic insert, a read, an update, a delete, and pruning by age. The table's
 * layout is known here only: a caller names its node, a kind of row and a key.
 */
import { createHash } from 'node:crypto';

import { absent, asFault, changed, found, type Capability } from './load';
import { dateParameter, likeLiteral, n8nRepository, type EntityShape } from './repositories';

export const PROCESSED_ROWS = "database rows (n8n's processed_data table)";

/** One node's rows of one kind (`kind`: letters only, e.g. `delivery`). */
export interface RowScope {
	workflowId: string;
	nodeId: string;
	kind: string;
}

/** A row as n8n's table keys it. */
interface RowKey {
	workflowId: string;
	context: string;
}

/**
 * n8n's own contexts are `n:<node ID>` exactly (and `''` for a workflow), so `n:<node ID>:<kind>:`
 * never meets them; the key goes in as a digest, so any key fits the context column.
 */
const contextPrefix = (scope: RowScope) => `n:${scope.nodeId}:${scope.kind}:`;
export const rowContext = (scope: RowScope, key: string) =>
	contextPrefix(scope) + createHash('sha256').update(key).digest('base64url');
const rowKey = (scope: RowScope, key: string): RowKey => ({
	workflowId: scope.workflowId,
	context: rowContext(scope, key),
});
/** The longest context written: a node ID (a UUID), a kind of up to 20 letters, a digest. */
const LONGEST_CONTEXT = 'n:'.length + 36 + 1 + 20 + 1 + 43;

export interface ProcessedRows<V extends object> {
	/** true: the row was written; false: a row with this key exists (the database refused it). */
	insert(scope: RowScope, key: string, value: V): Promise<boolean>;
	read(scope: RowScope, key: string): Promise<V | undefined>;
	update(scope: RowScope, key: string, value: V): Promise<void>;
	delete(scope: RowScope, key: string): Promise<void>;
	/** Deletes the scope's rows created before `cutoff`. */
	deleteOlder(scope: RowScope, cutoff: number): Promise<void>;
}

interface DeleteBuilder {
	delete(): DeleteBuilder;
	where(condition: string, parameters: object): DeleteBuilder;
	andWhere(condition: string, parameters: object): DeleteBuilder;
	execute(): Promise<unknown>;
}
/** The part of n8n's ProcessedDataRepository (TypeORM) the rows use. */
export interface ProcessedDataRepository extends EntityShape {
	manager: { connection: { options: { type: string }; driver: { escape(name: string): string } } };
	insert(row: RowKey & { value: object }): Promise<unknown>;
	findOne(options: { where: RowKey }): Promise<{ value: object } | null>;
	update(where: RowKey, change: { value: object }): Promise<unknown>;
	delete(where: RowKey): Promise<unknown>;
	createQueryBuilder(): DeleteBuilder;
}

/** A unique-key violation: SQLite, PostgreSQL, MySQL/MariaDB (n8n 1.x). */
function isDuplicateRow(error: unknown): boolean {
	const { code, driverError } = error as { code?: unknown; driverError?: { code?: unknown } };
	const found = String(driverError?.code ?? code ?? '');
	return ['SQLITE_CONSTRAINT', 'SQLITE_CONSTRAINT_PRIMARYKEY', '23505', 'ER_DUP_ENTRY'].includes(
		found,
	);
}

let probed: Promise<Capability<ProcessedRows<object>>> | undefined;

export async function processedRows<V extends object>(): Promise<Capability<ProcessedRows<V>>> {
	probed ??= probe().catch(async (error: unknown) => {
		probed = undefined;
		return await Promise.reject(error);
	});
	return (await probed) as Capability<ProcessedRows<V>>;
}

async function probe(): Promise<Capability<ProcessedRows<object>>> {
	const repository = await n8nRepository<ProcessedDataRepository>(
		PROCESSED_ROWS,
		'ProcessedDataRepository',
		['workflowId', 'context', 'value', 'createdAt'],
	);
	if (!repository) return absent('no @n8n/db here');
	const context = repository.metadata?.columns?.find((c) => c.propertyName === 'context');
	const length = Number(context?.length ?? LONGEST_CONTEXT);
	if (length > 0 && length < LONGEST_CONTEXT)
		return await changed(
			PROCESSED_ROWS,
			`processed_data's context column holds ${length} characters, fewer than ${LONGEST_CONTEXT}`,
		);
	return found(rowsOf(repository));
}

/** The rows over a repository; every database failure other than a duplicate row is a fault. */
export function rowsOf(repository: ProcessedDataRepository): ProcessedRows<object> {
	const use = async <T>(run: () => Promise<T>) => await asFault(PROCESSED_ROWS, run);
	return {
		insert: async (scope, key, value) =>
			await use(
				async () =>
					await repository.insert({ ...rowKey(scope, key), value }).then(
						() => true,
						async (error: unknown) => (isDuplicateRow(error) ? false : await Promise.reject(error)),
					),
			),
		read: async (scope, key) =>
			await use(async () => (await repository.findOne({ where: rowKey(scope, key) }))?.value),
		update: async (scope, key, value) =>
			void (await use(async () => await repository.update(rowKey(scope, key), { value }))),
		delete: async (scope, key) =>
			void (await use(async () => await repository.delete(rowKey(scope, key)))),
		deleteOlder: async (scope, cutoff) =>
			void (await use(
				async () => await deleteOlder(repository, scope.workflowId, contextPrefix(scope), cutoff),
			)),
	};
}

async function deleteOlder(
	repository: ProcessedDataRepository,
	workflowId: string,
	contextPrefix: string,
	cutoff: number,
): Promise<unknown> {
	const { options, driver } = repository.manager.connection;
	// Column names escaped here: PostgreSQL folds unquoted names to lower case.
	const column = (name: string) => driver.escape(name);
	return await repository
		.createQueryBuilder()
		.delete()
		.where(`${column('workflowId')} = :workflowId`, { workflowId })
		.andWhere(`${column('context')} LIKE :pattern ESCAPE '\\'`, {
			pattern: `${likeLiteral(contextPrefix)}%`,
		})
		.andWhere(`${column('createdAt')} < :cutoff`, { cutoff: dateParameter(options.type, cutoff) })
		.execute();
}
