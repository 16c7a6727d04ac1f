// The door's "data table rows": rows of an n8n data table written by id in one transaction, on a
// real SQLite table shaped as n8n 2.41.1 makes `data_table_user_<id>` (node:sqlite, Node.js 24),
// behind n8n's DataTableService as the execution's data table provider holds it.
import type { DatabaseSync } from 'node:sqlite';
import type { IExecuteFunctions } from 'n8n-workflow';

type Door = typeof import('../../../nodes/n8n-internals');

/** A fresh door; n8n's modules as outside n8n except @n8n/config's table prefix. */
function door(prefix = ''): Door {
	jest.resetModules();
	class GlobalConfig {}
	const config = { database: { tablePrefix: prefix } };
	jest.doMock('n8n/package.json', () => ({ version: '2.41.1' }), { virtual: true });
	jest.doMock('@n8n/config', () => ({ GlobalConfig }), { virtual: true });
	jest.doMock('@n8n/di', () => ({ Container: { get: () => config } }), { virtual: true });
	return require('../../../nodes/n8n-internals');
}
afterEach(() => {
	for (const name of ['n8n/package.json', '@n8n/config', '@n8n/di']) jest.dontMock(name);
});

/** n8n's table of one data table (2.41.1: id, createdAt, updatedAt and the user's columns). */
function database(prefix = ''): DatabaseSync {
	const { DatabaseSync: Sqlite } = require('node:sqlite') as typeof import('node:sqlite');
	const db = new Sqlite(':memory:');
	db.exec(`CREATE TABLE "${prefix}data_table_user_t1" (
		"id" INTEGER PRIMARY KEY AUTOINCREMENT,
		"createdAt" DATETIME NOT NULL DEFAULT (STRFTIME('%Y-%m-%d %H:%M:%f', 'NOW')),
		"updatedAt" DATETIME NOT NULL DEFAULT (STRFTIME('%Y-%m-%d %H:%M:%f', 'NOW')),
		"state" TEXT CHECK ("state" <> 'refused here'), "utr" TEXT, "amount" REAL,
		"state_changed_at" DATETIME, "reference_no" TEXT, "paid" BOOLEAN)`);
	for (const state of ['queued', 'queued', 'queued'])
		db.prepare(`INSERT INTO "${prefix}data_table_user_t1" ("state") VALUES (?)`).run(state);
	return db;
}

interface Seen {
	touched: unknown[];
	sizeChecks: number;
	columnReads?: unknown[];
}

/** The user columns of `database()` as n8n's column repository gives them (name, type). */
const COLUMNS = [
	{ name: 'state', type: 'string' },
	{ name: 'utr', type: 'string' },
	{ name: 'amount', type: 'number' },
	{ name: 'state_changed_at', type: 'date' },
	{ name: 'reference_no', type: 'string' },
	{ name: 'paid', type: 'boolean' },
];

/** n8n's DataTableService over `db` (1.123/2.41 shape), in an execution's additionalData. */
interface Manager {
	query(sql: string, parameters?: unknown[]): Promise<unknown>;
	transaction<T>(run: (em: Manager) => Promise<T>): Promise<T>;
}

function execution(db: DatabaseSync, seen: Seen, options: { full?: boolean; type?: string } = {}) {
	const manager: Manager = {
		// As TypeORM's sqlite drivers: a SELECT answers its rows.
		query: async (sql: string, parameters: unknown[] = []) => {
			const statement = db.prepare(sql);
			const values = parameters as Array<string | number | null>;
			return sql.startsWith('SELECT') ? statement.all(...values) : statement.run(...values);
		},
		transaction: async <T>(run: (em: Manager) => Promise<T>): Promise<T> => {
			db.exec('BEGIN');
			try {
				const result = await run(manager);
				db.exec('COMMIT');
				return result;
			} catch (error) {
				db.exec('ROLLBACK');
				throw error;
			}
		},
	};
	const dataTableService = {
		validateDataTableSize: async () => {
			seen.sizeChecks += 1;
			if (options.full)
				throw new Error('Data table size limit exceeded: 201MB used, limit is 200MB');
		},
		dataTableRowsRepository: {
			dataSource: {
				options: { type: options.type ?? 'sqlite-pooled' },
				manager,
				driver: { escape: (name: string) => `"${name}"` },
			},
		},
		dataTableColumnRepository: {
			getColumns: async (id: string, trx?: unknown) => {
				seen.columnReads = [...(seen.columnReads ?? []), [id, trx === manager]];
				return COLUMNS;
			},
		},
		dataTableRepository: {
			touchUpdatedAt: async (id: string, trx?: unknown) => {
				seen.touched.push([id, trx === manager]);
			},
		},
	};
	return {
		additionalData: { 'data-table': { dataTableProxyProvider: { dataTableService } } },
	} as unknown as IExecuteFunctions;
}

