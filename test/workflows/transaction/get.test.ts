import type { Sandbox, TransactionRecord } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import { requestsTo, runGateway } from '../support';

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ seed: 17, transactionCount: 40 });
});
afterAll(async () => await sandbox.stop());
beforeEach(() => {
	sandbox.clearRequests();
	sandbox.faults.clear();
});

describe('transaction.get', () => {
	const records = () => sandbox.state.transactions as TransactionRecord[];
	const get = (getBy: string, id: string) =>
		runGateway(sandbox, {
			parameters: { resource: 'transaction', operation: 'get', getBy, id } as never,
		});

	it('finds one transaction by order ID and by transaction ID, with the amount as a number', async () => {
		const record = records()[3];
		for (const [getBy, id, query] of [
			['orderId', String(record.p_order_id), 'p_order_id'],
			['transactionId', String(record.transaction_id), 'transaction_id'],
		]) {
			sandbox.clearRequests();
			const result = await get(getBy, id);
			expect(result.error).toBeUndefined();
			const [item] = result.outputs.Gateway;
			expect(item.json).toMatchObject({
				transaction_id: record.transaction_id,
				p_order_id: record.p_order_id,
			});
			expect(item.json.amount_value).toBe(Number(record.amount));
			const [request] = requestsTo(sandbox, '/orders/v1/transaction-list');
			expect(request.query).toMatchObject({ [query]: id, page: '1', perpage: '1' });
		}
	});

	it('an unknown ID is a clear "not found" error', async () => {
		const result = await get('orderId', '999999999');
		expect(result.error?.message).toBe('No transaction found with Order ID "999999999"');
	});
});

describe('transaction.get: failures', () => {
	const get = (getBy: string, id: string) =>
		runGateway(sandbox, {
			parameters: { resource: 'transaction', operation: 'get', getBy, id } as never,
		});

	it('an empty ID is refused naming the field; nothing is sent', async () => {
		const result = await get('transactionId', '={{ "  " }}');
		expect(result.error?.constructor.name).toBe('NodeOperationError');
		expect(result.error?.message).toMatch(/is required/);
		expect(sandbox.requests).toHaveLength(0);
	});

	it('a read is retried after a 500 and then answers', async () => {
		sandbox.faults.inject({ kind: 'status500', count: 1 });
		const record = (sandbox.state.transactions as TransactionRecord[])[5];
		const result = await get('transactionId', String(record.transaction_id));
		expect(result.error).toBeUndefined();
		expect(requestsTo(sandbox, '/orders/v1/transaction-list')).toHaveLength(2);
	});
});
