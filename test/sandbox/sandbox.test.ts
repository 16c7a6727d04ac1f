import {
	filterTransactions,
	generateTransactions,
	parseMultipart,
	startSandbox,
	type MerchantKeyPair,
	type Sandbox,
	type TransactionRecord,
} from './index';

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox();
});
afterAll(() => sandbox.stop());
afterEach(() => sandbox.faults.clear());

const INVALID_KEYS = { message: 'Invalid merchant key and secret', status: 'fail', code: '401' };
const INVALID_TOKEN = { message: 'Invalid or expired access token', status: 'fail', code: '401' };
const LIST_PATH = '/orders/v1/transaction-list';
const DEACTIVATE_PATH = '/payment-links/v1/deactivate';

const keyHeaders = (pair: MerchantKeyPair) => ({
	'merchant-key': pair.merchantKey,
	'merchant-secret': pair.merchantSecret,
});

interface Answer {
	status: number;
	headers: Headers;
	text: string;
	body: any;
}

type CallInit = RequestInit & { keys?: MerchantKeyPair; base?: string };

async function call(path: string, init: CallInit = {}): Promise<Answer> {
	const { keys, base, ...rest } = init;
	const headers = { ...(keys && keyHeaders(keys)), ...(rest.headers as Record<string, string>) };
	const response = await fetch(`${base ?? sandbox.baseUrl}${path}`, { ...rest, headers });
	const text = await response.text();
	let body: unknown;
	try {
		body = JSON.parse(text);
	} catch {
		body = undefined;
	}
	return { status: response.status, headers: response.headers, text, body };
}

const postJson = (path: string, data: unknown, keys?: MerchantKeyPair) =>
	call(path, {
		method: 'POST',
		keys,
		headers: { 'content-type': 'application/json' },
		body: typeof data === 'string' ? data : JSON.stringify(data),
	});

const list = (query: string) =>
	call(`${LIST_PATH}${query ? `?${query}` : ''}`, { keys: sandbox.keys.hosted });

const posKeys = (): MerchantKeyPair => ({
	merchantKey: sandbox.keys.pos.apiKey,
	merchantSecret: sandbox.keys.pos.apiSecret,
});

async function payoutToken(): Promise<string> {
	const answer = await call('/v1/token', { base: sandbox.payoutUrl, keys: sandbox.keys.payout });
	return answer.body.data.access_token;
}

function addActiveLink(dataId: string): void {
	sandbox.state.paymentLinks.set(dataId, {
		data_id: dataId,
		link_id: `L-${dataId}`,
		qr_id: `Q-${dataId}`,
		payment_link: `${sandbox.checkoutUrl}/L-${dataId}`,
		amount: '10.00',
		currency: 'AED',
		status: 'Active',
	});
}

const completePlan = () => ({
	plan_name: 'Gold',
	billing_frequency: { frequency: 'monthly', interval: 1 },
	installment_amount: { currency: 'AED', value: 100 },
	terms: { unlimited: 'yes' },
	initial_payment_amount: 100,
	final_payment_amount: 100,
	shipping_fee: 0,
	convenience_fee: 0,
	start_date: '2030-01-01 10:00',
	customer_emails: '',
	customer_email_cc: '',
	subject: '',
	product_details: '',
});

