// The same results post delivered twice at the same moment, to two n8n processes (queue mode: main
// and webhook processes each receive posts), is applied once: each row under the account's lock,
// in the process and in n8n's Redis. Two copies of the receiver's modules stand for two processes
// (each its own process lock and ledger cache), sharing one data table store and one Redis.
import type { QueueRedis } from '../../../nodes/n8n-internals';
import type { LedgerTable as Table } from '../../../nodes/PaymentGateway/actions/payout/ledger/table';
import { ACQUIRE, RELEASE } from '../../../nodes/PaymentGateway/actions/payout/ledger/sharedLock';
import type { ResultsPost } from '../../../nodes/PaymentGatewayPayoutTrigger/body';
import { queuedLedger as queuedLedgerOf } from '../PaymentGateway/actions/payout/ledger/queuedLedger';

type ApplyModule = typeof import('../../../nodes/PaymentGatewayPayoutTrigger/apply');

const REFS = ['A', 'B', 'C', 'D'];

/** One Redis: SET NX PX and compare-and-delete, by the lock scripts' text. */
function fakeRedis(): QueueRedis {
	const keys = new Map<string, string>();
	return {
		prefix: 'n8n',
		bullPrefix: 'bull',
		ready: async () => undefined,
		eval: async (script, _n, key, token) => {
			await new Promise((resolve) => setTimeout(resolve, 1));
			if (script === ACQUIRE) {
				if (keys.has(String(key))) return 0;
				keys.set(String(key), String(token));
				return 1;
			}
			if (script !== RELEASE || keys.get(String(key)) !== String(token)) return 0;
			keys.delete(String(key));
			return 1;
		},
	};
}

/** A process: its own copy of the receiver, with n8n's queue Redis when given (queue mode). */
function nodeProcess(redis?: QueueRedis): ApplyModule {
	let copy: ApplyModule | undefined;
	jest.isolateModules(() => {
		const internals =
			require('../../../nodes/n8n-internals') as typeof import('../../../nodes/n8n-internals');
		internals.n8nInternals.queueRedis = async () =>
			redis ? { found: true, use: redis } : { found: false, why: 'regular mode' };
		copy = require('../../../nodes/PaymentGatewayPayoutTrigger/apply');
	});
	return copy!;
}

/** The four references queued in batch-1, each data table call a round trip (so processes interleave). */
async function queuedLedger() {
	const { table, key, store } = await queuedLedgerOf('apply', REFS, 'batch-1');
	store.delayMs = 3;
	return { table, key };
}

/** `table` with its proxy's `name` call run through `around` (to count its calls or fail one). */
function tableWith<K extends keyof Table['proxy']>(
	table: Table,
	name: K,
	around: (original: Table['proxy'][K]) => Table['proxy'][K],
): Table {
	const original = (table.proxy[name] as (...args: unknown[]) => unknown).bind(table.proxy);
	return { ...table, proxy: { ...table.proxy, [name]: around(original as Table['proxy'][K]) } };
}

const post: ResultsPost = {
	request_id: 'batch-1',
	rows: REFS.map((ref) => ({ reference_no: ref, status: 'processed', utr: `UTR-${ref}` })),
};

describe('a results post delivered to two processes at once', () => {
	it("queue mode: each row is applied once (the account's lock in n8n's Redis)", async () => {
		const { table, key } = await queuedLedger();
		const redis = fakeRedis();
		const [a, b] = [nodeProcess(redis), nodeProcess(redis)];
		const [one, two] = await Promise.all([
			a.applyPost(table, key, post),
			b.applyPost(table, key, post),
		]);
		const applied = [...one.items, ...two.items].map((item) => item.json.reference_no).sort();
		expect(applied).toEqual(REFS);
		expect(one.ignored.length + two.ignored.length).toBe(REFS.length);
	});

	it('without the Redis lock (two processes, each its own lock), rows are applied twice: what the lock prevents', async () => {
		const { table, key } = await queuedLedger();
		const [a, b] = [nodeProcess(), nodeProcess()];
		const [one, two] = await Promise.all([
			a.applyPost(table, key, post),
			b.applyPost(table, key, post),
		]);
		expect(one.items.length + two.items.length).toBeGreaterThan(REFS.length);
	});
});

