import { EventEmitter } from 'node:events';

import type { IWebhookFunctions } from 'n8n-workflow';

import {
	rowsOf,
	type ProcessedDataRepository,
} from '../../../../nodes/n8n-internals/processed-rows';
import type { EarlierRun } from '../../../../nodes/PaymentGatewayTrigger/exactly-once/earlier-run';
import type {
	DeliveryRows,
	RowDeps,
} from '../../../../nodes/PaymentGatewayTrigger/exactly-once/rows';
import {
	claimRow,
	pruneRows,
	releaseRow,
} from '../../../../nodes/PaymentGatewayTrigger/exactly-once/rows';
import { judgeDelivery } from '../../../../nodes/PaymentGatewayTrigger/exactly-once';
import { releaseInMemory } from '../../../../nodes/PaymentGatewayTrigger/exactly-once/memory';
import { fakeDoor } from '../../n8n-internals/fake-door';

type Value = { boot: string; since: number };

/**
 * n8n's processed_data table as the database enforces it (one row per workflow ID + context),
 * behind a TypeORM-like repository, used through the door's rows (n8n-internals/processed-rows.ts).
 */
class Table {
	readonly rows = new Map<string, Value>();

	failInsert?: Error;

	failDelete = 0;

	duplicateCode = 'SQLITE_CONSTRAINT';

	deleting?: Promise<void>;

	readonly deletes: Array<{ where: string[]; parameters: object[] }> = [];