describe('authentication', () => {
	interface AuthCase {
		name: string;
		run: (keys?: MerchantKeyPair) => Promise<Answer>;
		good: MerchantKeyPair[];
		wrong: MerchantKeyPair;
		/** Status with good keys. */
		okStatus: number;
	}
	const cases = (): AuthCase[] => {
		const k = sandbox.keys;
		const pOrderId = sandbox.state.transactions[0].p_order_id;
		return [
			{
				name: 'order list',
				run: (keys) => call(LIST_PATH, { keys }),
				good: [k.hosted, k.sdk, k.s2s],
				wrong: k.invoice,
				okStatus: 200,
			},
			{
				name: 'invoice list',
				run: (keys) => call('/invoice/v1/items/list?perpage=10&page=1', { keys }),
				good: [k.invoice],
				wrong: k.hosted,
				okStatus: 200,
			},
			{
				name: 'payment link deactivate',
				run: (keys) => {
					addActiveLink('pl-auth');
					return postJson(DEACTIVATE_PATH, { data_id: 'pl-auth' }, keys);
				},
				good: [k.paymentLink],
				wrong: k.subscription,
				okStatus: 200,
			},
			{
				name: 'subscription add',
				run: (keys) => postJson('/subscriptions/v1/add', completePlan(), keys),
				good: [k.subscription],
				wrong: k.paymentLink,
				okStatus: 200,
			},
			{
				name: 'pos lookup',
				run: (keys) => call(`/pos/v1/orders/${pOrderId}`, { keys }),
				good: [posKeys()],
				wrong: k.hosted,
				okStatus: 200,
			},
			{
				name: 'payout token',
				run: (keys) => call('/v1/token', { base: sandbox.payoutUrl, keys }),
				good: [k.payout],
				wrong: k.hosted,
				okStatus: 200,
			},
		];
	};

	test('each route accepts its channels and rejects others with the exact 401 body', async () => {
		for (const { name, run, good, wrong, okStatus } of cases()) {
			for (const keys of good) {
				expect([name, (await run(keys)).status]).toEqual([name, okStatus]);
			}
			const mixed = { ...good[0], merchantSecret: wrong.merchantSecret };
			for (const keys of [wrong, undefined, mixed]) {
				const answer = await run(keys);
				expect([name, answer.status, answer.body]).toEqual([name, 401, INVALID_KEYS]);
			}
		}
	});

	test('every channel has distinct keys', () => {
		const k = sandbox.keys;
		const pairs = [k.hosted, k.sdk, k.s2s, k.paymentLink, k.subscription, k.invoice, k.payout];
		const all = pairs.flatMap((p) => [p.merchantKey, p.merchantSecret]);
		all.push(k.pos.apiKey, k.pos.apiSecret, k.webhook.notificationSecret);
		expect(new Set(all).size).toBe(all.length);
	});
});

describe('routing and request log', () => {
	test('unknown route and wrong method answer 404 JSON', async () => {
		for (const answer of [await call('/nope'), await call(LIST_PATH, { method: 'DELETE' })]) {
			expect(answer.status).toBe(404);
			expect(answer.body).toEqual({ status: 'fail', code: '404', message: 'Not found' });
		}
	});

	test('malformed JSON on a JSON route is a 400 general error', async () => {
		const answer = await postJson(DEACTIVATE_PATH, '{"data_id":', sandbox.keys.paymentLink);
		expect(answer.status).toBe(400);
		expect(answer.body).toEqual({ message: expect.any(String), status: 'fail', code: '400' });
	});

	test('logs method, path, query, lower-case headers, body and time', async () => {
		sandbox.clearRequests();
		const before = Date.now();
		await postJson(`${DEACTIVATE_PATH}?x=1&y=two`, { data_id: 'none' }, sandbox.keys.paymentLink);
		expect(sandbox.requests).toHaveLength(1);
		const [entry] = sandbox.requests;
		expect(entry.method).toBe('POST');
		expect(entry.path).toBe(DEACTIVATE_PATH);
		expect(entry.query).toEqual({ x: '1', y: 'two' });
		expect(entry.headers['merchant-key']).toBe(sandbox.keys.paymentLink.merchantKey);
		expect(entry.headers['content-type']).toBe('application/json');
		expect(Buffer.isBuffer(entry.body)).toBe(true);
		expect(JSON.parse(entry.body.toString())).toEqual({ data_id: 'none' });
		expect(entry.time).toBeGreaterThanOrEqual(before);
		sandbox.clearRequests();
		expect(sandbox.requests).toHaveLength(0);
	});
});

