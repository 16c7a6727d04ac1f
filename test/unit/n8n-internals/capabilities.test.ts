// Each capability of the door as a given n8n offers it: found, absent (the documented mode without
// it) or changed (an error naming the capability and the n8n release). n8n's modules are replaced
// per test with jest.doMock; each test takes a fresh copy of the door (its probes are cached).
import type { IExecuteFunctions, IWebhookFunctions } from 'n8n-workflow';

type Door = typeof import('../../../nodes/n8n-internals');

const notFound = (name: string) => () => {
	throw Object.assign(new Error(`Cannot find module '${name}' from 'x.js'`), {
		code: 'MODULE_NOT_FOUND',
	});
};

/** A fresh door with n8n's modules as given (a factory each); n8n's version 2.41.1 by default. */
function doorWith(modules: Record<string, () => unknown>): Door {
	jest.resetModules();
	const all: Record<string, () => unknown> = {
		'n8n/package.json': () => ({ version: '2.41.1' }),
		'@n8n/db': notFound('@n8n/db'),
		ioredis: notFound('ioredis'),
		...modules,
	};
	for (const [name, factory] of Object.entries(all)) jest.doMock(name, factory, { virtual: true });
	return require('../../../nodes/n8n-internals');
}
afterEach(() => {
	for (const name of [
		'n8n/package.json',
		'n8n-core/package.json',
		'@n8n/db',
		'ioredis',
		'@n8n/di',
		'@n8n/config',
		'n8n-core',
	])
		jest.dontMock(name);
});

/** @n8n/di's Container over a map of tokens. */
const container = (entries: Array<[unknown, unknown]>) => ({
	Container: { get: (token: unknown) => new Map(entries).get(token), entries: () => entries },
});

const REDIS = {
	host: 'localhost',
	port: 6379,
	db: 0,
	username: '',
	password: '',
	tls: false,
	tlsConfig: { serverName: '', rejectUnauthorized: true },
	clusterNodes: '',
	dualStack: false,
};
const configOf = (mode: string, redis: object = REDIS) => {
	class GlobalConfig {}
	const config = {
		executions: { mode },
		redis: { prefix: 'n8n' },
		queue: { bull: { prefix: 'bull', redis } },
	};
	return { di: container([[GlobalConfig, config]]), config: { GlobalConfig } };
};

describe('queue Redis', () => {
	test('absent outside n8n and in regular mode', async () => {
		const outside = doorWith({
			'@n8n/di': notFound('@n8n/di'),
			'@n8n/config': notFound('@n8n/config'),
		});
		expect(await outside.n8nInternals.queueRedis()).toEqual({
			found: false,
			why: 'not inside n8n',
		});
		const { di, config } = configOf('regular');
		const regular = doorWith({ '@n8n/di': () => di, '@n8n/config': () => config });
		expect(await regular.n8nInternals.queueRedis()).toEqual({ found: false, why: 'regular mode' });
	});

	test('a renamed setting: an error naming the capability, the release and the setting', async () => {
		const { host: _host, ...renamed } = REDIS;
		const { di, config } = configOf('queue', { ...renamed, hostname: 'localhost' });
		const door = doorWith({ '@n8n/di': () => di, '@n8n/config': () => config });
		await expect(door.n8nInternals.queueRedis()).rejects.toThrow(
			/n8n 2\.41\.1 is not what the Payment Gateway package knows for "queue Redis.*queue\.bull\.redis\.host/,
		);
	});

	test('ioredis missing in queue mode: changed, not "Redis could not be reached"', async () => {
		const { di, config } = configOf('queue');
		const door = doorWith({ '@n8n/di': () => di, '@n8n/config': () => config });
		await expect(door.n8nInternals.queueRedis()).rejects.toThrow(/queue Redis.*ioredis.*not found/);
	});

	test("found: n8n's settings reach ioredis; a failed command is a fault naming the capability", async () => {
		const made: object[] = [];
		class Redis {
			status = 'ready';

			static Cluster = class {};

			constructor(options: object) {
				made.push(options);
			}

			on() {}

			async eval() {
				throw new Error('Connection is closed.');
			}
		}
		const { di, config } = configOf('queue');
		const door = doorWith({
			'@n8n/di': () => di,
			'@n8n/config': () => config,
			ioredis: () => ({ __esModule: true, default: Redis }),
		});
		const redis = await door.n8nInternals.queueRedis();
		if (!redis.found) throw new Error(redis.why);
		expect(redis.use.prefix).toBe('n8n');
		expect(made).toHaveLength(0); // connected on first use only
		await expect(redis.use.eval('return 1', 0)).rejects.toThrow(
			'queue Redis (n8n settings + ioredis) (n8n 2.41.1): Connection is closed.',
		);
		expect(made).toEqual([expect.objectContaining({ host: 'localhost', port: 6379, db: 0 })]);
	});
});

