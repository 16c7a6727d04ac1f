// The rule tables: every endpoint a real route, and the areas validating with them (not a copy).
import { startSandbox, type Sandbox } from './index';
import { ENDPOINT_RULES, rulesFor, type WireRule } from './rules';
import { INVOICE_ITEM_ADD } from './areas/invoiceItems/rules';
import { ORDER_CREATE } from './areas/orders/rules';
import { BULK_PAYOUT } from './areas/payouts/rules';
import { orderData, sandboxClient } from './testClient';

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ transactionCount: 1 });
});
afterAll(() => sandbox.stop());

/** Runs `check` with one field of a table changed, then puts it back. */
async function withRule(rule: WireRule, change: Partial<WireRule>, check: () => Promise<void>) {
	const saved = { ...rule };
	Object.assign(rule, change);
	try {
		await check();
	} finally {
		for (const key of Object.keys(change)) delete (rule as unknown as Record<string, unknown>)[key];
		Object.assign(rule, saved);
	}
}

describe('sandbox rule tables', () => {
	it.each(ENDPOINT_RULES.map((e) => [`${e.method} ${e.path}`, e] as const))(
		'%s is a route of the sandbox',
		async (_name, endpoint) => {
			const path = endpoint.path.replace(/:[a-z_]+/g, 'x');
			const answer = await fetch(`${sandbox.baseUrl}${path}`, { method: endpoint.method });
			// Without keys a route answers 401; an unknown path would be 404.
			expect(answer.status).toBe(401);
		},
	);

	it('answers an unknown path 404, so the 401 above means a route', async () => {
		expect((await fetch(`${sandbox.baseUrl}/orders/v1/nowhere`, { method: 'POST' })).status).toBe(
			404,
		);
	});

	it('finds an endpoint by a concrete path, path parameters included', () => {
		expect(rulesFor('GET', '/pos/v1/orders/12345')?.fields.order_id).toBeDefined();
		expect(rulesFor('POST', '/pos/v1/orders/12345')).toBeUndefined();
		expect(rulesFor('GET', '/orders/v1/nowhere')).toBeUndefined();
	});

	it('validates an invoice item name with the length its table declares', async () => {
		const api = sandboxClient(sandbox);
		const add = (name: string) =>
			api.postJson(
				'/invoice/v1/items/add',
				{ item_name: name, item_rate_per_unit: 5, item_category: 'Tests' },
				sandbox.keys.invoice,
			);
		await withRule(INVOICE_ITEM_ADD.fields.item_name, { maxLength: 10 }, async () => {
			const answer = await add('x'.repeat(11));
			expect(answer.status).toBe(400);
			expect(answer.body).toMatchObject({
				message: 'item_name must be at most 10 characters, got 11',
			});
		});
		expect((await add('x'.repeat(11))).status).toBe(200);
	});

	it('validates an order amount with the minimum its table declares', async () => {
		const api = sandboxClient(sandbox);
		const data = orderData();
		data.order_details.amount = 5;
		await withRule(ORDER_CREATE.fields['order_details.amount'], { min: 10 }, async () => {
			const answer = await api.create(data);
			expect(answer.status).toBe(400);
			expect(answer.body).toMatchObject({
				message: 'order_details.amount must be at least 10, got "5"',
			});
		});
		expect((await api.create(data)).status).toBe(200);
	});

	it('checks payout rows with the column rules its table declares', async () => {
		const { PAYOUT_HEADERS, validatePayoutRows } = await import('./areas/payouts/model');
		const values = Object.fromEntries(PAYOUT_HEADERS.map((h) => [h, ''])) as Record<
			(typeof PAYOUT_HEADERS)[number],
			string
		>;
		Object.assign(values, {
			'Reference No': 'REF-000001',
			'Payment Mode': 'IMPSP2P',
			Amount: '10',
			Remark: 'Rent',
			'Beneficiary Name': 'Asha Rao',
			'Beneficiary Mobile': '9876543210',
			'Beneficiary MMID': '1234567',
		});
		const rules = () => validatePayoutRows([{ row: 2, values }]).map((e) => e.rule);
		expect(rules()).toEqual([]);
		await withRule(BULK_PAYOUT.columns!['Reference No'], { maxLength: 5 }, async () => {
			expect(rules()).toEqual(['max 5 characters']);
		});
	});
});