describe('transaction list', () => {
	const LIST_FIELDS = [
		'm_order_id',
		'p_order_id',
		'p_request_id',
		'psp_ref_id',
		'psp_txn_id',
		'transaction_id',
		'transaction_date',
		'status',
		'currency',
		'amount',
		'amount_captured',
		'psp',
		'payment_method',
		'm_customer_id',
		'm_payment_token',
		'payment_method_data',
		'apm_name',
		'apm_identifier',
		'sub_merchant_identifier',
		'channel',
		'channel_id',
		'parameters',
		'custom_data',
	].sort();
	const ids = (records: { p_order_id: string }[]) => records.map((r) => r.p_order_id);

	test('without page: all records, newest first, spec fields only', async () => {
		const answer = await list('');
		expect(answer.status).toBe(200);
		expect(answer.body).toMatchObject({ status: 'success', code: '00', total_records: 250 });
		expect(typeof answer.body.message).toBe('string');
		expect(ids(answer.body.data)).toEqual(ids(sandbox.state.transactions));
		// A guest payment has no customer, so no customer ID or token.
		const guestFields = LIST_FIELDS.filter((f) => f !== 'm_customer_id' && f !== 'm_payment_token');
		for (const item of answer.body.data)
			expect(Object.keys(item).sort()).toEqual('m_customer_id' in item ? LIST_FIELDS : guestFields);
		const first = answer.body.data[0];
		expect(typeof first.p_order_id).toBe('string');
		expect(typeof first.p_request_id).toBe('number');
		expect(first.transaction_date).toMatch(/^\d{2}-\d{2}-2026 \d{2}:\d{2}:\d{2}$/);
		expect(first.payment_method_data.masked_pan).toMatch(/^\d{6}X+\d{4}$/);
		const times = sandbox.state.transactions.map((r) => r.internal.time);
		expect([...times].sort((a, b) => b - a)).toEqual(times);
	});

	test('page and perpage slice the matching records; total_records counts all', async () => {
		const all = ids(sandbox.state.transactions);
		expect(ids((await list('page=1')).body.data)).toEqual(all.slice(0, 100));
		const third = await list('page=3&perpage=7');
		expect(ids(third.body.data)).toEqual(all.slice(14, 21));
		expect(third.body.total_records).toBe(250);
		expect(ids((await list('page=3')).body.data)).toEqual(all.slice(200, 250));
		const beyond = await list('page=99&perpage=100');
		expect(beyond.body).toMatchObject({ data: [], total_records: 250 });
	});

	test.each(['101', '0', 'abc', '1.5'])('perpage=%s is a 400 naming it', async (value) => {
		const answer = await list(`page=1&perpage=${value}`);
		expect(answer.status).toBe(400);
		expect(answer.body).toEqual({
			message: expect.stringContaining('perpage'),
			status: 'fail',
			code: '400',
		});
		expect(answer.body.message).toContain(value);
	});

	test.each([
		'page=0',
		'page=x',
		'from_date=2026-1-5',
		'to_date=2026-02-30',
		'min_amount=abc',
		'max_amount=1e3',
	])('%s is a 400', async (query) => {
		const answer = await list(query);
		expect(answer.status).toBe(400);
		expect(answer.body).toMatchObject({ status: 'fail', code: '400' });
		expect(answer.body.message).toContain(query.split('=')[0]);
	});

	describe('filters select exactly what an independent predicate selects', () => {
		type Predicate = (r: TransactionRecord) => boolean;
		// A record's day as YYYY-MM-DD, from its DD-MM-YYYY transaction_date.
		const day = (r: TransactionRecord) =>
			r.transaction_date.replace(/^(\d\d)-(\d\d)-(\d{4}).*$/, '$3-$2-$1');
		const amount = (r: TransactionRecord) => parseFloat(r.amount);
		const sample = () =>
			sandbox.state.transactions.find((r) => r.m_customer_id && r.status === 'CAPTURED')!;

		const cases = (): [query: Record<string, string>, predicate: Predicate][] => {
			const s = sample();
			const { card_pan: pan, payment_method_id: pmId } = s.internal;
			const { customer_email: email, customer_mobile: mobile } = s.internal;
			const country = s.internal.billing_country;
			return [
				[{ p_order_id: s.p_order_id }, (r) => r.p_order_id === s.p_order_id],
				[{ transaction_id: s.transaction_id }, (r) => r.transaction_id === s.transaction_id],
				[{ status: 'captured' }, (r) => r.status === 'CAPTURED'],
				[{ payment_method: 'Debit Card' }, (r) => r.payment_method === 'Debit Card'],
				[{ payment_method_id: pan }, (r) => r.internal.card_pan === pan],
				[{ payment_method_id: pmId }, (r) => r.internal.payment_method_id === pmId],
				[{ m_payment_token: s.m_payment_token! }, (r) => r.m_payment_token === s.m_payment_token],
				[{ card_bin: pan.slice(0, 6) }, (r) => r.internal.card_pan.slice(0, 6) === pan.slice(0, 6)],
				[{ card_bin: pan.slice(0, 8) }, (r) => r.internal.card_pan.slice(0, 8) === pan.slice(0, 8)],
				[{ processor: s.psp }, (r) => r.psp === s.psp],
				[{ currency_code: s.currency.toLowerCase() }, (r) => r.currency === s.currency],
				[{ from_date: '2026-07-01' }, (r) => day(r) >= '2026-07-01'],
				[{ to_date: '2026-03-15' }, (r) => day(r) <= '2026-03-15'],
				[{ from_date: day(s), to_date: day(s) }, (r) => day(r) === day(s)],
				[{ min_amount: '1000' }, (r) => amount(r) >= 1000],
				[{ max_amount: '250.5' }, (r) => amount(r) <= 250.5],
				[{ min_amount: s.amount, max_amount: s.amount }, (r) => amount(r) === amount(s)],
				[{ m_customer_id: s.m_customer_id! }, (r) => r.m_customer_id === s.m_customer_id],
				[{ customer_email: email }, (r) => r.internal.customer_email === email],
				[{ customer_mobile: mobile }, (r) => r.internal.customer_mobile === mobile],
				[
					{ customer_country: country.toLowerCase() },
					(r) => r.internal.billing_country === country,
				],
				[
					{ status: 'CAPTURED', currency_code: s.currency, min_amount: '100' },
					(r) => r.status === 'CAPTURED' && r.currency === s.currency && amount(r) >= 100,
				],
				// status_code is ignored; empty values count as absent.
				[{ status_code: 'VOID' }, () => true],
				[{ status: 'captured', processor: '' }, (r) => r.status === 'CAPTURED'],
			];
		};

		test('all 17 filters are covered', () => {
			const covered = new Set(cases().flatMap(([query]) => Object.keys(query)));
			const filters = [
				'p_order_id',
				'transaction_id',
				'status',
				'payment_method',
				'payment_method_id',
				'm_payment_token',
				'card_bin',
				'processor',
				'currency_code',
				'from_date',
				'to_date',
				'min_amount',
				'max_amount',
				'm_customer_id',
				'customer_email',
				'customer_mobile',
				'customer_country',
			];
			for (const name of filters) expect(covered).toContain(name);
		});

		test('over HTTP', async () => {
			for (const [query, predicate] of cases()) {
				const expected = ids(sandbox.state.transactions.filter(predicate));
				const answer = await list(new URLSearchParams(query).toString());
				expect([query, answer.status, answer.body.total_records]).toEqual([
					query,
					200,
					expected.length,
				]);
				expect([query, ids(answer.body.data)]).toEqual([query, expected]);
				expect([query, expected.length > 0]).toEqual([query, true]);
			}
		});

		test('customer filters match several records (pool)', async () => {
			const s = sample();
			const queries: Record<string, string>[] = [
				{ m_customer_id: s.m_customer_id! },
				{ customer_email: s.internal.customer_email },
				{ customer_mobile: s.internal.customer_mobile },
				{ customer_country: s.internal.billing_country },
			];
			for (const query of queries) {
				const answer = await list(new URLSearchParams(query).toString());
				expect(answer.body.total_records).toBeGreaterThan(1);
			}
		});

		test('pure filter function agrees', () => {
			const s = sample();
			const records = sandbox.state.transactions;
			expect(filterTransactions(records, {})).toEqual(records);
			expect(filterTransactions(records, { status: 'void' })).toEqual(
				records.filter((r) => r.status === 'VOID'),
			);
			expect(filterTransactions(records, { min_amount: 10, max_amount: 20 })).toEqual(
				records.filter((r) => amount(r) >= 10 && amount(r) <= 20),
			);
			expect(filterTransactions(records, { card_bin: '4111' })).toEqual([]);
			const guests = filterTransactions(records, { m_customer_id: '' });
			expect(guests.length).toBeGreaterThan(0);
			expect(guests.every((r) => r.m_customer_id === undefined)).toBe(true);
			expect(filterTransactions(records, { p_order_id: s.p_order_id })).toEqual([s]);
		});
	});
});

