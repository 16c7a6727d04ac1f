/**
 * Capability "execution check": whether a delivery's execution ran or will run, read from n8n's
 * database (@n8n/db ExecutionRepository) and, in queue mode, n8n's queue. The execution's data
 * holds the trigger's output item, whose `deliveryKey` is stored as a JSON string (n8n flattens run
 * data with `flatted`, one entry per string), so a LIKE over the stored data finds it.
 *
 * An execution written but never started (`startedAt` empty) counts only while its job is queued:
 * a webhook process killed after writing the execution and before queueing its job leaves one no
 * worker will ever run (n8n later marks it crashed), and that delivery must run again.
 */
import { absent, asFault, changed, found, type Capability } from './load';
import { queuedExecutions } from './queued-jobs';
import { queueRedis } from './queue-redis';
import { dateParameter, likeLiteral, n8nRepository, type EntityShape } from './repositories';

export const EXECUTION_CHECK = "execution check (n8n's execution repository)";

/** Executions created this long before or after the window still count (clocks of several hosts). */
export const CLOCK_MARGIN_MS = 5 * 60_000;

export interface ExecutionCheck {
	/**
	 * True when an execution of `workflowId` created between `since` and `until` (widened by the
	 * clock margin) carries `deliveryKey` and started, deleted executions included (they ran), or
	 * waits in n8n's queue. Rejects with a fault when the database or the queue does not answer.
	 */
	carries(workflowId: string, deliveryKey: string, since: number, until: number): Promise<boolean>;
}

interface QueryBuilder {
	select(selection: string, alias?: string): QueryBuilder;
	addSelect(selection: string, alias: string): QueryBuilder;
	innerJoin(entity: unknown, alias: string, condition: string): QueryBuilder;
	where(condition: string, parameters: object): QueryBuilder;
	andWhere(condition: string, parameters?: object): QueryBuilder;
	withDeleted(): QueryBuilder;
	limit(count: number): QueryBuilder;
	getRawMany(): Promise<Array<{ id: unknown; startedAt: unknown }>>;
}
export interface ExecutionRepository extends EntityShape {
	manager: {
		connection: {
			options: { type: string };
			/** TypeORM's metadata of an entity by name (throws when there is none). */
			getMetadata(name: string): NonNullable<EntityShape['metadata']>;
		};
	};
	createQueryBuilder(alias: string): QueryBuilder;
}

let probed: Promise<Capability<ExecutionCheck>> | undefined;

export async function executionCheck(): Promise<Capability<ExecutionCheck>> {
	probed ??= probe().catch(async (error: unknown) => {
		probed = undefined;
		return await Promise.reject(error);
	});
	return await probed;
}

async function probe(): Promise<Capability<ExecutionCheck>> {
	const repository = await n8nRepository<ExecutionRepository>(
		EXECUTION_CHECK,
		'ExecutionRepository',
		['id', 'workflowId', 'createdAt', 'startedAt'],
	);
	if (!repository) return absent('no @n8n/db here');
	await checkExecutionData(repository);
	return found({
		carries: async (workflowId, deliveryKey, since, until) =>
			await asFault(
				EXECUTION_CHECK,
				async () => await carries(repository, workflowId, deliveryKey, since, until),
			),
	});
}

/** The run data is joined from n8n's ExecutionData entity: its columns too, before any query. */
async function checkExecutionData(repository: ExecutionRepository): Promise<void> {
	let columns: string[];
	try {
		const metadata = repository.manager.connection.getMetadata('ExecutionData');
		columns = metadata.columns?.map((column) => column.propertyName) ?? [];
	} catch (error) {
		return await changed(EXECUTION_CHECK, `no ExecutionData entity (${(error as Error).message})`);
	}
	const missing = ['executionId', 'data'].filter((column) => !columns.includes(column));
	if (missing.length > 0)
		await changed(EXECUTION_CHECK, `ExecutionData has no ${missing.join(', ')}`);
}

/** Executions, deleted ones included (they ran), as rows of their id and start. */
const executions = (repository: ExecutionRepository) =>
	repository
		.createQueryBuilder('execution')
		.withDeleted()
		.select('execution.id', 'id')
		.addSelect('execution.startedAt', 'startedAt');

/** Executions asked about per delivery: more than one carries a key only after re-runs. */
const AT_MOST = 20;

async function carries(
	repository: ExecutionRepository,
	workflowId: string,
	deliveryKey: string,
	since: number,
	until: number,
): Promise<boolean> {
	const type = repository.manager.connection.options.type;
	const rows = await executions(repository)
		.innerJoin('ExecutionData', 'data', 'data.executionId = execution.id')
		.where('execution.workflowId = :workflowId', { workflowId })
		.andWhere('execution.createdAt >= :since', {
			since: dateParameter(type, since - CLOCK_MARGIN_MS),
		})
		.andWhere('execution.createdAt <= :until', {
			until: dateParameter(type, until + CLOCK_MARGIN_MS),
		})
		.andWhere("data.data LIKE :pattern ESCAPE '\\'", {
			pattern: `%${likeLiteral(JSON.stringify(deliveryKey))}%`,
		})
		.limit(AT_MOST)
		.getRawMany();
	if (rows.some((row) => row.startedAt !== null && row.startedAt !== undefined)) return true;
	const unstarted = rows.map((row) => String(row.id));
	if (unstarted.length === 0) return false;
	return await queuedOrStarted(repository, unstarted);
}

/**
 * Executions written but not started: queued (a worker will run them) or started since the first
 * look. The queue is read first: a job that leaves it has started before (n8n sets startedAt when
 * a worker takes it), so the second look at the database sees it.
 */
async function queuedOrStarted(repository: ExecutionRepository, ids: string[]): Promise<boolean> {
	const redis = await queueRedis();
	if (redis.found && (await queuedExecutions(redis.use, ids)).size > 0) return true;
	const started = await executions(repository)
		.where('execution.id IN (:...ids)', { ids })
		.andWhere('execution.startedAt IS NOT NULL')
		.limit(1)
		.getRawMany();
	return started.length > 0;
}
