import type { IDataObject } from 'n8n-workflow';

import type { FaultKind, Sandbox } from '../sandbox';
import { startSandbox } from '../sandbox';
import { requestsTo, runGateway } from './support';

/**
 * Every fault on the first 1 and 2 attempts of the writes that can move money or queue payouts:
 * never a second order or batch, and repeats only where they cannot act twice (a 429 always; a
 * 5xx or lost answer with a Merchant Order ID, given or made by the node, or a Request ID).
 */
let sandbox: Sandbox;
let counter = 0;

beforeAll(async () => {
	sandbox = await startSandbox({ seed: 21 });
});
afterAll(async () => await sandbox.stop());
beforeEach(() => {
	sandbox.faults.clear();
	sandbox.clearRequests();
});

const CREATE = '/orders/v1/create';
const UPLOAD = '/payout/v1/bulk/payouts';
const KINDS: FaultKind[] = ['status429', 'status500', 'html502', 'reset', 'bodyFail', 'dropAnswer'];
const CASES = KINDS.flatMap((kind) => [1, 2].map((count) => [kind, count] as const));
const OPTIONS = { maxRetries: 3, timeoutMs: 5000 };

/** How many requests the node should send for `count` faults of `kind`. */
function expectedAttempts(kind: FaultKind, count: number, retrySafe: boolean): number {
	if (kind === 'bodyFail') return 1;
	if (kind === 'status429' || retrySafe) return count + 1;
	return 1;
}

describe.each([
	['without a Merchant Order ID', false],
	['with a Merchant Order ID', true],
])('order %s', (_label, withId) => {
	it.each(CASES)('%s on the first %i attempt(s): at most one order', async (kind, count) => {
		const mOrderId = `SWEEP-${process.pid}-${++counter}`;
		sandbox.faults.inject({ kind, count, path: CREATE, retryAfter: 0 });
		const before = sandbox.state.orders.size;
		const parameters: IDataObject = {
			resource: 'order',
			operation: 'createPayment',
			amount: 12,
			currency: 'AED',
			requestOptions: OPTIONS,
		};
		if (withId) parameters.merchantOrderId = mOrderId;
		const result = await runGateway(sandbox, {
			parameters: parameters as never,
			continueOnFail: true,
		});
		const created = sandbox.state.orders.size - before;
		expect(created).toBeLessThanOrEqual(1);
		// Every order carries a Merchant Order ID, the node's own when none is given: always retry-safe.
		const sent = requestsTo(sandbox, CREATE);
		expect(sent).toHaveLength(expectedAttempts(kind, count, true));
		const ids = sent.map((r) => JSON.parse(r.body.toString()).data.order_details.m_order_id);
		expect(new Set(ids).size).toBe(1);
		if (withId) expect(ids[0]).toBe(mOrderId);
		const [item] = result.outputs.Gateway;
		if (created === 1) {
			// Created: the item says so, either with the answer or as confirmed by the duplicate refusal.
			const told = item.json.p_order_id !== undefined || item.json.confirmedByDuplicate === true;
			const warned = /may have reached the service and been processed/.test(
				String(item.json.description),
			);
			expect(told || warned).toBe(true);
		} else {
			expect(item.json.error).toBeDefined();
		}
	});
});

describe('payout batch', () => {
	it.each(CASES)('%s on the first %i attempt(s): queued at most once', async (kind, count) => {
		const requestId = `SW-${process.pid}-${++counter}`;
		sandbox.faults.inject({ kind, count, path: UPLOAD, retryAfter: 0 });
		const result = await runGateway(sandbox, {
			items: [
				{
					'Reference No': 'PAY-1',
					'Payment Mode': 'NEFT',
					Amount: 100.25,
					Remark: 'Sweep',
					'Beneficiary Name': 'Asha Rao',
					'Beneficiary Email': 'asha@example.com',
					'Beneficiary Account Number': '123456789012',
					'Beneficiary Account Type': 'SA',
					'Beneficiary IFSC': 'HDFC0001234',
				},
			],
			credentialType: 'paymentGatewayPayoutApi',
			// Version 2: one upload under the given Request ID (version 3 sends <ID>-1).
			typeVersion: 2,
			continueOnFail: true,
			parameters: {
				resource: 'payout',
				operation: 'bulkCreate',
				currency: 'INR',
				requestId,
				requestOptions: OPTIONS,
			} as never,
		});
		expect(requestsTo(sandbox, UPLOAD)).toHaveLength(expectedAttempts(kind, count, true));
		const queued = sandbox.state.payoutBatches.has(requestId);
		const [item] = result.outputs.Gateway;
		if (queued) expect(item.json).toMatchObject({ request_id: requestId });
		if (queued) expect(item.json.error).toBeUndefined();
		else expect(item.json.error).toBeDefined();
	});
});