/**
 * A TypeORM repository with the given columns whose queries answer `answers` in turn (an Error
 * rejects; none left: no rows); its connection knows n8n's ExecutionData entity with `dataColumns`.
 */
const repository = (
	columns: string[],
	answers: Array<object[] | Error> = [],
	dataColumns = ['executionId', 'data'],
) => {
	const shape = (names: string[]) => ({
		columns: names.map((propertyName) => ({ propertyName })),
	});
	const builder: Record<string, unknown> = {};
	for (const step of [
		'select',
		'addSelect',
		'innerJoin',
		'where',
		'andWhere',
		'withDeleted',
		'limit',
	])
		builder[step] = () => builder;
	builder.getRawMany = async () => {
		const answer = answers.shift() ?? [];
		return answer instanceof Error ? await Promise.reject(answer) : answer;
	};
	return {
		metadata: { tableName: 'table', ...shape(columns) },
		manager: {
			connection: {
				options: { type: 'sqlite' },
				getMetadata: (name: string) => {
					if (name !== 'ExecutionData') throw new Error(`No metadata for "${name}" was found.`);
					return shape(dataColumns);
				},
			},
		},
		createQueryBuilder: () => builder,
	};
};
const dbWith = (name: string, repo?: object) => {
	const token = class {};
	return {
		'@n8n/di': () => container(repo ? [[token, repo]] : []),
		'@n8n/db': () => (repo ? { [name]: token } : {}),
		'@n8n/config': notFound('@n8n/config'),
	};
};