const rowsOf = (db: DatabaseSync, prefix = '') =>
	db.prepare(`SELECT * FROM "${prefix}data_table_user_t1" ORDER BY id`).all();

test('absent outside n8n and where the data table module is off', async () => {
	const { n8nInternals } = door();
	expect(await n8nInternals.dataTableRows({} as IExecuteFunctions)).toEqual({
		found: false,
		why: 'not inside n8n',
	});
	const off = { additionalData: { restApiUrl: 'x' } } as unknown as IExecuteFunctions;
	expect(await n8nInternals.dataTableRows(off)).toEqual({
		found: false,
		why: "n8n's data table module is off",
	});
});

test("changed: n8n's data table service without what is used, named", async () => {
	const { n8nInternals } = door();
	const thin = {
		additionalData: { 'data-table': { dataTableProxyProvider: { dataTableService: {} } } },
	} as unknown as IExecuteFunctions;
	await expect(n8nInternals.dataTableRows(thin)).rejects.toThrow(
		/n8n 2\.41\.1 is not what the Payment Gateway package knows for "data table rows.*validateDataTableSize, its rows repository\./,
	);
});

test("found: each row's own values by id in one transaction, dates and updatedAt as n8n writes them on SQLite", async () => {
	const db = database('n8n_');
	const seen: Seen = { touched: [], sizeChecks: 0 };
	const rows = await door('n8n_').n8nInternals.dataTableRows(execution(db, seen));
	if (!rows.found) throw new Error(rows.why);
	const at = new Date('2026-11-29T10:11:12.345Z');
	const updatedAt = await rows.use.update('t1', [
		{ id: 1, values: { state: 'processed', utr: 'UTR1', state_changed_at: at } },
		{ id: 3, values: { state: 'failed', utr: null, amount: 12.5 } },
	]);
	const [one, two, three] = rowsOf(db, 'n8n_') as Array<Record<string, unknown>>;
	expect(one).toMatchObject({ state: 'processed', utr: 'UTR1' });
	// n8n's formatDateForDatabase on SQLite: ISO without T and Z, read back by n8n as UTC.
	expect(one.state_changed_at).toBe('2026-11-29 10:11:12.345');
	expect(one.updatedAt).toBe(updatedAt.toISOString().replace('T', ' ').replace('Z', ''));
	expect(two).toMatchObject({ state: 'queued', utr: null });
	expect(three).toMatchObject({ state: 'failed', utr: null, amount: 12.5 });
	expect(seen).toEqual({ touched: [['t1', true]], sizeChecks: 1 });
});

test("n8n 1.123's service (no touchUpdatedAt: its row writes leave the table's updatedAt alone): found, rows written", async () => {
	const db = database();
	const seen: Seen = { touched: [], sizeChecks: 0 };
	const ctx = execution(db, seen);
	const provider = (
		ctx as unknown as {
			additionalData: Record<string, { dataTableProxyProvider: { dataTableService: object } }>;
		}
	).additionalData['data-table'].dataTableProxyProvider;
	delete (provider.dataTableService as { dataTableRepository?: unknown }).dataTableRepository;
	const rows = await door().n8nInternals.dataTableRows(ctx);
	if (!rows.found) throw new Error(rows.why);
	// An id twice: each column's first value counts (as the first WHEN of a CASE would).
	await rows.use.update('t1', [
		{ id: 2, values: { state: 'rejected' } },
		{ id: 2, values: { state: 'processed', utr: 'U2' } },
	]);
	expect((rowsOf(db) as Array<Record<string, unknown>>)[1]).toMatchObject({
		state: 'rejected',
		utr: 'U2',
	});
	expect(seen).toEqual({ touched: [], sizeChecks: 1 });
});