describe('generated data', () => {
	test('same seed gives identical data, another seed different data', async () => {
		expect(generateTransactions(1, 250)).toEqual(sandbox.state.transactions);
		const twin = await startSandbox({ seed: 1 });
		const other = await startSandbox({ seed: 2 });
		try {
			const listText = (s: Sandbox) =>
				fetch(`${s.baseUrl}${LIST_PATH}`, { headers: keyHeaders(s.keys.hosted) }).then((r) =>
					r.text(),
				);
			const [a, b, c] = await Promise.all([twin, other, sandbox].map(listText));
			expect(a).toBe(c);
			expect(b).not.toBe(c);
		} finally {
			await Promise.all([twin.stop(), other.stop()]);
		}
	});

	test('ids are unique, values within the spec domains', () => {
		const records = sandbox.state.transactions;
		for (const key of ['m_order_id', 'p_order_id', 'transaction_id', 'p_request_id'] as const) {
			expect(new Set(records.map((r) => r[key])).size).toBe(records.length);
		}
		const currencies = ['AED', 'USD', 'EUR', 'GBP', 'INR', 'SAR', 'QAR', 'KWD', 'BHD', 'OMR'];
		const keyedNames = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
		for (const r of records) {
			expect(currencies).toContain(r.currency);
			expect(r.amount).toMatch(/^\d+\.\d{2,3}$/);
			expect(Number(r.amount)).toBeGreaterThanOrEqual(1);
			expect(r.internal.card_pan.slice(0, 6)).toBe(r.payment_method_data.masked_pan.slice(0, 6));
			expect(r.internal.customer_mobile).toMatch(/^\d+$/);
			// Single-key objects, keys in order, only those with a value (each key is optional).
			for (const list of [r.parameters, r.custom_data]) {
				const keys = list.map((p) => Object.keys(p)[0]);
				expect(list.every((p) => Object.keys(p).length === 1)).toBe(true);
				expect(keys).toEqual(keyedNames.filter((name) => keys.includes(name)));
				expect(list.flatMap(Object.values)).not.toContain('');
			}
			expect(r.internal.history.at(-1)!.status).toBe(r.status);
		}
		expect(new Set(records.map((r) => r.status)).size).toBe(8);
		expect(new Set(records.map((r) => r.m_customer_id)).size).toBeLessThanOrEqual(41);
	});

	test('100,000 records generate and serve pages and filters', async () => {
		const big = await startSandbox({ transactionCount: 100_000 });
		try {
			expect(big.state.transactions).toHaveLength(100_000);
			const get = async (query: string) => {
				const url = `${big.baseUrl}${LIST_PATH}?${query}`;
				const response = await fetch(url, { headers: keyHeaders(big.keys.hosted) });
				return (await response.json()) as { total_records: number; data: TransactionRecord[] };
			};
			const page = await get('page=2&perpage=50');
			expect(page.total_records).toBe(100_000);
			expect(page.data.map((r) => r.p_order_id)).toEqual(
				big.state.transactions.slice(50, 100).map((r) => r.p_order_id),
			);
			const email = big.state.transactions[0].internal.customer_email;
			const filtered = await get(`page=1&customer_email=${encodeURIComponent(email)}`);
			expect(filtered.total_records).toBe(
				big.state.transactions.filter((r) => r.internal.customer_email === email).length,
			);
		} finally {
			await big.stop();
		}
	});
});

