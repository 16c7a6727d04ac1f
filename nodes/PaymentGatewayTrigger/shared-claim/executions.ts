/**
 * Whether a delivery already has its execution, read from n8n's own database. Needed only when a
 * claim was left by a process that died before n8n's answer (the claim expired unsettled): the
 * process may have died before n8n created the execution (the delivery must run) or after (it must
 * not). The execution is the truth: its data holds the trigger's output item, whose `deliveryKey`
 * is stored as a JSON string (n8n flattens run data with `flatted`, one entry per string).
 */
/** Executions created this long before the orphaned claim still count (clocks of several hosts). */
export const CLOCK_MARGIN_MS = 5 * 60_000;

interface QueryBuilder {
	select(selection: string): QueryBuilder;
	innerJoin(entity: unknown, alias: string, condition: string): QueryBuilder;
	where(condition: string, parameters: object): QueryBuilder;
	andWhere(condition: string, parameters?: object): QueryBuilder;
	withDeleted(): QueryBuilder;
	limit(count: number): QueryBuilder;
	getRawOne(): Promise<unknown>;
}
interface ExecutionRepository {
	manager: { connection: { options: { type: string } } };
	createQueryBuilder(alias: string): QueryBuilder;
}

/** `text` inside a LIKE pattern, matched literally (escape character `\`). */
export const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** n8n stores SQLite datetimes as `YYYY-MM-DD HH:MM:SS.SSS` (UTC) text; PostgreSQL takes a Date. */
export const dateParameter = (type: string, at: number) =>
	type === 'postgres' ? new Date(at) : new Date(at).toISOString().replace('T', ' ').slice(0, 23);

/** One of n8n's repositories (`@n8n/db`) as the running n8n set it up; undefined outside n8n. */
export async function n8nRepository<T>(name: string): Promise<T | undefined> {
	try {
		// n8n's own package, resolved from n8n's install at run time; not installed for development.
		// eslint-disable-next-line import-x/no-unresolved
		const [{ Container }, db] = await Promise.all([import('@n8n/di'), import('@n8n/db')]);
		const token = (db as Record<string, unknown>)[name];
		if (!token) return undefined;
		return (Container as { get(token: unknown): unknown }).get(token) as T;
	} catch {
		return undefined;
	}
}

const executionRepository = async () =>
	await n8nRepository<ExecutionRepository>('ExecutionRepository');

/**
 * True when an execution of `workflowId` created since `since` (and up to `until`; both widened by
 * the clock margin) carries `deliveryKey`, deleted executions included (they ran). Undefined when
 * this n8n offers no execution repository to read; a database failure rejects.
 */
export async function executionCarries(
	workflowId: string,
	deliveryKey: string,
	since: number,
	until?: number,
): Promise<boolean | undefined> {
	const repository = await executionRepository();
	if (!repository) return undefined;
	const type = repository.manager.connection.options.type;
	const found = await repository
		.createQueryBuilder('execution')
		.withDeleted()
		.select('execution.id')
		.innerJoin('ExecutionData', 'data', 'data.executionId = execution.id')
		.where('execution.workflowId = :workflowId', { workflowId })
		.andWhere('execution.createdAt >= :since', {
			since: dateParameter(type, since - CLOCK_MARGIN_MS),
		})
		.andWhere('execution.createdAt <= :until', {
			until: dateParameter(type, (until ?? Date.now()) + CLOCK_MARGIN_MS),
		})
		.andWhere("data.data LIKE :pattern ESCAPE '\\'", {
			pattern: `%${likeLiteral(JSON.stringify(deliveryKey))}%`,
		})
		.limit(1)
		.getRawOne();
	return found !== undefined && found !== null;
}
