/**
 * n8n's TypeORM repositories (@n8n/db) as the running n8n set them up (@n8n/di's Container), and a
 * check of each one's entity against the columns this package reads or writes.
 */
import { changed, isAbsent, loadModule } from './load';

/** The part of a TypeORM repository's entity metadata the shape checks read. */
export interface EntityShape {
	metadata?: {
		tableName?: string;
		columns?: Array<{ propertyName: string; length?: string | number }>;
	};
}

/**
 * `name` from @n8n/db through n8n's container; undefined when @n8n/db cannot be loaded here (outside
 * n8n). An @n8n/db without it, or an entity without one of `columns`, rejects naming `capability`.
 */
export async function n8nRepository<T extends EntityShape>(
	capability: string,
	name: string,
	columns: string[],
): Promise<T | undefined> {
	const di = await loadModule('@n8n/di', async () => await import('@n8n/di'));
	// n8n's own package, resolved from n8n's install at run time; not installed for development.
	// eslint-disable-next-line import-x/no-unresolved
	const db = await loadModule('@n8n/db', async () => await import('@n8n/db'));
	if (isAbsent(di) || isAbsent(db)) return undefined;
	const token = (db as Record<string, unknown>)[name];
	if (!token) return await changed(capability, `@n8n/db has no ${name}`);
	let repository: T;
	try {
		repository = (di.Container as { get(token: unknown): unknown }).get(token) as T;
	} catch (error) {
		return await changed(capability, `${name} not set up by n8n (${(error as Error).message})`);
	}
	const have = new Set(repository.metadata?.columns?.map((column) => column.propertyName) ?? []);
	const missing = columns.filter((column) => !have.has(column));
	if (missing.length > 0)
		await changed(
			capability,
			`${name}'s table ${repository.metadata?.tableName ?? '?'} has no ${missing.join(', ')}`,
		);
	return repository;
}

/** n8n stores SQLite datetimes as `YYYY-MM-DD HH:MM:SS.SSS` (UTC) text; PostgreSQL takes a Date. */
export const dateParameter = (type: string, at: number) =>
	type === 'postgres' ? new Date(at) : new Date(at).toISOString().replace('T', ' ').slice(0, 23);

/** `text` inside a LIKE pattern, matched literally (escape character `\`). */
export const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
