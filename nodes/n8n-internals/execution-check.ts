/**
 * Capability "execution check": whether an execution carrying a delivery exists, read from n8n's
 * database (@n8n/db ExecutionRepository). The execution's data holds the trigger's output item,
 * whose `deliveryKey` is stored as a JSON string (n8n flattens run data with `flatted`, one entry
 * per string), so a LIKE over the stored data finds it.
 */
import { absent, asFault, changed, found, type Capability } from './load';
import { dateParameter, likeLiteral, n8nRepository, type EntityShape } from './repositories';

export const EXECUTION_CHECK = "execution check (n8n's execution repository)";

/** Executions created this long before or after the window still count (clocks of several hosts). */
export const CLOCK_MARGIN_MS = 5 * 60_000;

export interface ExecutionCheck {
	/**
	 * True when an execution of `workflowId` created between `since` and `until` (widened by the
	 * clock margin) carries `deliveryKey`, deleted executions included (they ran). Rejects with a
	 * fault when the database does not answer.
	 */
	carries(workflowId: string, deliveryKey: string, since: number, until: number): Promise<boolean>;
}

interface QueryBuilder {
	select(selection: string): QueryBuilder;
	innerJoin(entity: unknown, alias: string, condition: string): QueryBuilder;
	where(condition: string, parameters: object): QueryBuilder;
	andWhere(condition: string, parameters?: object): QueryBuilder;
	withDeleted(): QueryBuilder;
	limit(count: number): QueryBuilder;
	getRawOne(): Promise<unknown>;
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
		['id', 'workflowId', 'createdAt'],
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

async function carries(
	repository: ExecutionRepository,
	workflowId: string,
	deliveryKey: string,
	since: number,
	until: number,
): Promise<boolean> {
	const type = repository.manager.connection.options.type;
	const row = await repository
		.createQueryBuilder('execution')
		.withDeleted()
		.select('execution.id')
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
		.limit(1)
		.getRawOne();
	return row !== undefined && row !== null;
}