describe('POS lookup', () => {
	test('returns the transaction with reason, history and p_request_id as a string', async () => {
		const record = sandbox.state.transactions.find((r) => r.status === 'PARTIALLY_REFUNDED')!;
		const answer = await call(`/pos/v1/orders/${record.p_order_id}`, { keys: posKeys() });
		expect(answer.status).toBe(200);
		expect(answer.body).toMatchObject({ status: 'success', code: '00' });
		expect(typeof answer.body.message).toBe('string');
		const data = answer.body.data;
		expect(data.p_order_id).toBe(record.p_order_id);
		expect(data.p_request_id).toBe(String(record.p_request_id));
		expect(data.reason).toBe(record.reason);
		expect(data.internal).toBeUndefined();
		const history: { status: string }[] = data.transaction_history;
		expect(history.map((e) => e.status)).toEqual(['AUTHORISED', 'CAPTURED', 'PARTIALLY_REFUNDED']);
		for (const entry of history) {
			expect(Object.keys(entry).sort()).toEqual(['amount', 'date', 'status']);
		}
	});

	test('unknown order is a 404', async () => {
		const answer = await call('/pos/v1/orders/999', { keys: posKeys() });
		expect(answer.status).toBe(404);
		expect(answer.body).toEqual({ status: 'fail', code: '404', message: 'Order not found' });
	});
});

