import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Sandbox, TransactionRecord } from '../sandbox';
import { startSandbox } from '../sandbox';
import { requestsTo, runGateway } from './support';

/** The item loop with Parallel Requests: order, pairing, continue-on-fail and one shared rate gate. */
const LIST = '/orders/v1/transaction-list';
const MANAGE = '/orders/v1/transaction';

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ seed: 21, transactionCount: 120 });
});
afterAll(async () => await sandbox.stop());
beforeEach(() => {
	sandbox.faults.clear();
	sandbox.clearRequests();
	sandbox.latencyMs = 0;
});

const records = () => sandbox.state.transactions as TransactionRecord[];

/** One Get Many per item, each looking up the item's transaction. */
const lookups = (ids: string[], parallelRequests: number, continueOnFail = false) =>
	runGateway(sandbox, {
		items: ids.map((id) => ({ id })),
		continueOnFail,
		parameters: {
			resource: 'transaction',
			operation: 'getMany',
			limit: 1,
			filters: { transactionId: '={{ $json.id }}' },
			requestOptions: { parallelRequests },
		} as INodeParameters,
	});

describe('Parallel Requests', () => {
	it('keeps output in input order with each item paired, with several requests in flight', async () => {
		sandbox.latencyMs = 40;
		const ids = records()
			.slice(0, 12)
			.map((r) => r.transaction_id);
		const result = await lookups(ids, 4);
		expect(result.error).toBeUndefined();
		const out = result.outputs.Gateway;
		expect(out.map((item) => item.json.transaction_id)).toEqual(ids);
		expect(out.map((item) => item.pairedItem)).toEqual(ids.map((_, item) => ({ item })));
		expect(sandbox.traffic.peak).toBe(4);
	});

	it('sends one request at a time by default', async () => {
		sandbox.latencyMs = 20;
		const result = await runGateway(sandbox, {
			items: records()
				.slice(0, 5)
				.map((r) => ({ id: r.transaction_id })),
			parameters: {
				resource: 'transaction',
				operation: 'getMany',
				limit: 1,
				filters: { transactionId: '={{ $json.id }}' },
			},
		});
		expect(result.error).toBeUndefined();
		expect(sandbox.traffic.peak).toBe(1);
	});

	it('refuses a Parallel Requests value out of range before sending', async () => {
		const result = await lookups([records()[0].transaction_id], 0);
		expect(result.error?.message).toMatch(
			/^Parallel Requests \(Request Options\) must be a whole number from 1 to 20 \(received 0\)$/,
		);
		expect(sandbox.requests).toHaveLength(0);
	});

	it('continues on fail per item: failed items stay in place, paired to their input', async () => {
		const captured = records()
			.filter((r) => r.status === 'CAPTURED')
			.slice(0, 3);
		const authorised = records().find((r) => r.status === 'AUTHORISED')!;
		// Refunds: 0 and 2 succeed, 1 is refused before sending, 3 is an authorisation (E0044).
		const items = [
			{ id: captured[0].transaction_id, amount: 1, currency: captured[0].currency },
			{ id: captured[1].transaction_id, amount: 0.5, currency: captured[1].currency },
			{ id: captured[2].transaction_id, amount: 1, currency: captured[2].currency },
			{ id: authorised.transaction_id, amount: 1, currency: authorised.currency },
		];
		sandbox.latencyMs = 30;
		const result = await runGateway(sandbox, {
			items,
			continueOnFail: true,
			parameters: {
				resource: 'payment',
				operation: 'refund',
				transactionId: '={{ $json.id }}',
				amount: '={{ $json.amount }}',
				currency: '={{ $json.currency }}',
				requestOptions: { parallelRequests: 4 },
			} as INodeParameters,
		});
		const out = result.outputs.Gateway;
		expect(out.map((item) => item.pairedItem)).toEqual([0, 1, 2, 3].map((item) => ({ item })));
		expect(out[0].json).toMatchObject({ status: 'PARTIALLY_REFUNDED' });
		expect((out[1].json.violations as IDataObject[])[0]).toMatchObject({
			field: 'amount.value',
			value: 0.5,
		});
		expect(out[2].json).toMatchObject({ status: 'PARTIALLY_REFUNDED' });
		expect(out[3].json).toMatchObject({ code: 'E0044' });
		expect(requestsTo(sandbox, MANAGE)).toHaveLength(3);
	});

	it('stops taking items after a failure without continue-on-fail, and reports the first failed item', async () => {
		const ids = records()
			.slice(0, 10)
			.map((r) => r.transaction_id);
		const result = await runGateway(sandbox, {
			items: ids.map((id, i) => ({ id, limit: i === 1 ? 0 : 1 })),
			parameters: {
				resource: 'transaction',
				operation: 'getMany',
				limit: '={{ $json.limit }}',
				filters: { transactionId: '={{ $json.id }}' },
				requestOptions: { parallelRequests: 2 },
			} as INodeParameters,
		});
		expect(result.error?.message).toMatch(/[Ll]imit/);
		expect((result.error as { context?: IDataObject }).context?.itemIndex).toBe(1);
		expect(requestsTo(sandbox, LIST).length).toBeLessThan(ids.length - 1);
	});

	it('does not repeat a refund that failed with a 500 while others run in parallel', async () => {
		const captured = records()
			.filter((r) => r.status === 'CAPTURED' && r.currency === 'USD')
			.slice(0, 4);
		// Each refund first reads its transaction (the list's path starts with the manage path): the
		// four reads go out together, before any refund.
		sandbox.faults.inject({ kind: 'status500', path: MANAGE, after: 4 });
		const result = await runGateway(sandbox, {
			items: captured.map((r) => ({ id: r.transaction_id })),
			continueOnFail: true,
			parameters: {
				resource: 'payment',
				operation: 'refund',
				transactionId: '={{ $json.id }}',
				amount: 1,
				currency: 'USD',
				requestOptions: { parallelRequests: 4 },
			} as INodeParameters,
		});
		expect(requestsTo(sandbox, MANAGE)).toHaveLength(4);
		const failed = result.outputs.Gateway.filter((item) => item.json.error);
		expect(failed).toHaveLength(1);
		// Nothing seen on the look: unknown, never "safe to run again" (the service may apply it later).
		expect(failed[0].json.lostAnswer).toMatchObject({ outcome: 'unknown' });
	});

	it('one 429 pauses every slot for its Retry-After, then the run ramps back up', async () => {
		sandbox.latencyMs = 20;
		sandbox.faults.inject({ kind: 'status429', path: LIST, retryAfter: 1 });
		const ids = records()
			.slice(0, 12)
			.map((r) => r.transaction_id);
		const result = await lookups(ids, 4);
		expect(result.error).toBeUndefined();
		expect(result.outputs.Gateway.map((item) => item.json.transaction_id)).toEqual(ids);
		const times = requestsTo(sandbox, LIST).map((r) => r.time);
		expect(times).toHaveLength(ids.length + 1);
		// The first four went out together; the refused one was answered about latencyMs later.
		const refusedAt = times[0] + sandbox.latencyMs;
		const duringPause = times.filter((t) => t > refusedAt + 100 && t < refusedAt + 900);
		expect(duringPause).toEqual([]);
		expect(times.filter((t) => t >= refusedAt + 900).length).toBe(ids.length + 1 - 4);
	});
});
