import { startSandbox, type Sandbox } from '../..';
import { orderData, sandboxClient } from '../../testClient';

let sandbox: Sandbox;
let api: ReturnType<typeof sandboxClient>;

beforeAll(async () => {
	sandbox = await startSandbox();
	api = sandboxClient(sandbox);
});
afterAll(() => sandbox.stop());
afterEach(() => sandbox.state.resetSettings());

const CREATE = '/orders/v1/create';
const DATE_SLASH = /^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/;

describe('order create: accepted requests', () => {
	test('ECOM SALE: the standard create response; the request is stored verbatim', async () => {
		const data = orderData();
		const answer = await api.create(data);
		expect(answer.status).toBe(200);
		const id = answer.body.p_order_id;
		expect(answer.body).toEqual({
			status: 'SUCCESS',
			status_code: '00',
			message: 'Order created successfully',
			p_order_id: expect.any(Number),
			m_order_id: data.order_details.m_order_id,
			p_request_id: expect.any(Number),
			order_creation_date: expect.stringMatching(DATE_SLASH),
			amount: 'AED 100.00',
			payment_link: `${sandbox.checkoutUrl}/pay/${id}`,
			iframe_link: `${sandbox.checkoutUrl}/iframe/${id}`,
		});
		const order = sandbox.state.orders.get(String(id))!;
		expect(order.request).toEqual({ data });
		expect(order).toMatchObject({ class: 'ECOM', action: 'SALE', channel: 'HOSTED', open: true });
	});

	test('the order is a PENDING transaction in the list and the POS lookup', async () => {
		const data = orderData();
		const { body } = await api.create(data, sandbox.keys.sdk);
		const list = await api.call(`/orders/v1/transaction-list?p_order_id=${body.p_order_id}`, {
			keys: sandbox.keys.s2s,
		});
		expect(list.body.total_records).toBe(1);
		const [item] = list.body.data;
		expect(item).toMatchObject({
			p_order_id: String(body.p_order_id),
			m_order_id: data.order_details.m_order_id,
			p_request_id: body.p_request_id,
			status: 'PENDING',
			currency: 'AED',
			amount: '100.00',
			amount_captured: '0.00',
			psp: 'MPGS',
			m_customer_id: 'CUST-T1',
			m_payment_token: '',
			channel: 'SDK',
			channel_id: '2',
			parameters: data.parameters,
			custom_data: data.custom_data,
		});
		// Our choice: the transaction id exists from creation on.
		expect(item.transaction_id).toMatch(/^\d+$/);
		const pos = await api.pos(body.p_order_id);
		expect(pos.status).toBe(200);
		expect(pos.body.data.transaction_history).toEqual([
			{ status: 'PENDING', amount: '100.00', date: item.transaction_date },
		]);
		const byEmail = await api.call('/orders/v1/transaction-list?customer_email=buyer@example.com', {
			keys: sandbox.keys.hosted,
		});
		expect(byEmail.body.data.map((r: { p_order_id: string }) => r.p_order_id)).toContain(
			String(body.p_order_id),
		);
	});

	test('channel follows the key: hosted, SDK, S2S', async () => {
		const k = sandbox.keys;
		for (const [keys, channel] of [
			[k.hosted, 'HOSTED'],
			[k.sdk, 'SDK'],
			[k.s2s, 'S2S'],
		] as const) {
			const { body } = await api.create(orderData(), keys);
			const record = sandbox.state.transactionsByPOrderId.get(String(body.p_order_id))!;
			expect(record.channel).toBe(channel);
		}
		const wrong = await api.create(orderData(), k.invoice);
		expect(wrong.status).toBe(401);
	});

	test('ids grow and start above the generated ones', async () => {
		const a = (await api.create(orderData())).body;
		const b = (await api.create(orderData())).body;
		expect(b.p_order_id).toBeGreaterThan(a.p_order_id);
		expect(b.p_request_id).toBeGreaterThan(a.p_request_id);
		const seeded = sandbox.state.transactions.filter(
			(t) => !sandbox.state.orders.has(t.p_order_id),
		);
		expect(a.p_order_id).toBeGreaterThan(Math.max(...seeded.map((t) => Number(t.p_order_id))));
	});

	test('amounts: numeric text, three-decimal currencies', async () => {
		const cases: [unknown, string, string][] = [
			['100.5', 'AED', 'AED 100.50'],
			[12.5, 'KWD', 'KWD 12.500'],
			[1, 'BHD', 'BHD 1.000'],
			['2500', 'INR', 'INR 2500.00'],
		];
		for (const [amount, currency, shown] of cases) {
			const data = orderData();
			Object.assign(data.order_details, { amount, currency });
			const answer = await api.create(data);
			expect([answer.status, answer.body.amount]).toEqual([200, shown]);
		}
	});

	test('values may be empty strings where the spec says so; optional keys left out', async () => {
		const data = orderData();
		data.customer_details = { name: '', email: '' };
		Object.assign(data.order_details, { convenience_fee: '', quantity: '', description: '' });
		delete data.order_details.m_order_id;
		for (const key of Object.keys(data.billing_details)) data.billing_details[key] = '';
		for (const key of Object.keys(data.shipping_details)) data.shipping_details[key] = '';
		delete data.shipping_details.shipping_code;
		delete data.shipping_details.shipping_mobile;
		data.urls = {};
		delete data.items;
		delete data.parameters;
		delete data.custom_data;
		const first = await api.create(data);
		expect(first.status).toBe(200);
		expect(first.body.m_order_id).toBe('');
		// No m_order_id twice is no duplicate.
		expect((await api.create(data)).status).toBe(200);
		const record = sandbox.state.transactionsByPOrderId.get(String(first.body.p_order_id))!;
		expect([record.parameters, record.custom_data]).toEqual([[], []]);
	});

	test('webhook_url may be plain HTTP to localhost or 127.0.0.1', async () => {
		const urls = ['http://localhost:5678/webhook', 'http://127.0.0.1/hook', 'https://x.example'];
		for (const url of urls) {
			const data = orderData();
			data.urls.webhook_url = url;
			expect((await api.create(data)).status).toBe(200);
		}
	});

	test('the five flows store exactly what was sent', async () => {
		const token = sandbox.state.addToken({ m_customer_id: 'CUST-T1' }).token;
		const flows = [
			orderData({ action: 'SALE' }),
			orderData({ action: 'AUTH', capture_method: 'MANUAL' }),
			orderData({ action: 'AUTH_REVERSAL' }),
			orderData({ class: 'CAUTH', action: 'SALE', payment_token: token }),
			orderData({
				custom_data: [
					{ alpha: '|SPLIT_PAYMENT' },
					{ beta: '|SUB01,P,30' },
					{ gamma: '|SUB02,F,10.5' },
					{ delta: '' },
					{ epsilon: '' },
				],
			}),
		];
		for (const data of flows) {
			const answer = await api.create(data);
			expect(answer.status).toBe(200);
			const id = String(answer.body.p_order_id ?? answer.body.data.p_order_id);
			const order = sandbox.state.orders.get(id)!;
			expect(order.request).toEqual({ data });
			expect(Object.keys(order.request.data).sort()).toEqual(Object.keys(data).sort());
		}
	});

	test('GET /__sandbox/orders/:id shows the stored request and the transaction', async () => {
		const data = orderData();
		const { body } = await api.create(data);
		const control = await api.call(`/__sandbox/orders/${body.p_order_id}`);
		expect(control.status).toBe(200);
		expect(control.body.data.request).toEqual({ data });
		expect(control.body.data.transaction).toMatchObject({
			status: 'PENDING',
			p_request_id: String(body.p_request_id),
		});
		expect((await api.call('/__sandbox/orders/1')).status).toBe(404);
	});
});