describe('invoice item list', () => {
	const items = (query: string) =>
		call(`/invoice/v1/items/list?${query}`, { keys: sandbox.keys.invoice });
	const addItem = (dataId: string, status: 'Active' | 'Deactivated') =>
		sandbox.state.invoiceItems.set(dataId, {
			item_id: dataId.slice(1),
			data_id: dataId,
			item_name: `Item ${dataId}`,
			item_rate: 5,
			item_category: 'c',
			item_description: '',
			submerchant_name: 'Main',
			status,
			created_date: '2026-01-01 10:00:00',
			last_modified_date: '2026-01-01 10:00:00',
		});

	test.each([
		['page=1', 'perpage is required'],
		['perpage=10', 'page is required'],
		['perpage=1001&page=1', 'perpage must be an integer between 1 and 1000, got "1001"'],
		['perpage=10&page=0', 'page must be an integer between 1 and 1000, got "0"'],
		['perpage=10&page=1&status=active', 'status must be Active or Deactivated, got "active"'],
	])('%s → 400 %s', async (query, message) => {
		const answer = await items(query);
		expect(answer.status).toBe(400);
		expect(answer.body).toEqual({ message, status: 'fail', code: '400' });
	});

	test('lists state.invoiceItems, filtered and paged', async () => {
		const empty = await items('perpage=10&page=1');
		expect(empty.body).toMatchObject({ data: [], total_records: 0, status: 'success', code: '00' });
		addItem('d1', 'Active');
		addItem('d2', 'Deactivated');
		addItem('d3', 'Active');
		try {
			const active = await items('perpage=10&page=1&status=Active');
			expect(active.body.total_records).toBe(2);
			expect(active.body.data.map((i: { data_id: string }) => i.data_id)).toEqual(['d3', 'd1']);
			const second = await items('perpage=1&page=2');
			expect(second.body).toMatchObject({
				total_records: 3,
				data: [{ data_id: 'd2', item_no: '2' }],
			});
		} finally {
			sandbox.state.invoiceItems.clear();
		}
	});
});

describe('payment link deactivate', () => {
	const deactivate = (body: unknown) => postJson(DEACTIVATE_PATH, body, sandbox.keys.paymentLink);
	const NOT_FOUND = {
		status: 'fail',
		code: 'E0021',
		message: 'Payment link record not found or already deactivated',
	};

	test('requires data_id', async () => {
		for (const body of [{}, { data_id: '' }, { data_id: 5 }]) {
			const answer = await deactivate(body);
			expect(answer.status).toBe(400);
			expect(answer.body).toEqual({ message: 'data_id is required', status: 'fail', code: '400' });
		}
	});

	test('deactivates an active link once; unknown or repeated is E0021', async () => {
		addActiveLink('pl-1');
		const first = await deactivate({ data_id: 'pl-1' });
		expect(first.status).toBe(200);
		expect(first.body).toEqual({
			status: 'success',
			code: '00',
			message: 'Payment link deactivated successfully',
		});
		expect(sandbox.state.paymentLinks.get('pl-1')!.status).toBe('Deactivated');
		for (const dataId of ['pl-1', 'unknown']) {
			const answer = await deactivate({ data_id: dataId });
			expect(answer.status).toBe(400);
			expect(answer.body).toEqual(NOT_FOUND);
		}
	});
});

describe('subscription plan add (required keys only)', () => {
	const add = (body: unknown) => postJson('/subscriptions/v1/add', body, sandbox.keys.subscription);
	const without = (path: string) => {
		const plan: any = completePlan();
		const keys = path.split('.');
		const parent = keys.slice(0, -1).reduce((o, k) => o[k], plan);
		delete parent[keys.at(-1)!];
		return plan;
	};

	test.each([
		'plan_name',
		'billing_frequency',
		'billing_frequency.interval',
		'installment_amount.currency',
		'terms.unlimited',
		'final_payment_amount',
		'start_date',
		'customer_emails',
		'product_details',
	])('missing %s → 400', async (field) => {
		const answer = await add(without(field));
		expect(answer.status).toBe(400);
		expect(answer.body).toEqual({ status: 'error', code: '400', message: `${field} is required` });
	});

	test('terms.value is required when terms are not unlimited', async () => {
		const answer = await add({ ...completePlan(), terms: { unlimited: 'no' } });
		const message = 'terms.value is required';
		expect(answer.body).toEqual({ status: 'error', code: '400', message });
	});

	test('a non-object body is rejected; a complete one creates a plan', async () => {
		expect((await add([1])).body).toMatchObject({ status: 'error', code: '400' });
		const answer = await add({ ...completePlan(), plan_name: 'Required keys' });
		expect(answer.status).toBe(200);
		expect(answer.body).toMatchObject({ status: 'success', code: '00' });
	});
});

