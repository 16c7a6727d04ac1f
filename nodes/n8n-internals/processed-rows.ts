/**
 * Capability "processed-data rows": n8n's processed_data table (the table behind the Remove
 * Duplicates node; primary key workflow ID + context) through @n8n/db's ProcessedDataRepository,
 * one row per key: an atomic insert, a read, an update, a delete, and pruning by age.
 */
import { absent, asFault, found, type Capability } from './load';
import { dateParameter, likeLiteral, n8nRepository, type EntityShape } from './repositories';

export const PROCESSED_ROWS = "database rows (n8n's processed_data table)";

export interface RowKey {
	workflowId: string;
	context: string;
}

export interface ProcessedRows<V extends object> {
	/** true: the row was written; false: a row with this key exists (the database refused it). */
	insert(key: RowKey, value: V): Promise<boolean>;
	read(key: RowKey): Promise<V | undefined>;
	update(key: RowKey, value: V): Promise<void>;
	delete(key: RowKey): Promise<void>;
	/** Deletes the workflow's rows whose context starts with `contextPrefix`, created before `cutoff`. */
	deleteOlder(workflowId: string, contextPrefix: string, cutoff: number): Promise<void>;
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
	return found(rowsOf(repository));
}

/** The rows over a repository; every database failure other than a duplicate row is a fault. */
export function rowsOf(repository: ProcessedDataRepository): ProcessedRows<object> {
	const use = async <T>(run: () => Promise<T>) => await asFault(PROCESSED_ROWS, run);
	return {
		insert: async (key, value) =>
			await use(
				async () =>
					await repository.insert({ ...key, value }).then(
						() => true,
						async (error: unknown) => (isDuplicateRow(error) ? false : await Promise.reject(error)),
					),
			),
		read: async (key) => await use(async () => (await repository.findOne({ where: key }))?.value),
		update: async (key, value) =>
			void (await use(async () => await repository.update(key, { value }))),
		delete: async (key) => void (await use(async () => await repository.delete(key))),
		deleteOlder: async (workflowId, contextPrefix, cutoff) =>
			void (await use(
				async () => await deleteOlder(repository, workflowId, contextPrefix, cutoff),
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