describe('execution check', () => {
	test('absent where @n8n/db cannot be loaded (outside n8n)', async () => {
		expect((await doorWith({}).n8nInternals.executionCheck()).found).toBe(false);
	});

	test('a missing repository: changed, naming it', async () => {
		const door = doorWith(dbWith('ExecutionRepository'));
		await expect(door.n8nInternals.executionCheck()).rejects.toThrow(
			/n8n 2\.41\.1 .*"execution check.*@n8n\/db has no ExecutionRepository/,
		);
	});

	test('a changed table: changed, naming the column', async () => {
		const door = doorWith(dbWith('ExecutionRepository', repository(['id', 'workflowId'])));
		await expect(door.n8nInternals.executionCheck()).rejects.toThrow(/has no createdAt, startedAt/);
		const columns = ['id', 'workflowId', 'createdAt', 'startedAt'];
		const runData = repository(columns, [], ['executionId', 'runData']);
		const renamed = doorWith(dbWith('ExecutionRepository', runData));
		await expect(renamed.n8nInternals.executionCheck()).rejects.toThrow(
			/n8n 2\.41\.1 .*"execution check.*ExecutionData has no data/,
		);
	});

	test('found: an execution carrying the key counts when it started; a database failure is a fault', async () => {
		const columns = ['id', 'workflowId', 'createdAt', 'startedAt'];
		const unstarted = { id: '7', startedAt: null };
		for (const [answers, ran] of [
			[[[{ id: '7', startedAt: '2026-11-28 07:00:00.000' }]], true],
			[[[]], false],
			// Written, never started, no queue here (regular mode): not a run.
			[[[unstarted], []], false],
			// Written, started between the two looks.
			[[[unstarted], [{ id: '7', startedAt: '2026-11-28 07:00:01.000' }]], true],
		] as const) {
			const repo = repository(
				columns,
				answers.map((rows) => [...rows]),
			);
			const door = doorWith(dbWith('ExecutionRepository', repo));
			const check = await door.n8nInternals.executionCheck();
			if (!check.found) throw new Error(check.why);
			expect(await check.use.carries('wf', 'k', 0, 1)).toBe(ran);
		}
		const busy = repository(columns, [new Error('Database is not ready!')]);
		const check = await doorWith(dbWith('ExecutionRepository', busy)).n8nInternals.executionCheck();
		if (!check.found) throw new Error(check.why);
		await expect(check.use.carries('wf', 'k', 0, 1)).rejects.toThrow(
			"execution check (n8n's execution repository) (n8n 2.41.1): Database is not ready!",
		);
	});

	test("queue mode: an execution written but not started counts while its job is in n8n's queue", async () => {
		const columns = ['id', 'workflowId', 'createdAt', 'startedAt'];
		const asked: unknown[][] = [];
		for (const [queued, ran] of [
			[['7'], true],
			[[], false],
		] as const) {
			class Redis {
				status = 'ready';

				static Cluster = class {};

				on() {}

				async eval(...args: unknown[]) {
					asked.push(args.slice(1));
					return [...queued];
				}
			}
			const { di, config } = configOf('queue');
			const token = class {};
			const repo = repository(columns, [[{ id: '7', startedAt: null }], []]);
			const door = doorWith({
				'@n8n/di': () => container([...di.Container.entries(), [token, repo]]),
				'@n8n/config': () => config,
				'@n8n/db': () => ({ ExecutionRepository: token }),
				ioredis: () => ({ __esModule: true, default: Redis }),
			});
			const check = await door.n8nInternals.executionCheck();
			if (!check.found) throw new Error(check.why);
			expect(await check.use.carries('wf', 'k', 0, 1)).toBe(ran);
		}
		// One script, routed by the default queue's key, Bull's prefix and the execution asked about.
		expect(asked[0]).toEqual([1, 'bull:jobs:id', 'bull', '7']);
	});
});