test("all or none: a failing row writes no row; past n8n's size limit nothing is written, with n8n's message", async () => {
	const db = database();
	const seen: Seen = { touched: [], sizeChecks: 0 };
	const rows = await door().n8nInternals.dataTableRows(execution(db, seen));
	if (!rows.found) throw new Error(rows.why);
	const before = rowsOf(db);
	await expect(
		rows.use.update('t1', [
			{ id: 1, values: { state: 'processed' } },
			{ id: 2, values: { no_such_column: 'x' } },
		]),
	).rejects.toThrow(/data table rows .*\(n8n 2\.41\.1\): .*no_such_column/);
	expect(rowsOf(db)).toEqual(before);
	// More rows than one statement takes: the last statement refused, the earlier ones undone.
	const insert = db.prepare('INSERT INTO "data_table_user_t1" ("state") VALUES (?)');
	for (let i = 0; i < 700; i += 1) insert.run('queued');
	const many = rowsOf(db);
	const updates = many.map((row, at) => ({
		id: Number((row as { id: number }).id),
		values: { state: at === many.length - 1 ? 'refused here' : 'processed' },
	}));
	await expect(rows.use.update('t1', updates)).rejects.toThrow(/CHECK constraint failed/);
	expect(rowsOf(db)).toEqual(many);
	updates[updates.length - 1].values.state = 'processed';
	await rows.use.update('t1', updates);
	expect(new Set(rowsOf(db).map((row) => (row as { state: string }).state))).toEqual(
		new Set(['processed']),
	);

	const settled = rowsOf(db);
	seen.touched = [];
	const full = await door().n8nInternals.dataTableRows(execution(db, seen, { full: true }));
	if (!full.found) throw new Error(full.why);
	await expect(full.use.update('t1', [{ id: 1, values: { state: 'processed' } }])).rejects.toThrow(
		'Data table size limit exceeded: 201MB used, limit is 200MB',
	);
	expect(rowsOf(db)).toEqual(settled);
	expect(seen.touched).toEqual([]);
});

test('names n8n would not make are refused before anything is sent; another database is absent', async () => {
	const db = database();
	const seen: Seen = { touched: [], sizeChecks: 0 };
	const rows = await door().n8nInternals.dataTableRows(execution(db, seen));
	if (!rows.found) throw new Error(rows.why);
	await expect(rows.use.update('t1', [{ id: 1, values: { 'state"; --': 'x' } }])).rejects.toThrow(
		/not an n8n data table or column name/,
	);
	expect(seen.sizeChecks).toBe(0);
	const mysql = await door().n8nInternals.dataTableRows(execution(db, seen, { type: 'mysql' }));
	expect(mysql).toEqual({ found: false, why: 'not known for a mysql database' });
});

test('PostgreSQL: numbered parameters, dates as ISO text (as n8n writes them there)', async () => {
	const asked: Array<[string, unknown[]]> = [];
	const db = database();
	const seen: Seen = { touched: [], sizeChecks: 0 };
	const ctx = execution(db, seen, { type: 'postgres' });
	const service = (
		ctx as unknown as {
			additionalData: Record<string, { dataTableProxyProvider: { dataTableService: never } }>;
		}
	).additionalData['data-table'].dataTableProxyProvider.dataTableService as {
		dataTableRowsRepository: { dataSource: { manager: { query: unknown } } };
	};
	service.dataTableRowsRepository.dataSource.manager.query = async (sql: string, p: unknown[]) => {
		asked.push([sql, p]);
	};
	const rows = await door().n8nInternals.dataTableRows(ctx);
	if (!rows.found) throw new Error(rows.why);
	const at = new Date('2026-11-29T10:11:12.345Z');
	const updatedAt = await rows.use.update('t1', [{ id: 7, values: { state_changed_at: at } }]);
	expect(asked).toEqual([
		[
			'UPDATE "data_table_user_t1" SET "updatedAt" = $1, "state_changed_at" = CASE "id" WHEN $2 THEN $3 ELSE "state_changed_at" END WHERE "id" IN ($4)',
			[updatedAt.toISOString(), 7, '2026-11-29T10:11:12.345Z', 7],
		],
	]);
});