describe('a results post reads the ledger once', () => {
	it('one read of the ledger for all the rows of a post, not one per row', async () => {
		const { table, key } = await queuedLedger();
		const { applyPost } = nodeProcess();
		let reads = 0;
		const counted = tableWith(table, 'getManyRowsAndCount', (read) => async (...args) => {
			reads += 1;
			return await read(...args);
		});
		const outcome = await applyPost(counted, key, post);
		expect(outcome.items.map((item) => item.json.state)).toEqual(REFS.map(() => 'processed'));
		// The post's records in one read (by reference_no), never one read per row, never none.
		expect(REFS.length).toBeGreaterThan(1);
		expect(reads).toBe(1);
	});

	it('a write failing part-way: the rows applied before it become items, the failure is kept', async () => {
		const { table, key } = await queuedLedger();
		const { applyPost } = nodeProcess();
		let writes = 0;
		const failing = tableWith(table, 'updateRows', (update) => async (...args) => {
			if (++writes === 3) throw new Error('SQLITE_BUSY: database is locked');
			return await update(...args);
		});
		const outcome = await applyPost(failing, key, post);
		expect(outcome.items.map((item) => item.json.reference_no)).toEqual(['A', 'B']);
		expect(outcome.failure?.message).toBe('SQLITE_BUSY: database is locked');
	});
});

describe("a results post written in one transaction (the door's data table rows)", () => {
	/** The door's writer over the same store: each call is one transaction (all rows, or none). */
	function oneTransaction(table: Awaited<ReturnType<typeof queuedLedger>>['table'], fail = false) {
		const calls: Array<Array<{ id: number; values: Record<string, unknown> }>> = [];
		const rows = {
			update: async (
				id: string,
				updates: Array<{ id: number; values: Record<string, unknown> }>,
			) => {
				calls.push(updates);
				if (fail) throw new Error('SQLITE_BUSY: database is locked');
				expect(id).toBe(table.id);
				for (const row of updates)
					await table.proxy.updateRows({
						filter: {
							type: 'and',
							filters: [{ columnName: 'id', condition: 'eq', value: row.id }],
						},
						data: row.values as never,
					});
				return new Date();
			},
		};
		return { rows, calls };
	}

	it('every changed row of the post in one write, none through the per-row calls', async () => {
		const { table, key } = await queuedLedger();
		const { applyPost } = nodeProcess();
		const { rows, calls } = oneTransaction(table);
		let perRow = 0;
		const update = table.proxy.updateRows.bind(table.proxy);
		const counted = {
			...table.proxy,
			updateRows: async (...args: Parameters<typeof update>) => {
				perRow += 1;
				return await update(...args);
			},
		};
		const mixed: ResultsPost = {
			request_id: 'batch-1',
			rows: [
				{ reference_no: 'A', status: 'processed', utr: 'UTR-A' },
				{ reference_no: 'B', status: 'failed', reason: 'Account closed' },
				{ reference_no: 'C', status: 'reversed', utr: 'UTR-C' },
				{ reference_no: 'A', status: 'processed', utr: 'UTR-A' },
			],
		};
		const outcome = await applyPost({ ...table, proxy: counted, rows }, key, mixed);
		expect(calls).toHaveLength(1);
		// C's reversal and the processed before it: one row written once, with the reversal.
		expect(calls[0].map((row) => row.values.state)).toEqual(['processed', 'failed', 'reversed']);
		expect(perRow).toBe(0);
		expect(outcome.items.map((item) => [item.json.reference_no, item.json.state])).toEqual([
			['A', 'processed'],
			['B', 'failed'],
			['C', 'reversed'],
		]);
		expect(outcome.ignored.map((row) => row.reference_no)).toEqual(['A']);
		// The ledger holds what the items say; the same post again applies nothing new.
		const again = await applyPost({ ...table, rows }, key, mixed);
		expect(again.items).toEqual([]);
	});

	it('the write failing: no row applied, no item, the failure kept (the post is answered to come again)', async () => {
		const { table, key } = await queuedLedger();
		const { applyPost } = nodeProcess();
		const { rows } = oneTransaction(table, true);
		const outcome = await applyPost({ ...table, rows }, key, post);
		expect(outcome.items).toEqual([]);
		expect(outcome.failure?.message).toBe('SQLITE_BUSY: database is locked');
		const retried = await applyPost({ ...table, rows: oneTransaction(table).rows }, key, post);
		expect(retried.items.map((item) => item.json.reference_no)).toEqual(REFS);
	});
});