describe('processed-data rows', () => {
	test('absent outside n8n; a missing repository or a changed table: changed', async () => {
		expect((await doorWith({}).n8nInternals.processedRows()).found).toBe(false);
		await expect(
			doorWith(dbWith('ProcessedDataRepository')).n8nInternals.processedRows(),
		).rejects.toThrow(/"database rows.*@n8n\/db has no ProcessedDataRepository/);
		const renamed = repository(['workflowId', 'key', 'value', 'createdAt']);
		await expect(
			doorWith(dbWith('ProcessedDataRepository', renamed)).n8nInternals.processedRows(),
		).rejects.toThrow(/n8n 2\.41\.1 .*"database rows.*table has no context/);
	});

	test("a context column too short for this package's rows: changed, with both lengths", async () => {
		const narrow = repository(['workflowId', 'context', 'value', 'createdAt']);
		const columns = (narrow as { metadata: { columns: Array<{ length?: string }> } }).metadata
			.columns;
		columns[1].length = '64';
		await expect(
			doorWith(dbWith('ProcessedDataRepository', narrow)).n8nInternals.processedRows(),
		).rejects.toThrow(/context column holds 64 characters, fewer than 103/);
		columns[1].length = '255';
		expect(
			(await doorWith(dbWith('ProcessedDataRepository', narrow)).n8nInternals.processedRows())
				.found,
		).toBe(true);
	});
});

describe("n8n-core's processed-data list, and n8n's version", () => {
	test('absent where n8n did not set it up; changed without the service', async () => {
		const door = doorWith({});
		expect(await door.n8nInternals.processedList()).toEqual({
			found: false,
			why: expect.stringMatching(/^not set up/),
		});
		const without = doorWith({ 'n8n-core': () => ({}) });
		await expect(without.n8nInternals.processedList()).rejects.toThrow(
			/"processed-data list.*DataDeduplicationService/,
		);
	});

	test("n8n's release from n8n's install, else n8n-core's", async () => {
		expect(await doorWith({}).n8nInternals.version()).toBe('n8n 2.41.1');
		const outside = doorWith({ 'n8n/package.json': notFound('n8n/package.json') });
		expect(await outside.n8nInternals.version()).toMatch(/^n8n-core \d+\.\d+\.\d+$/);
	});
});

describe('resume engine', () => {
	test('absent where n8n-core cannot be loaded', async () => {
		const outside = doorWith({
			'n8n-core': notFound('n8n-core'),
			'n8n-core/package.json': notFound('n8n-core/package.json'),
		});
		expect(await outside.n8nInternals.resumeEngine()).toEqual({
			found: false,
			why: 'no n8n-core here',
		});
	});

	test("found: asks n8n-core's own engine", async () => {
		// The n8n-core this repository develops against (2.41) passes on every output.
		expect(await doorWith({}).n8nInternals.resumeEngine()).toEqual({
			found: true,
			use: { everyOutput: true },
		});
	});
});

describe('stored credential', () => {
	const ctx = (additionalData?: object) =>
		({
			additionalData,
			getNode: () => ({ credentials: { webhookApi: { id: '1', name: 'W' } } }),
			getMode: () => 'webhook',
		}) as unknown as IWebhookFunctions;

	test("absent without n8n's credentials helper; found reads the credential as stored", async () => {
		const door = doorWith({});
		expect(door.n8nInternals.storedCredential(ctx()).found).toBe(false);
		expect(door.n8nInternals.storedCredential(ctx({ credentialsHelper: {} })).found).toBe(false);
		const getDecrypted = jest.fn(async () => ({ secret: 's' }));
		const stored = door.n8nInternals.storedCredential(ctx({ credentialsHelper: { getDecrypted } }));
		if (!stored.found) throw new Error(stored.why);
		expect(await stored.use.read('webhookApi')).toEqual({ secret: 's' });
		expect(getDecrypted.mock.calls[0]).toEqual([
			expect.anything(),
			{ id: '1', name: 'W' },
			'webhookApi',
			'webhook',
			undefined,
			true,
		]);
	});
});

describe("n8n's SSRF setting", () => {
	const withSsrf = (ssrfProtection: unknown) => {
		class GlobalConfig {}
		const config = ssrfProtection === undefined ? {} : { ssrfProtection };
		return doorWith({
			'@n8n/di': () => container([[GlobalConfig, config]]),
			'@n8n/config': () => ({ GlobalConfig }),
		});
	};

	test("n8n's parsed switch, on or off; an n8n without SSRF protection (1.x): off", async () => {
		expect(await withSsrf({ enabled: true }).n8nInternals.ssrfSetting()).toEqual({
			found: true,
			use: { enabled: true },
		});
		expect(await withSsrf({ enabled: true }).ssrfProtectionOn()).toBe(true);
		expect(await withSsrf({ enabled: false }).ssrfProtectionOn()).toBe(false);
		expect(await withSsrf(undefined).n8nInternals.ssrfSetting()).toEqual({
			found: true,
			use: { enabled: false },
		});
	});

	test('outside n8n: absent, the environment read as n8n reads it; a changed setting: named', async () => {
		const outside = doorWith({
			'@n8n/di': notFound('@n8n/di'),
			'@n8n/config': notFound('@n8n/config'),
		});
		expect((await outside.n8nInternals.ssrfSetting()).found).toBe(false);
		expect(await outside.ssrfProtectionOn()).toBe(false);
		await expect(withSsrf({ enabled: 'yes' }).n8nInternals.ssrfSetting()).rejects.toThrow(
			/"SSRF setting.*ssrfProtection\.enabled is not a yes\/no setting/,
		);
	});
});

describe('time-out look', () => {
	/** A waiting execution as n8n loads it at time-out: `node` on top of its stack. */
	const waitingRun = (node: object, context?: object) => ({
		waitTill: new Date(),
		executionData: {
			nodeExecutionStack: [{ node, data: { main: [[{ json: {} }]] }, source: null }],
			contextData: context ? { 'node:Wait': context } : {},
			waitingExecution: {},
			waitingExecutionSource: {},
		},
		resultData: { lastNodeExecuted: 'Wait', runData: { Wait: [{}] } },
	});
	type Engine = { handleWaitingState(workflow: unknown): void };
	const engineFor = (run: object): Engine => {
		const { WorkflowExecute } = require('n8n-core') as {
			WorkflowExecute: new (a: object, m: string, r: object) => Engine;
		};
		return new WorkflowExecute({}, 'webhook', run);
	};

	test('absent where n8n-core cannot be loaded', async () => {
		const outside = doorWith({
			'n8n-core': notFound('n8n-core'),
			'n8n-core/package.json': notFound('n8n-core/package.json'),
		});
		expect(await outside.n8nInternals.timeOutLook()).toEqual({
			found: false,
			why: 'no n8n-core here',
		});
	});

	test('changed: no handleWaitingState, or one that no longer disables the waiting node', async () => {
		const without = doorWith({ 'n8n-core': () => ({ WorkflowExecute: class {} }) });
		await expect(without.n8nInternals.timeOutLook()).rejects.toThrow(
			/n8n 2\.41\.1 is not what the Payment Gateway package knows for "time-out look .*handleWaitingState missing/,
		);
		class KeepsNodeEnabled {
			runExecutionData!: { waitTill?: Date };

			handleWaitingState() {
				this.runExecutionData.waitTill = undefined;
			}
		}
		const other = doorWith({ 'n8n-core': () => ({ WorkflowExecute: KeepsNodeEnabled }) });
		await expect(other.n8nInternals.timeOutLook()).rejects.toThrow(
			/"time-out look .*no longer disables the waiting node/,
		);
		// The engine is left as it was.
		expect(KeepsNodeEnabled.prototype.handleWaitingState.name).toBe('handleWaitingState');
	});

	test("found in n8n-core's own engine: a selected waiting node is left enabled, every other one disabled", async () => {
		const door = doorWith({});
		const look = await door.n8nInternals.timeOutLook();
		if (!look.found) throw new Error(look.why);
		const seen: object[] = [];
		look.use.select((waiting) => {
			seen.push(waiting);
			return waiting.context?.note === 'mine';
		});
		const selected = waitingRun({ name: 'Wait', type: 'x.node' }, { note: 'mine' });
		engineFor(selected).handleWaitingState({});
		expect(selected.executionData.nodeExecutionStack[0].node).toEqual({
			name: 'Wait',
			type: 'x.node',
		});
		// The rest as n8n does it: the wait ended, the waiting run dropped.
		expect([selected.waitTill, selected.resultData.runData.Wait]).toEqual([undefined, []]);
		expect(seen).toEqual([{ node: { name: 'Wait', type: 'x.node' }, context: { note: 'mine' } }]);

		const other = waitingRun({ name: 'Wait', type: 'x.node' });
		engineFor(other).handleWaitingState({});
		expect(other.executionData.nodeExecutionStack[0].node).toMatchObject({ disabled: true });

		// A webhook resume (n8n sets waitTill aside first) asks no selector.
		const resumed = { ...waitingRun({ name: 'Wait' }, { note: 'mine' }), waitTill: undefined };
		seen.length = 0;
		engineFor(resumed).handleWaitingState({});
		expect(seen).toEqual([]);
	});

	test("a selector that throws leaves n8n's time-out as it is; two copies of the package wrap once", async () => {
		// n8n's time-out as n8n-core 2.41 does it, on one engine both copies load.
		class Engine {
			constructor(readonly runExecutionData: ReturnType<typeof waitingRun>) {}

			handleWaitingState() {
				const data = this.runExecutionData;
				if (!data.waitTill) return;
				data.waitTill = undefined as unknown as Date;
				(data.executionData.nodeExecutionStack[0].node as { disabled?: boolean }).disabled = true;
				const runData = data.resultData.runData as Record<string, unknown[]>;
				runData[data.resultData.lastNodeExecuted].pop();
			}
		}
		const core = () => ({ WorkflowExecute: Engine });
		const first = await doorWith({ 'n8n-core': core }).n8nInternals.timeOutLook();
		if (!first.found) throw new Error(first.why);
		first.use.select(() => {
			throw new Error('broken');
		});
		const run = waitingRun({ name: 'Wait' }, { note: 'mine' });
		new Engine(run).handleWaitingState();
		expect(run.executionData.nodeExecutionStack[0].node).toMatchObject({ disabled: true });
		const wrapped = Engine.prototype.handleWaitingState;
		expect(wrapped.name).not.toBe('handleWaitingState');

		const second = await doorWith({ 'n8n-core': core }).n8nInternals.timeOutLook();
		if (!second.found) throw new Error(second.why);
		second.use.select((waiting) => waiting.context?.note === 'mine');
		expect(Engine.prototype.handleWaitingState).toBe(wrapped);
		const again = waitingRun({ name: 'Wait' }, { note: 'mine' });
		new Engine(again).handleWaitingState();
		expect(again.executionData.nodeExecutionStack[0].node).toEqual({ name: 'Wait' });
		expect(again.resultData.runData.Wait).toEqual([]);
	});
});

describe('execution custom data', () => {
	const metadataRepository = (rows: Map<string, string>, fail?: Error) => ({
		metadata: {
			tableName: 'execution_metadata',
			...shapeOf(['id', 'executionId', 'key', 'value']),
		},
		findOne: async ({ where }: { where: { executionId: string; key: string } }) => {
			if (fail) throw fail;
			const value = rows.get(`${where.executionId}/${where.key}`);
			return value === undefined ? null : { value };
		},
		upsert: async (
			written: Array<{ executionId: string; key: string; value: string }>,
			options: object,
		) => {
			if (fail) throw fail;
			expect(options).toEqual({ conflictPaths: { executionId: true, key: true } });
			for (const row of written) rows.set(`${row.executionId}/${row.key}`, row.value);
		},
	});
	const shapeOf = (names: string[]) => ({
		columns: names.map((propertyName) => ({ propertyName })),
	});

	test('absent outside n8n; a missing repository or a changed table: changed', async () => {
		expect((await doorWith({}).n8nInternals.executionCustomData()).found).toBe(false);
		await expect(
			doorWith(dbWith('ExecutionMetadataRepository')).n8nInternals.executionCustomData(),
		).rejects.toThrow(/"execution custom data.*@n8n\/db has no ExecutionMetadataRepository/);
		const renamed = { metadata: { tableName: 'execution_metadata', ...shapeOf(['id', 'key']) } };
		await expect(
			doorWith(dbWith('ExecutionMetadataRepository', renamed)).n8nInternals.executionCustomData(),
		).rejects.toThrow(/n8n 2\.41\.1 .*"execution custom data.*has no executionId, value/);
	});

	test('found: written at once and read back per execution and key; a database failure is a fault', async () => {
		const rows = new Map<string, string>();
		const door = doorWith(dbWith('ExecutionMetadataRepository', metadataRepository(rows)));
		const data = await door.n8nInternals.executionCustomData();
		if (!data.found) throw new Error(data.why);
		await data.use.write('41', 'paymentGatewayLastLook', 'paid:7');
		expect(await data.use.read('41', 'paymentGatewayLastLook')).toBe('paid:7');
		expect(await data.use.read('42', 'paymentGatewayLastLook')).toBeUndefined();
		const busy = metadataRepository(rows, new Error('Database is not ready!'));
		const failing = await doorWith(
			dbWith('ExecutionMetadataRepository', busy),
		).n8nInternals.executionCustomData();
		if (!failing.found) throw new Error(failing.why);
		await expect(failing.use.read('41', 'k')).rejects.toThrow(
			"execution custom data (n8n's execution metadata repository) (n8n 2.41.1): Database is not ready!",
		);
	});
});

describe('data tables', () => {
	const ctx = (additionalData?: object) =>
		({ additionalData, getWorkflow: () => ({ id: 'wf1' }) }) as unknown as IExecuteFunctions;

	/** n8n's DataTableProxyService as 1.123–2.41 have it: tables t1 (project p1) and t2 (p2). */
	const provider = () => {
		const tables = [
			{ id: 't1', projectId: 'p1' },
			{ id: 't2', projectId: 'p2' },
		];
		return {
			getDataTableAggregateProxy: async () => {
				throw new Error('This proxy is only available for Data table nodes');
			},
			getProjectId: jest.fn(async (workflow: { id: string }) => `home of ${workflow.id}`),
			makeAggregateOperations: (projectId: string) => ({
				getProjectId: () => projectId,
				createDataTable: async () => ({}),
				getManyAndCount: async ({ filter }: { filter: { id?: string } }) => {
					const data = tables.filter((t) => t.projectId === projectId && t.id === filter.id);
					return { count: data.length, data };
				},
			}),
			makeDataTableOperations: (projectId: string, id: string) => ({ projectId, id }),
		};
	};

	test("absent outside n8n and where n8n's data table module is off", async () => {
		const door = doorWith({});
		expect(await door.n8nInternals.dataTables(ctx())).toEqual({
			found: false,
			why: 'not inside n8n',
		});
		expect(await door.n8nInternals.dataTables(ctx({ restApiUrl: 'x' }))).toEqual({
			found: false,
			why: "n8n's data table module is off",
		});
	});

	test("found: the provider's project operations, past the helpers' allow-list; a table of another project is refused", async () => {
		const given = provider();
		const door = doorWith({});
		const withProject = await door.n8nInternals.dataTables(
			ctx({ 'data-table': { dataTableProxyProvider: given }, dataTableProjectId: 'p1' }),
		);
		if (!withProject.found) throw new Error(withProject.why);
		expect((await withProject.use.aggregate()).getProjectId()).toBe('p1');
		expect(await withProject.use.table('t1')).toEqual({ projectId: 'p1', id: 't1' });
		await expect(withProject.use.table('t2')).rejects.toThrow(
			"Data table with ID 't2' could not be found in this project",
		);
		expect(given.getProjectId).not.toHaveBeenCalled();
		// Without the execution's project, the workflow's home project, as n8n chooses it.
		const home = await door.n8nInternals.dataTables(
			ctx({ 'data-table': { dataTableProxyProvider: given } }),
		);
		if (!home.found) throw new Error(home.why);
		expect((await home.use.aggregate()).getProjectId()).toBe('home of wf1');
	});

	test('changed: an operation gone from the provider or its project operations, named', async () => {
		const door = doorWith({});
		const { makeDataTableOperations: _gone, ...renamed } = provider();
		await expect(
			door.n8nInternals.dataTables(ctx({ 'data-table': { dataTableProxyProvider: renamed } })),
		).rejects.toThrow(
			/n8n 2\.41\.1 is not what the Payment Gateway package knows for "data tables": n8n's data table provider has no makeDataTableOperations/,
		);
		const thin = { ...provider(), makeAggregateOperations: () => ({ getProjectId: () => 'p1' }) };
		const tables = await door.n8nInternals.dataTables(
			ctx({ 'data-table': { dataTableProxyProvider: thin } }),
		);
		if (!tables.found) throw new Error(tables.why);
		await expect(tables.use.aggregate()).rejects.toThrow(
			/"data tables": its project operations lack getManyAndCount, createDataTable/,
		);
	});
});