describe('payouts', () => {
	const formWith = (fileField: string) => {
		const form = new FormData();
		form.append('request_id', 'REQ-1');
		form.append(fileField, new Blob([Buffer.from('xlsx-bytes')]), 'payouts.xlsx');
		return form;
	};
	const bulk = (token: string | undefined, form = formWith('payout_file')) =>
		call('/v1/bulk/payouts', {
			base: sandbox.payoutUrl,
			method: 'POST',
			headers: token ? { authorization: `Bearer ${token}` } : {},
			body: form,
		});

	test('token issue: payout keys get a bearer token', async () => {
		const answer = await call('/v1/token', { base: sandbox.payoutUrl, keys: sandbox.keys.payout });
		expect(answer.status).toBe(200);
		expect(answer.body).toEqual({
			status: 'success',
			code: '00',
			message: 'Token generated successfully',
			data: { access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600 },
		});
		const token = answer.body.data.access_token;
		expect(sandbox.state.isPayoutTokenValid(token)).toBe(true);
		expect(sandbox.state.isPayoutTokenValid(token, Date.now() + 3601_000)).toBe(false);
	});

	test('bulk payouts check the bearer token before any field', async () => {
		for (const token of [undefined, 'made-up']) {
			const answer = await bulk(token);
			expect(answer.status).toBe(401);
			expect(answer.body).toEqual(INVALID_TOKEN);
		}
		// Past the token the incomplete form fails field checks (payouts.test.ts has the rest).
		const incomplete = await bulk(await payoutToken());
		expect(incomplete.status).toBe(400);
		const message = 'currency is required';
		expect(incomplete.body).toEqual({ status: 'fail', code: '400', message });
	});

	test('expired tokens are refused until a new one is issued', async () => {
		const old = await payoutToken();
		sandbox.state.expirePayoutTokens();
		expect((await bulk(old)).body).toEqual(INVALID_TOKEN);
		expect((await bulk(await payoutToken())).status).toBe(400);
	});

	test('tokens expire after tokenLifetimeSeconds', async () => {
		const short = await startSandbox({ transactionCount: 1, tokenLifetimeSeconds: 1 });
		try {
			const issued = await fetch(`${short.payoutUrl}/v1/token`, {
				headers: keyHeaders(short.keys.payout),
			});
			const { data } = (await issued.json()) as {
				data: { access_token: string; expires_in: number };
			};
			expect(data.expires_in).toBe(1);
			const send = () =>
				fetch(`${short.payoutUrl}/v1/bulk/payouts`, {
					method: 'POST',
					headers: { authorization: `Bearer ${data.access_token}` },
					body: formWith('payout_file'),
				});
			expect((await send()).status).toBe(400);
			await new Promise((resolve) => setTimeout(resolve, 1100));
			expect((await send()).status).toBe(401);
		} finally {
			await short.stop();
		}
	});
});

describe('multipart parser', () => {
	test('parses fields and binary files', async () => {
		const bytes = Buffer.from([0, 255, 13, 10, 45, 45, 1, 2]);
		const form = new FormData();
		form.append('currency', 'INR');
		form.append('payout_file', new Blob([bytes], { type: 'application/octet-stream' }), 'p.xlsx');
		const request = new Request('http://x/', { method: 'POST', body: form });
		const body = Buffer.from(await request.arrayBuffer());
		const parts = parseMultipart(body, request.headers.get('content-type') ?? undefined)!;
		expect(parts.map((p) => [p.name, p.filename])).toEqual([
			['currency', undefined],
			['payout_file', 'p.xlsx'],
		]);
		expect(parts[0].data.toString()).toBe('INR');
		expect(parts[1].contentType).toBe('application/octet-stream');
		expect(Buffer.compare(parts[1].data, bytes)).toBe(0);
		expect(parseMultipart(body, 'application/json')).toBeUndefined();
	});
});

