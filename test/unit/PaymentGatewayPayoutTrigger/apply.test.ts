// The same results post delivered twice at the same moment, to two n8n processes (queue mode: main
// and webhook processes each receive posts), is applied once: each row under the account's lock,
// in the process and in n8n's Redis. Two copies of the receiver's modules stand for two processes
// (each its own process lock and ledger cache), sharing one data table store and one Redis.
import type { QueueRedis } from '../../../nodes/n8n-internals';
import { DataTableLedger } from '../../../nodes/PaymentGateway/actions/payout/ledger/dataTableLedger';
import { openTable } from '../../../nodes/PaymentGateway/actions/payout/ledger/table';
import { ACQUIRE, RELEASE } from '../../../nodes/PaymentGateway/actions/payout/ledger/sharedLock';
import type { ResultsPost } from '../../../nodes/PaymentGatewayPayoutTrigger/body';
import { MemoryDataTables } from '../../harness/data-tables';

type ApplyModule = typeof import('../../../nodes/PaymentGatewayPayoutTrigger/apply');

const node = { type: 'n8n-nodes-payment-gateway.paymentGateway' } as never;
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

async function queuedLedger() {
	const store = new MemoryDataTables();
	const aggregate = await store.getDataTableAggregateProxy({} as never, node);
	const table = await openTable(
		aggregate,
		async (id) => await store.getDataTableProxy({} as never, node, id),
		`Payout ledger apply ${Math.random()}`,
	);
	const rows = REFS.map((ref, i) => ({ row: i + 2, values: { 'Reference No': ref, Amount: 10 } }));
	const ledger = new DataTableLedger(
		table,
		table.name,
		{ workflowId: 'w', executionId: 'e' },
		{ rows, currency: 'INR', remark: 'Nov' },
		0,
	);
	await ledger.claim(REFS);
	await ledger.settle({
		confirmed: [{ refs: REFS, attempt: 1, requestId: 'batch-1' }],
		released: [],
		markers: [],
	});
	// Every data table call takes a round trip, so the two processes interleave.
	store.delayMs = 3;
	return { table, key: table.name };
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
		const read = table.proxy.getManyRowsAndCount.bind(table.proxy);
		const proxy = {
			...table.proxy,
			getManyRowsAndCount: async (...args: Parameters<typeof read>) => {
				reads += 1;
				return await read(...args);
			},
		};
		const outcome = await applyPost({ ...table, proxy }, key, post);
		expect(outcome.items.map((item) => item.json.state)).toEqual(REFS.map(() => 'processed'));
		// One sync of the ledger: rows changed, rows added, the row count.
		expect(reads).toBeLessThanOrEqual(3);
	});

	it('a write failing part-way: the rows applied before it become items, the failure is kept', async () => {
		const { table, key } = await queuedLedger();
		const { applyPost } = nodeProcess();
		let writes = 0;
		const update = table.proxy.updateRows.bind(table.proxy);
		const proxy = {
			...table.proxy,
			updateRows: async (...args: Parameters<typeof update>) => {
				if (++writes === 3) throw new Error('SQLITE_BUSY: database is locked');
				return await update(...args);
			},
		};
		const outcome = await applyPost({ ...table, proxy }, key, post);
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
