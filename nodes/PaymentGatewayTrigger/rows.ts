/**
 * Regular mode's durable record of accepted deliveries: one row per delivery in n8n's
 * processed_data table (primary key: workflow ID + context), taken with one INSERT before n8n's
 * answer and not written again. The database refuses a second row with the same key, so the claim
 * is atomic for every process on that database, and it costs one small write where n8n's
 * processed-data list (what the Remove Duplicates node uses) is read and written whole, all 10,000
 * keys, for each delivery.
 *
 * A row names the process that took it (a new ID per n8n start). n8n answered with an error (no
 * execution): the row is deleted, so the service's retry runs. A row of this process that is still
 * there was answered (a copy in flight is stopped by process memory first). A row of another process
 * may have been left by one that ended before n8n's answer: n8n's executions created around the
 * claim tell whether the delivery ran. Rows older than the duplicate window are deleted, at most
 * once a minute per trigger.
 */
import { createHash, randomUUID } from 'node:crypto';

import { scopeKey } from './ledger';
import { dateParameter, likeLiteral, n8nRepository } from './shared-claim/executions';

interface RowValue {
	/** The process that took the row (a new one per n8n start). */
	boot: string;
	/** When the row was taken (ms). */
	since: number;
}
interface RowKey {
	workflowId: string;
	context: string;
}
interface DeleteBuilder {
	delete(): DeleteBuilder;
	where(condition: string, parameters: object): DeleteBuilder;
	andWhere(condition: string, parameters: object): DeleteBuilder;
	execute(): Promise<unknown>;
}
/** The part of n8n's ProcessedDataRepository (TypeORM) the rows use. */
export interface RowRepository {
	manager: { connection: { options: { type: string }; driver: { escape(name: string): string } } };
	insert(row: RowKey & { value: RowValue }): Promise<unknown>;
	findOne(options: { where: RowKey }): Promise<{ value: RowValue } | null>;
	update(where: RowKey, change: { value: RowValue }): Promise<unknown>;
	delete(where: RowKey): Promise<unknown>;
	createQueryBuilder(): DeleteBuilder;
}

/** 'pending': the row went while it was read (n8n answered that copy with an error). */
export type RowClaim = 'taken' | 'done' | 'pending';

const BOOT = randomUUID();
const PRUNE_EVERY_MS = 60_000;
const lastPruned = new Map<string, number>();

let repository: Promise<RowRepository | undefined> | undefined;

/** n8n's processed-data repository, or undefined outside n8n (the harness): then the list is used. */
export async function rowRepository(): Promise<RowRepository | undefined> {
	repository ??= n8nRepository<RowRepository>('ProcessedDataRepository');
	return await repository;
}

/** The rows of one trigger node share a prefix; n8n's own contexts are `n:<node ID>` exactly. */
const prefix = (nodeId: string) => `n:${nodeId}:delivery:`;
const rowKey = (workflowId: string, nodeId: string, key: string): RowKey => ({
	workflowId,
	context: prefix(nodeId) + createHash('sha256').update(key).digest('base64url'),
});

/** A unique-key violation: SQLite, PostgreSQL, MySQL/MariaDB (n8n 1.x). */
function isDuplicateRow(error: unknown): boolean {
	const { code, driverError } = error as { code?: unknown; driverError?: { code?: unknown } };
	const found = String(driverError?.code ?? code ?? '');
	return ['SQLITE_CONSTRAINT', 'SQLITE_CONSTRAINT_PRIMARYKEY', '23505', 'ER_DUP_ENTRY'].includes(
		found,
	);
}

export interface RowDeps {
	repository: RowRepository;
	now(): number;
	/**
	 * Whether an execution carrying the delivery was created between `since` and `until`
	 * (undefined: cannot tell).
	 */
	ranBetween(since: number, until: number): Promise<boolean | undefined>;
}

/** n8n creates the execution within this time of the claim, or never (MAX_PENDING_MS). */
const ANSWER_WITHIN_MS = 300_000;

/** Takes the delivery's row: 'taken' (run it), 'done' (a duplicate) or 'pending' (ask again). */
export async function claimRow(
	deps: RowDeps,
	workflowId: string,
	nodeId: string,
	key: string,
): Promise<RowClaim> {
	const where = rowKey(workflowId, nodeId, key);
	const value: RowValue = { boot: BOOT, since: deps.now() };
	// Any database error other than the duplicate row rejects: the caller answers 503.
	const inserted = await deps.repository.insert({ ...where, value }).then(
		() => true,
		async (error: unknown) => (isDuplicateRow(error) ? false : await Promise.reject(error)),
	);
	if (inserted) return 'taken';
	const held = (await deps.repository.findOne({ where }))?.value;
	if (!held) return 'pending';
	if (held.boot === BOOT) return 'done';
	// Taken by another process, maybe one that ended before n8n answered: did its execution start?
	if ((await deps.ranBetween(held.since, held.since + ANSWER_WITHIN_MS)) !== false) return 'done';
	await deps.repository.update(where, { value });
	return 'taken';
}

/** After n8n answered with an error (no execution): the row goes, so the service's retry runs. */
export async function releaseRow(
	repository: RowRepository,
	workflowId: string,
	nodeId: string,
	key: string,
): Promise<void> {
	await repository.delete(rowKey(workflowId, nodeId, key));
}

/** Deletes the trigger's rows older than the window; at most once a minute per trigger node. */
export async function pruneRows(
	repository: RowRepository,
	workflowId: string,
	nodeId: string,
	windowMs: number,
	now: number,
): Promise<void> {
	const id = scopeKey({ workflowId, nodeId });
	if (now - (lastPruned.get(id) ?? 0) < PRUNE_EVERY_MS) return;
	lastPruned.set(id, now);
	const { options, driver } = repository.manager.connection;
	// Column names escaped here: PostgreSQL folds unquoted names to lower case.
	const column = (name: string) => driver.escape(name);
	await repository
		.createQueryBuilder()
		.delete()
		.where(`${column('workflowId')} = :workflowId`, { workflowId })
		.andWhere(`${column('context')} LIKE :pattern ESCAPE '\\'`, {
			pattern: `${likeLiteral(prefix(nodeId))}%`,
		})
		.andWhere(`${column('createdAt')} < :cutoff`, {
			cutoff: dateParameter(options.type, now - windowMs),
		})
		.execute();
}