describe('fault injection', () => {
	test('status429 with Retry-After, count and path prefix', async () => {
		sandbox.faults.inject({ kind: 'status429', count: 2, retryAfter: 7, path: '/orders' });
		expect(sandbox.faults.pending()).toEqual([
			{ kind: 'status429', count: 2, retryAfter: 7, path: '/orders' },
		]);
		// Another path is not hit.
		expect((await call('/pos/v1/orders/1', { keys: posKeys() })).status).toBe(404);
		for (let i = 0; i < 2; i++) {
			const answer = await list('page=1&perpage=1');
			expect(answer.status).toBe(429);
			expect(answer.headers.get('retry-after')).toBe('7');
			expect(answer.body).toEqual({ message: expect.any(String), status: 'fail', code: '429' });
		}
		expect(sandbox.faults.pending()).toEqual([]);
		expect((await list('page=1&perpage=1')).status).toBe(200);
	});

	test('after: the first n matching requests pass, then the fault hits', async () => {
		sandbox.faults.inject({ kind: 'status500', after: 2, path: '/orders' });
		expect((await list('page=1&perpage=1')).status).toBe(200);
		expect((await list('page=1&perpage=1')).status).toBe(200);
		expect((await list('page=1&perpage=1')).status).toBe(500);
		expect((await list('page=1&perpage=1')).status).toBe(200);
		expect(() => sandbox.faults.inject({ kind: 'status500', after: -1 })).toThrow(
			'after must be a non-negative integer',
		);
	});

	test('429 with an HTTP-date Retry-After', async () => {
		const date = new Date(Date.now() + 5000).toUTCString();
		sandbox.faults.inject({ kind: 'status429', retryAfter: date });
		expect((await list('')).headers.get('retry-after')).toBe(date);
	});

	test('faults come before authentication and faulted requests are logged', async () => {
		sandbox.clearRequests();
		sandbox.faults.inject({ kind: 'status500' });
		const answer = await call(LIST_PATH);
		expect(answer.status).toBe(500);
		expect(answer.body).toEqual({ message: expect.any(String), status: 'fail', code: '500' });
		expect(sandbox.requests.map((r) => r.path)).toEqual([LIST_PATH]);
	});

	test('html502 answers an HTML page', async () => {
		sandbox.faults.inject({ kind: 'html502' });
		const answer = await list('');
		expect(answer.status).toBe(502);
		expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
		expect(answer.text).toContain('502 Bad Gateway');
	});

	test('bodyFail answers HTTP 200 with the default or given body', async () => {
		const custom = { status: 'fail', code: 'X1', message: 'custom' };
		sandbox.faults.inject({ kind: 'bodyFail' });
		sandbox.faults.inject({ kind: 'bodyFail', body: custom });
		const first = await list('');
		expect(first.status).toBe(200);
		expect(first.body).toEqual({
			status: 'fail',
			code: 'E0044',
			message: 'Transaction is not in a refundable state',
		});
		expect((await list('')).body).toEqual(custom);
	});

	test('reset destroys the socket without a response', async () => {
		sandbox.faults.inject({ kind: 'reset' });
		await expect(list('')).rejects.toThrow();
		expect((await list('page=1&perpage=1')).status).toBe(200);
	});

	test('timeout holds the request, then drops the connection', async () => {
		sandbox.faults.inject({ kind: 'timeout', delayMs: 300 });
		const started = Date.now();
		await expect(list('')).rejects.toThrow();
		expect(Date.now() - started).toBeGreaterThanOrEqual(250);
	});

	test('timeout lets a client give up first', async () => {
		sandbox.faults.inject({ kind: 'timeout' });
		const init = { keys: sandbox.keys.hosted, signal: AbortSignal.timeout(100) };
		await expect(call(LIST_PATH, init)).rejects.toThrow();
		expect((await list('page=1&perpage=1')).status).toBe(200);
	});

	test('inject rejects malformed faults; clear empties the queue', () => {
		expect(() => sandbox.faults.inject({ kind: 'nope' } as never)).toThrow(TypeError);
		expect(() => sandbox.faults.inject({ kind: 'reset', count: 0 })).toThrow(TypeError);
		sandbox.faults.inject({ kind: 'reset', count: 3 });
		sandbox.faults.clear();
		expect(sandbox.faults.pending()).toEqual([]);
	});
});

describe('HTTP controls under /__sandbox/', () => {
	test('faults, request log and state summary', async () => {
		sandbox.clearRequests();
		expect((await postJson('/__sandbox/faults', { kind: 'status500', count: 2 })).status).toBe(201);
		expect((await postJson('/__sandbox/faults', { kind: 'bogus' })).status).toBe(400);
		expect((await list('')).status).toBe(500);
		expect(sandbox.faults.pending()).toEqual([{ kind: 'status500', count: 1 }]);
		expect((await call('/__sandbox/faults', { method: 'DELETE' })).status).toBe(200);
		expect((await list('page=1&perpage=1')).status).toBe(200);

		const logged = await call('/__sandbox/requests');
		const seen = logged.body.data.map((r: { path: string; query: object }) => [r.path, r.query]);
		expect(seen).toEqual([
			[LIST_PATH, {}],
			[LIST_PATH, { page: '1', perpage: '1' }],
		]);
		expect((await call('/__sandbox/requests', { method: 'DELETE' })).status).toBe(200);
		expect(sandbox.requests).toHaveLength(0);

		await payoutToken();
		const summary = await call('/__sandbox/state/summary');
		expect(summary.body.data).toMatchObject({ seed: 1, transactions: 250, pendingFaults: [] });
		expect(summary.body.data.payoutTokens.valid).toBeGreaterThan(0);
		await postJson('/__sandbox/payout-tokens/expire', {});
		expect((await call('/__sandbox/state/summary')).body.data.payoutTokens.valid).toBe(0);
	});
});