test("rows by reference_no IN (…), as n8n's service returns them: dates as Date (UTC), numbers, booleans, nulls", async () => {
	const db = database('n8n_');
	const seen: Seen = { touched: [], sizeChecks: 0 };
	const set = db.prepare(
		'UPDATE "n8n_data_table_user_t1" SET "reference_no" = ?, "amount" = ?, "state_changed_at" = ?, "paid" = ?, "createdAt" = ?, "updatedAt" = ? WHERE "id" = ?',
	);
	set.run(
		'A',
		12.5,
		'2026-11-29 10:11:12.345',
		1,
		'2026-11-28 01:02:03.004',
		'2026-11-28 01:02:03.005',
		1,
	);
	set.run('B', null, null, 0, '2026-11-28 01:02:03.006', '2026-11-28 01:02:03.007', 2);
	set.run('A', 3, null, null, '2026-11-28 01:02:03.008', '2026-11-28 01:02:03.009', 3);
	const insert = db.prepare(
		'INSERT INTO "n8n_data_table_user_t1" ("state", "reference_no") VALUES (?, ?)',
	);
	for (let i = 0; i < 1200; i += 1) insert.run('queued', `R${i}`);
	const rows = await door('n8n_').n8nInternals.dataTableRows(execution(db, seen));
	if (!rows.found) throw new Error(rows.why);
	if (!rows.use.readWhereIn) throw new Error('no read');
	const read = await rows.use.readWhereIn('t1', 'reference_no', ['B', 'A', 'nowhere']);
	// What n8n 2.41.1's getManyRowsAndCount returns for these rows (normalizeRows).
	expect(read).toEqual([
		{
			id: 1,
			createdAt: new Date('2026-11-28T01:02:03.004Z'),
			updatedAt: new Date('2026-11-28T01:02:03.005Z'),
			state: 'queued',
			utr: null,
			amount: 12.5,
			state_changed_at: new Date('2026-11-29T10:11:12.345Z'),
			reference_no: 'A',
			paid: true,
		},
		{
			id: 2,
			createdAt: new Date('2026-11-28T01:02:03.006Z'),
			updatedAt: new Date('2026-11-28T01:02:03.007Z'),
			state: 'queued',
			utr: null,
			amount: null,
			state_changed_at: null,
			reference_no: 'B',
			paid: false,
		},
		{
			id: 3,
			createdAt: new Date('2026-11-28T01:02:03.008Z'),
			updatedAt: new Date('2026-11-28T01:02:03.009Z'),
			state: 'queued',
			utr: null,
			amount: 3,
			state_changed_at: null,
			reference_no: 'A',
			paid: null,
		},
	]);
	expect(seen.columnReads).toEqual([['t1', true]]);
	// More references than one statement takes: every row found, in id order.
	const many = [...Array.from({ length: 1200 }, (_, i) => `R${1199 - i}`), 'R1199', 'R0'];
	const all = await rows.use.readWhereIn('t1', 'reference_no', many);
	expect(all.map((row) => row.reference_no)).toEqual(
		Array.from({ length: 1200 }, (_, i) => `R${i}`),
	);
	expect(all.map((row) => row.id)).toEqual(Array.from({ length: 1200 }, (_, i) => i + 4));
	await expect(rows.use.readWhereIn('t1', 'reference_no"; --', ['A'])).rejects.toThrow(
		/not an n8n data table or column name/,
	);
});