	repository(): ProcessedDataRepository {
		const id = (w: { workflowId: string; context: string }) => `${w.workflowId}|${w.context}`;
		const deletes = this.deletes;
		return {
			manager: {
				connection: { options: { type: 'sqlite' }, driver: { escape: (n: string) => `"${n}"` } },
			},
			insert: async (row) => {
				if (this.failInsert) throw this.failInsert;
				if (this.rows.has(id(row)))
					throw Object.assign(new Error('duplicate'), {
						driverError: { code: this.duplicateCode },
					});
				this.rows.set(id(row), { ...(row.value as Value) });
			},
			findOne: async ({ where }) => {
				const value = this.rows.get(id(where));
				return value ? { value } : null;
			},
			update: async (where, { value }) => void this.rows.set(id(where), { ...(value as Value) }),
			delete: async (where) => {
				await this.deleting;
				if (this.failDelete > 0) {
					this.failDelete -= 1;
					throw new Error('SQLITE_BUSY: database is locked');
				}
				this.rows.delete(id(where));
			},
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
let earlierRun: jest.Mock<Promise<EarlierRun>, [number, number]>;
let deps: RowDeps;
const rowsOver = (t: Table) => rowsOf(t.repository()) as DeliveryRows;
const claim = async (key: string) => await claimRow(deps, 'wf1', 'node-1', key);
const endedElsewhere = () => table.rows.forEach((value) => (value.boot = 'a process that ended'));

beforeEach(() => {
	table = new Table();
	earlierRun = jest.fn(async (_since: number, _until: number): Promise<EarlierRun> => 'not run');
	deps = { rows: rowsOver(table), now: () => 1_000_000, earlierRun };
});

describe('regular mode: one processed_data row per delivery, written once', () => {
	test('the first copy takes the row; a later copy of this process is a duplicate', async () => {
		expect(await claim('k1')).toBe('taken');
		expect(await claim('k1')).toBe('done');
		expect(await claim('k2')).toBe('taken');
		expect(table.rows.size).toBe(2);
		expect(earlierRun).not.toHaveBeenCalled();
	});

	test('released (n8n answered with an error): the retry takes it again', async () => {
		expect(await claim('k1')).toBe('taken');
		await releaseRow(deps.rows, 'wf1', 'node-1', 'k1');
		expect(table.rows.size).toBe(0);
		expect(await claim('k1')).toBe('taken');
	});

	test("a row of a process that ended: n8n's executions around its claim decide", async () => {
		for (const key of ['ran', 'not-ran', 'unknown']) expect(await claim(key)).toBe('taken');
		endedElsewhere();
		earlierRun.mockImplementation(async () => 'ran');
		expect(await claim('ran')).toBe('done');
		earlierRun.mockImplementation(async () => 'not run');
		expect(await claim('not-ran')).toBe('taken');
		expect(await claim('not-ran')).toBe('done');
		// Cannot tell now (the check failed): ask again later (503), never "done", never run.
		earlierRun.mockImplementation(async () => 'cannot tell now');
		expect(await claim('unknown')).toBe('pending');
		// Not taken over: 'ran' and 'unknown' still name the process that ended.
		const ended = [...table.rows.values()].filter((row) => row.boot === 'a process that ended');
		expect(ended).toHaveLength(2);
		// From the claim until n8n surely answered or never will.
		expect(earlierRun.mock.calls).toEqual([
			[1_000_000, 1_300_000],
			[1_000_000, 1_300_000],
			[1_000_000, 1_300_000],
		]);
	});

	test("PostgreSQL's unique violation is a duplicate too; any other database error rejects", async () => {
		table.duplicateCode = '23505';
		expect(await claim('k1')).toBe('taken');
		expect(await claim('k1')).toBe('done');
		table.failInsert = Object.assign(new Error('SQLITE_BUSY: database is locked'), {
			code: 'SQLITE_BUSY',
		});
		// A fault of the capability, naming it and the n8n release.
		await expect(claim('k2')).rejects.toThrow(
			/database rows \(n8n's processed_data table\) \(n8n-core [\d.]+\): SQLITE_BUSY: database is locked/,
		);
	});

	test("old rows are deleted at most once a minute, only this trigger's, older than the window", async () => {
		const prune = async (now: number) =>
			await pruneRows(deps.rows, 'wf1', 'node_1%', 86_400_000, now);
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

	test('rows of two keys never share a context, and contexts fit the column (255)', async () => {
		await claim('x'.repeat(5000));
		await claim('x'.repeat(5001));
		const contexts = [...table.rows.keys()];
		expect(new Set(contexts).size).toBe(2);
		for (const context of contexts) expect(context.length).toBeLessThan(255);
	});
});

describe('the trigger with rows: a delivery n8n answered with an error is never called a duplicate', () => {
	const warnings: string[] = [];
	const delivery = async (key: string, answer?: number) => {
		const response = Object.assign(new EventEmitter(), { headersSent: false, statusCode: 200 });
		const ctx = {
			getNode: () => ({ id: 'node-1', name: 'Trigger' }),
			getWorkflow: () => ({ id: 'wf-answers' }),
			getResponseObject: () => response,
			logger: {
				warn: (message: string) => warnings.push(message),
				info: () => {},
				error: () => {},
			},
		} as unknown as IWebhookFunctions;
		const door = fakeDoor({ processedRows: rowsOf(table.repository()) });
		const verdict = await judgeDelivery(ctx, key, { duplicateWindowMinutes: 1440 }, door);
		if (verdict.run && answer !== undefined) {
			response.statusCode = answer;
			response.headersSent = true;
			response.emit('finish');
		}
		return verdict.run ? 'run' : 'duplicate' in verdict && verdict.duplicate ? 'duplicate' : 503;
	};

	test('answered 200: every later copy is a duplicate, by memory and then by its row', async () => {
		expect(await delivery('ok', 200)).toBe('run');
		expect(await delivery('ok')).toBe('duplicate');
		releaseInMemory({ workflowId: 'wf-answers', nodeId: 'node-1' }, 'ok');
		expect(await delivery('ok')).toBe('duplicate');
		expect(table.rows.size).toBe(1);
	});

	test('answered 500: a retry during the row’s deletion waits for it and runs', async () => {
		let finishDeleting = () => {};
		table.deleting = new Promise<void>((resolve) => (finishDeleting = resolve));
		expect(await delivery('failed', 500)).toBe('run');
		const retry = delivery('failed', 200);
		setTimeout(finishDeleting, 20);
		expect(await retry).toBe('run');
		expect(table.rows.size).toBe(1);
	});

	test('answered 500 and the deletion failed: 503 while it is tried again, then the retry runs', async () => {
		table.failDelete = 1;
		expect(await delivery('stuck', 500)).toBe('run');
		expect(await delivery('stuck')).toBe(503);
		expect(warnings.join('\n')).toMatch(/database is locked/);
		expect(await delivery('stuck', 200)).toBe('run');
		expect(await delivery('stuck')).toBe('duplicate');
	});
});