describe('order create: validation', () => {
	/** Marks a key to delete. */
	const DROP = Symbol('drop');

	function setAt(data: Record<string, any>, path: string, value: unknown): void {
		const keys = path.split('.');
		const last = keys.pop()!;
		const parent = keys.reduce((o, k) => o[k], data);
		if (value === DROP) delete parent[last];
		else parent[last] = value;
	}

	// [path, value or DROP, rule]: the message must read "<path> <rule>".
	const FIELD_RULES: [string, unknown, string][] = [
		['class', DROP, 'is required'],
		['class', 'MOTO', 'must be ECOM or CAUTH'],
		['action', DROP, 'is required'],
		['action', 'CAPTURE', 'must be SALE, AUTH or AUTH_REVERSAL'],
		['capture_method', 'LATER', 'must be AUTOMATIC or MANUAL'],
		['payment_token', 'tok_x', 'is only for class CAUTH'],
		['customer_details', DROP, 'is required'],
		['customer_details', [], 'must be an object'],
		['customer_details.name', DROP, 'is required'],
		['customer_details.email', DROP, 'is required'],
		['customer_details.email', 5, 'must be a string'],
		['customer_details.mobile', '+971501234567', 'must contain digits only'],
		['customer_details.mobile', '50 123 4567', 'must contain digits only'],
		['order_details', DROP, 'is required'],
		['order_details.amount', DROP, 'is required'],
		['order_details.amount', '', 'is required'],
		['order_details.amount', 0.5, 'must be at least 1'],
		['order_details.amount', -5, 'must be at least 1'],
		['order_details.amount', '1,000', 'must be a plain number'],
		['order_details.amount', 'AED 10', 'must be a plain number'],
		['order_details.amount', '10 ', 'must be a plain number'],
		['order_details.amount', 10.001, 'has more decimal places than AED allows'],
		['order_details.convenience_fee', DROP, 'is required'],
		['order_details.convenience_fee', 'free', 'must be a plain number'],
		['order_details.quantity', DROP, 'is required'],
		['order_details.quantity', 0, 'must be at least 1'],
		['order_details.currency', DROP, 'is required'],
		['order_details.description', DROP, 'is required'],
		['billing_details', DROP, 'is required'],
		...['address_line1', 'address_line2', 'city', 'province', 'country', 'pin'].map(
			(key): [string, unknown, string] => [`billing_details.${key}`, DROP, 'is required'],
		),
		['billing_details.country', 'ARE', 'must be an ISO 3166-1 alpha-2'],
		['billing_details.country', 'ae', 'must be an ISO 3166-1 alpha-2'],
		['billing_details.country', 'ZZ', 'must be an ISO 3166-1 alpha-2'],
		['shipping_details', DROP, 'is required'],
		...[
			'shipping_name',
			'shipping_email',
			'address_line1',
			'address_line2',
			'city',
			'province',
			'country',
			'pin',
			'location_pin',
			'shipping_currency',
			'shipping_amount',
		].map((key): [string, unknown, string] => [`shipping_details.${key}`, DROP, 'is required']),
		['shipping_details.country', 'UK', 'must be an ISO 3166-1 alpha-2'],
		['shipping_details.shipping_mobile', '050-1234567', 'must contain digits only'],
		['shipping_details.shipping_currency', 'dirham', 'must be an ISO 4217'],
		['shipping_details.shipping_amount', -1, 'must be at least 0'],
		['items', {}, 'must be an array'],
		['urls', DROP, 'is required'],
		['urls.webhook_url', 'http://merchant.example/hook', 'must use HTTPS'],
		['urls.webhook_url', 'merchant.example/hook', 'must be an absolute URL'],
		['urls.success', 'thanks', 'must be an absolute URL'],
		['parameters', { alpha: '' }, 'must be an array'],
	];

	const expectRejected = async (data: Record<string, any>, message: string) => {
		const before = sandbox.state.orders.size;
		const answer = await api.create(data);
		expect(answer.status).toBe(400);
		expect(answer.body).toEqual({
			message: expect.stringContaining(message),
			status: 'fail',
			code: '400',
		});
		expect(sandbox.state.orders.size).toBe(before);
	};

	test.each(FIELD_RULES)('%s = %p → 400 naming the field', async (path, value, rule) => {
		const data = orderData();
		setAt(data, path, value);
		await expectRejected(data, `${path} ${rule}`);
	});

	type Edit = (data: Record<string, any>) => void;
	const cauth: Edit = (d) => Object.assign(d, { class: 'CAUTH', payment_token: 'tok_x' });
	const EDITS: [string, Edit, string][] = [
		[
			'CAUTH with AUTH_REVERSAL',
			(d) => {
				cauth(d);
				d.action = 'AUTH_REVERSAL';
			},
			'action AUTH_REVERSAL is not allowed for class CAUTH',
		],
		['CAUTH without payment_token', (d) => (d.class = 'CAUTH'), 'payment_token is required'],
		[
			'AUTH_REVERSAL without m_customer_id',
			(d) => {
				d.action = 'AUTH_REVERSAL';
				delete d.customer_details.m_customer_id;
			},
			'customer_details.m_customer_id is required',
		],
		[
			'AUTH_REVERSAL with an empty m_customer_id',
			(d) => {
				d.action = 'AUTH_REVERSAL';
				d.customer_details.m_customer_id = '';
			},
			'customer_details.m_customer_id is required',
		],
		[
			'CAUTH without m_customer_id',
			(d) => {
				cauth(d);
				delete d.customer_details.m_customer_id;
			},
			'customer_details.m_customer_id is required',
		],
		[
			'item name',
			(d) => (d.items = [{ name: 'A' }]),
			'items[0].name is not an item field: use title',
		],
		[
			'item sku',
			(d) => (d.items = [{ title: 'A' }, { sku: 'S1' }]),
			'items[1].sku is not an item field: use reference_id',
		],
		[
			'item quantity 0',
			(d) => (d.items = [{ quantity: 0 }]),
			'items[0].quantity must be at least 1',
		],
		[
			'item gender',
			(d) => (d.items = [{ gender: 'Unisex' }]),
			'items[0].gender must be Male, Female, Kids or Other',
		],
		[
			'item is_refundable',
			(d) => (d.items = [{ is_refundable: 'yes' }]),
			'items[0].is_refundable must be true or false',
		],
		[
			'item unit_price',
			(d) => (d.items = [{ unit_price: '$5' }]),
			'items[0].unit_price must be decimal text',
		],
		['parameters key', (d) => (d.parameters = [{ zeta: '' }]), 'parameters[0] has key "zeta"'],
		[
			'parameters entry with two keys',
			(d) => (d.parameters = [{ alpha: '', beta: '' }]),
			'parameters[0] must be an object with exactly one key',
		],
		[
			'parameters key twice',
			(d) => (d.parameters = [{ alpha: '' }, { alpha: 'x' }]),
			'parameters has alpha more than once',
		],
		[
			'custom_data value not text',
			(d) => (d.custom_data = [{ alpha: 1 }]),
			'custom_data[0].alpha must be a string',
		],
	];

	test.each(EDITS)('%s → 400', async (_name, edit, message) => {
		const data = orderData();
		edit(data);
		await expectRejected(data, message);
	});

	test.each(['JPY', 'aed', 'XYZ'])('currency %s is unsupported → 422', async (currency) => {
		const data = orderData();
		data.order_details.currency = currency;
		const answer = await api.create(data);
		expect(answer.status).toBe(422);
		expect(answer.body).toEqual({
			message: expect.stringContaining(`Unsupported currency "${currency}"`),
			status: 'fail',
			code: '422',
		});
	});

	test('the ten supported currencies are accepted', async () => {
		for (const currency of ['AED', 'USD', 'EUR', 'GBP', 'INR', 'SAR', 'QAR', 'KWD', 'BHD', 'OMR']) {
			const data = orderData();
			data.order_details.currency = currency;
			expect([currency, (await api.create(data)).status]).toEqual([currency, 200]);
		}
	});

	test('body must be JSON with a data object', async () => {
		const text = await api.call(CREATE, {
			method: 'POST',
			keys: sandbox.keys.hosted,
			headers: { 'content-type': 'text/plain' },
			body: JSON.stringify({ data: orderData() }),
		});
		expect(text.status).toBe(400);
		expect(text.body).toEqual({
			message: 'Content-Type must be application/json',
			status: 'fail',
			code: '400',
		});
		const malformed = await api.postJson(CREATE, '{"data":', sandbox.keys.hosted);
		expect([malformed.status, malformed.body.message]).toEqual([400, 'Malformed JSON body']);
		const flat = await api.postJson(CREATE, orderData(), sandbox.keys.hosted);
		expect(flat.status).toBe(400);
		expect(flat.body.message).toContain('data');
	});

	test('m_order_id must be unique across seeded and created orders', async () => {
		const seeded = sandbox.state.transactions[5].m_order_id;
		const data = orderData();
		data.order_details.m_order_id = seeded;
		const answer = await api.create(data);
		expect(answer.status).toBe(400);
		expect(answer.body).toEqual({
			message: `Duplicate m_order_id "${seeded}": it must be unique per order`,
			status: 'fail',
			code: '400',
		});
		const fresh = orderData();
		expect((await api.create(fresh)).status).toBe(200);
		const again = await api.create({ ...fresh, action: 'AUTH' });
		expect([again.status, again.body.message]).toEqual([
			400,
			expect.stringContaining('Duplicate m_order_id'),
		]);
	});
});

