// Real n8n runs Manual Trigger → Payment Gateway with `n8n execute` against an in-process sandbox.
import { randomUUID } from 'node:crypto';

import { startSandbox, type Sandbox } from '../sandbox';
import { manualGatewayWorkflow, sandboxCredentials, TRIGGER_PATH } from './fixtures';
import { N8n } from './n8n';

let sandbox: Sandbox;
let n8n: N8n;

const LIST_ID = 'e2eTxGetMany';
const ORDER_ID = 'e2eCreatePayment';
const webhookId = randomUUID();

beforeAll(async () => {
	sandbox = await startSandbox({ seed: 11, transactionCount: 120 });
	n8n = await N8n.create();
	await n8n.importCredentials(sandboxCredentials(sandbox));
	await n8n.importWorkflow(
		manualGatewayWorkflow(LIST_ID, 'E2E transactions', {
			resource: 'transaction',
			operation: 'getMany',
			returnAll: false,
			limit: 5,
		}),
	);
	await n8n.importWorkflow(
		manualGatewayWorkflow(ORDER_ID, 'E2E create payment', {
			resource: 'order',
			operation: 'createPayment',
			amount: 10,
			currency: 'AED',
			urls: { webhookUrl: n8n.webhookUrl(webhookId, TRIGGER_PATH) },
		}),
	);
}, 300_000);

afterAll(async () => {
	await n8n?.dispose();
	await sandbox?.stop();
});

beforeEach(() => sandbox.clearRequests());

describe('the package loaded into real n8n', () => {
	it('Transaction > Get Many, Limit 5: five transactions the sandbox holds, one request with the hosted keys', async () => {
		const result = await n8n.execute(LIST_ID);
		expect(result.run).toBeDefined();
		expect(result.code).toBe(0);
		const items = result.items('Payment Gateway');
		expect(items).toHaveLength(5);
		const known = new Set(sandbox.state.transactions.map((t) => String(t.transaction_id)));
		for (const item of items) expect(known.has(String(item.json.transaction_id))).toBe(true);

		const requests = sandbox.requests.filter((r) => r.path === '/orders/v1/transaction-list');
		expect(requests).toHaveLength(1);
		expect(requests[0].query.perpage).toBe('5');
		expect(requests[0].headers['merchant-key']).toBe(sandbox.keys.hosted.merchantKey);
	});

	it('Order > Create Payment, 10 AED: p_order_id and payment link, webhook URL sent to the service', async () => {
		const result = await n8n.execute(ORDER_ID);
		expect(result.code).toBe(0);
		const items = result.items('Payment Gateway');
		expect(items).toHaveLength(1);
		const order = items[0].json;
		expect(order.p_order_id).toBeDefined();
		expect(String(order.payment_link)).toContain(sandbox.checkoutUrl);

		const stored = sandbox.state.orders.get(String(order.p_order_id));
		expect(stored).toBeDefined();
		const data = (stored!.request as { data: Record<string, any> }).data;
		expect(data.order_details).toMatchObject({ amount: 10, currency: 'AED' });
		expect(data.urls.webhook_url).toBe(`${n8n.baseUrl}/webhook/${webhookId}/${TRIGGER_PATH}`);
		expect(sandbox.state.transactionsByPOrderId.get(String(order.p_order_id))?.status).toBe(
			'PENDING',
		);
	});
});
