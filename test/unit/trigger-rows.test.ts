import type { RowDeps, RowRepository } from '../../nodes/PaymentGatewayTrigger/rows';
import { claimRow, pruneRows, settleRow } from '../../nodes/PaymentGatewayTrigger/rows';

type Value = { state: 'pending' | 'done'; boot: string; since: number };

/** n8n's processed_data table as the database enforces it: one row per workflow ID + context. */
class Table {
	readonly rows = new Map<string, Value>();

	failInsert?: Error;

	duplicateCode = 'SQLITE_CONSTRAINT';

	readonly deletes: Array<{ where: string[]; parameters: object[] }> = [];

	repository(): RowRepository {
		const id = (w: { workflowId: string; context: string }) => `${w.workflowId}|${w.context}`;
		const deletes = this.deletes;
		return {
			manager: {
				connection: { options: { type: 'sqlite' }, driver: { escape: (n) => `"${n}"` } },
			},
			insert: async (row) => {
				if (this.failInsert) throw this.failInsert;
				if (this.rows.has(id(row)))
					throw Object.assign(new Error('duplicate'), {
						driverError: { code: this.duplicateCode },
					});
				this.rows.set(id(row), { ...row.value });
			},
			findOne: async ({ where }) => {
				const value = this.rows.get(id(where));
				return value ? { value } : null;
			},
			update: async (where, { value }) => void this.rows.set(id(where), { ...value }),
			delete: async (where) => void this.rows.delete(id(where)),
			createQueryBuilder() {
				const query = { where: [] as string[], parameters: [] as object[] };
				const builder = {
					delete: () => builder,
					where: (condition: string, parameters: object) => {
						query.where.push(condition);
						query.parameters.push(parameters);
						return builder;
					},
					andWhere: (condition: string, parameters: object) => builder.where(condition, parameters),
					execute: async () => void deletes.push(query),
				};
				return builder;
			},
		};
	}
}

let table: Table;
let ranSince: jest.Mock<Promise<boolean | undefined>, [number]>;
let deps: RowDeps;
const claim = async (key: string) => await claimRow(deps, 'wf1', 'node-1', key);

beforeEach(() => {
	table = new Table();
	ranSince = jest.fn(async () => false);
	deps = { repository: table.repository(), now: () => 1_000_000, ranSince };
});

describe('regular mode: one processed_data row per delivery', () => {
	test('the first copy takes the row; a copy while it is pending here is in flight; after n8n answered, a duplicate', async () => {
		expect(await claim('k1')).toBe('taken');
		expect(await claim('k1')).toBe('pending');
		await settleRow(deps.repository, 'wf1', 'node-1', 'k1', true, 1_000_000);
		expect(await claim('k1')).toBe('done');
		expect(await claim('k2')).toBe('taken');
		expect(table.rows.size).toBe(2);
		expect(ranSince).not.toHaveBeenCalled();
	});

	test('n8n answered with an error: the row goes, and the retry runs', async () => {
		expect(await claim('k1')).toBe('taken');
		await settleRow(deps.repository, 'wf1', 'node-1', 'k1', false, 1_000_000);
		expect(table.rows.size).toBe(0);
		expect(await claim('k1')).toBe('taken');
	});

	test("a row left pending by a process that ended: n8n's executions decide", async () => {
		expect(await claim('ran')).toBe('taken');
		expect(await claim('not-ran')).toBe('taken');
		expect(await claim('unknown')).toBe('taken');
		// What a restart leaves: the rows of another process.
		for (const value of table.rows.values()) value.boot = 'a process that ended';
		ranSince.mockImplementation(async () => true);
		expect(await claim('ran')).toBe('done');
		ranSince.mockImplementation(async () => false);
		expect(await claim('not-ran')).toBe('taken');
		expect(await claim('not-ran')).toBe('pending');
		ranSince.mockImplementation(async () => undefined);
		expect(await claim('unknown')).toBe('done');
		expect(ranSince.mock.calls.map(([since]) => since)).toEqual([1_000_000, 1_000_000, 1_000_000]);
		ranSince.mockImplementation(async () => {
			throw new Error('database is not ready');
		});
		table.rows.forEach((value) => (value.boot = 'a process that ended'));
		table.rows.forEach((value) => (value.state = 'pending'));
		await expect(claim('ran')).rejects.toThrow('database is not ready');
	});

	test("PostgreSQL's unique violation is a duplicate too; any other database error rejects", async () => {
		table.duplicateCode = '23505';
		expect(await claim('k1')).toBe('taken');
		expect(await claim('k1')).toBe('pending');
		table.failInsert = Object.assign(new Error('SQLITE_BUSY: database is locked'), {
			code: 'SQLITE_BUSY',
		});
		await expect(claim('k2')).rejects.toThrow('database is locked');
	});

	test("old rows are deleted at most once a minute, only this trigger's, older than the window", async () => {
		const prune = async (now: number) =>
			await pruneRows(deps.repository, 'wf1', 'node_1%', 86_400_000, now);
		await prune(Date.UTC(2026, 10, 27, 12));
		await prune(Date.UTC(2026, 10, 27, 12, 0, 59));
		expect(table.deletes).toHaveLength(1);
		await prune(Date.UTC(2026, 10, 27, 12, 1));
		expect(table.deletes).toHaveLength(2);
		expect(table.deletes[0]).toEqual({
			where: [
				'"workflowId" = :workflowId',
				`"context" LIKE :pattern ESCAPE '\\'`,
				'"createdAt" < :cutoff',
			],
			parameters: [
				{ workflowId: 'wf1' },
				{ pattern: 'n:node\\_1\\%:delivery:%' },
				{ cutoff: '2026-11-26 12:00:00.000' },
			],
		});
	});
});

test('rows of two keys never share a context, and contexts fit the column (255)', async () => {
	await claim('x'.repeat(5000));
	await claim('x'.repeat(5001));
	const contexts = [...table.rows.keys()];
	expect(new Set(contexts).size).toBe(2);
	for (const context of contexts) expect(context.length).toBeLessThan(255);
});