describe('split payments', () => {
	const split = (...rules: string[]) => [
		{ alpha: '|SPLIT_PAYMENT' },
		...['beta', 'gamma', 'delta', 'epsilon'].map((name, i) => ({ [name]: rules[i] ?? '' })),
	];

	test('the split rules are decoded and custom_data kept exactly', async () => {
		const data = orderData({ action: 'AUTH', custom_data: split('|SUB01,P,30', '|SUB-2,F,10.50') });
		const answer = await api.create(data);
		expect(answer.status).toBe(200);
		const id = String(answer.body.p_order_id);
		expect(sandbox.state.orders.get(id)!.split).toEqual([
			{ id: 'SUB01', type: 'P', value: 30 },
			{ id: 'SUB-2', type: 'F', value: 10.5 },
		]);
		expect(sandbox.state.transactionsByPOrderId.get(id)!.custom_data).toEqual(data.custom_data);
	});

	test('another alpha is routing data, not a split', async () => {
		const data = orderData({ custom_data: [{ alpha: 'MID_GROUP_A' }, { beta: 'LABEL' }] });
		const answer = await api.create(data);
		expect(answer.status).toBe(200);
		expect(sandbox.state.orders.get(String(answer.body.p_order_id))!.split).toEqual([]);
	});

	test.each([
		['beta missing', split(), 'custom_data beta is required for a split payment'],
		['beta without pipe', split('SUB01,P,30'), 'beta must have the form |{id},{P|F},{value}'],
		['unknown type', split('|SUB01,X,30'), 'custom_data beta must have the form'],
		['gamma malformed', split('|SUB01,P,30', '|SUB02;F;5'), 'custom_data gamma must have the form'],
		['percentage above 100', split('|SUB01,P,150'), 'custom_data beta value must be above 0'],
		['zero value', split('|SUB01,F,0'), 'custom_data beta value must be above 0'],
	])('%s → 400', async (_name, customData, message) => {
		const answer = await api.create(orderData({ custom_data: customData }));
		expect(answer.status).toBe(400);
		expect(answer.body).toEqual({
			message: expect.stringContaining(message),
			status: 'fail',
			code: '400',
		});
	});

	test('split needs ECOM SALE or AUTH', async () => {
		const token = sandbox.state.addToken({ m_customer_id: 'CUST-T1' }).token;
		for (const extra of [{ action: 'AUTH_REVERSAL' }, { class: 'CAUTH', payment_token: token }]) {
			const answer = await api.create(orderData({ ...extra, custom_data: split('|SUB01,P,10') }));
			expect([answer.status, answer.body.message]).toEqual([
				400,
				'Split payments need class ECOM with action SALE or AUTH',
			]);
		}
	});

	test('feature switch off → 403; live-only rule as a setting', async () => {
		const splitOrder = () => orderData({ custom_data: split('|SUB01,P,10') });
		sandbox.state.settings.splitEnabled = false;
		const off = await api.create(splitOrder());
		expect(off.status).toBe(403);
		expect(off.body).toEqual({
			message: 'Split payments are not enabled for this merchant account',
			status: 'fail',
			code: '403',
		});
		// A plain order is unaffected.
		expect((await api.create(orderData())).status).toBe(200);

		sandbox.state.settings.splitEnabled = true;
		sandbox.state.settings.splitRequiresLive = true;
		const test = await api.create(splitOrder());
		expect(test.status).toBe(403);
		expect(test.body).toEqual({
			message: 'Split payments work in live mode only',
			status: 'fail',
			code: '403',
		});
		sandbox.state.settings.liveMode = true;
		expect((await api.create(splitOrder())).status).toBe(200);
	});
});
