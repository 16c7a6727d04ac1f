import type { Sandbox, TransactionRecord } from '../../sandbox';
import { startSandbox, toPosOrder } from '../../sandbox';
import { requestsTo, runGateway } from '../support';

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ seed: 11, transactionCount: 60 });
});
afterAll(async () => await sandbox.stop());
beforeEach(() => {
	sandbox.faults.clear();
	sandbox.clearRequests();
});

const records = () => sandbox.state.transactions as TransactionRecord[];

const lookUp = (orderId: string, extra: { continueOnFail?: boolean; items?: object[] } = {}) =>
	runGateway(sandbox, {
		credentialType: 'paymentGatewayPosApi',
		parameters: {
			resource: 'transaction',
			operation: 'getPosOrder',
			authentication: 'pos',
			orderId,
		},
		...extra,
	});

describe('transaction.getPosOrder', () => {
	it('uses the POS keys whatever Authentication says (version 1 saved it as pos, version 2 has no pos)', async () => {
		const record = records()[0];
		for (const authentication of ['pos', 'hosted']) {
			sandbox.clearRequests();
			const result = await runGateway(sandbox, {
				credentialType: 'paymentGatewayPosApi',
				parameters: {
					resource: 'transaction',
					operation: 'getPosOrder',
					authentication,
					orderId: String(record.p_order_id),
				},
			});
			expect(result.error).toBeUndefined();
			expect(sandbox.requests.map((r) => r.path)).toEqual([`/pos/v1/orders/${record.p_order_id}`]);
		}
	});

	it('without a POS credential fails before sending anything', async () => {
		const result = await runGateway(sandbox, {
			parameters: { resource: 'transaction', operation: 'getPosOrder', orderId: '1' },
		});
		expect(result.error?.message).toMatch(/paymentGatewayPosApi/);
		expect(sandbox.requests).toHaveLength(0);
	});

	it('returns the transaction with its history and an ISO copy of the date, with the POS keys', async () => {
		const record = records().find((r) => r.internal.history.length >= 2)!;
		const result = await lookUp(record.p_order_id);

		expect(result.error).toBeUndefined();
		const [item] = result.outputs.Gateway;
		expect(item.pairedItem).toEqual({ item: 0 });
		expect(item.json).toEqual({
			...toPosOrder(record),
			transaction_date_iso: expect.any(String),
		});
		expect(item.json.transaction_history).toEqual(record.internal.history);
		expect(item.json.reason).toBe(record.reason);
		// The harness workflow runs in UTC.
		expect(new Date(item.json.transaction_date_iso as string).getTime()).toBe(record.internal.time);

		const [request] = requestsTo(sandbox, `/pos/v1/orders/${record.p_order_id}`);
		expect(request.method).toBe('GET');
		expect(request.headers['merchant-key']).toBe(sandbox.keys.pos.apiKey);
	});

	it('encodes the order ID into the path', async () => {
		const result = await lookUp('40/0 1');
		expect(result.error).toBeDefined();
		expect(sandbox.requests.map((r) => r.path)).toEqual(['/pos/v1/orders/40%2F0%201']);
	});

	it('reports an unknown order clearly, without retrying', async () => {
		const result = await lookUp('99999999');
		expect(result.error?.constructor.name).toBe('NodeApiError');
		expect(result.error?.message).toBe('Order not found [code 404]');
		expect((result.error as { description?: string }).description).toMatch(/identifier/);
		expect(sandbox.requests).toHaveLength(1);
	});

	it('refuses an empty order ID before sending anything', async () => {
		const result = await lookUp('  ');
		expect(result.error?.constructor.name).toBe('NodeOperationError');
		expect(result.error?.message).toContain('order_id is required');
		expect(sandbox.requests).toHaveLength(0);
	});

	it.each([
		[
			'a lone surrogate',
			'={{ "40\\uD800" }}',
			'order_id must not contain a broken Unicode character',
		],
		['an object', '={{ { id: 40 } }}', 'order_id must be text, not a object'],
		['two lines', '={{ "40\\n41" }}', 'order_id must be one line without control characters'],
		// A URL resolves dot segments: /pos/v1/orders/.. is /pos/v1/, another endpoint.
		['two dots', '..', 'order_id must not be "." or ".."'],
		['one dot', '={{ "." }}', 'order_id must not be "." or ".."'],
		['two dots around spaces', '={{ " .. " }}', 'order_id must not be "." or ".."'],
	])(
		'refuses an order ID with %s clearly, never "URI malformed"; nothing is sent',
		async (_, orderId, message) => {
			const result = await lookUp(orderId);
			expect(result.error?.constructor.name).toBe('NodeOperationError');
			expect(result.error?.message).toContain(message);
			expect(result.error?.message).not.toMatch(/URI malformed/);
			expect(sandbox.requests).toHaveLength(0);
		},
	);

	it('retries a lookup after a 500 (it is a read)', async () => {
		const record = records()[0];
		sandbox.faults.inject({ kind: 'status500', count: 1 });
		const result = await lookUp(record.p_order_id);
		expect(result.error).toBeUndefined();
		expect(result.outputs.Gateway[0].json.p_order_id).toBe(record.p_order_id);
		expect(sandbox.requests).toHaveLength(2);
	});

	it('under Continue On Fail pairs an unknown order with its input while the others succeed', async () => {
		const [first, second] = records();
		const result = await lookUp('={{ $json.id }}', {
			continueOnFail: true,
			items: [{ id: first.p_order_id }, { id: 'nope' }, { id: second.p_order_id }],
		});
		const out = result.outputs.Gateway;
		expect(out.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }]);
		expect(out[0].json.p_order_id).toBe(first.p_order_id);
		expect(out[1].json).toMatchObject({
			error: 'Order not found [code 404]',
			code: '404',
			httpCode: 404,
		});
		expect(out[2].json.p_order_id).toBe(second.p_order_id);
	});
});
