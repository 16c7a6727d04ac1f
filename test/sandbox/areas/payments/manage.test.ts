import { startSandbox, type Sandbox, type TransactionRecord } from '../..';
import { orderData, sandboxClient } from '../../testClient';

let sandbox: Sandbox;
let api: ReturnType<typeof sandboxClient>;

beforeAll(async () => {
	sandbox = await startSandbox();
	api = sandboxClient(sandbox);
});
afterAll(() => sandbox.stop());
afterEach(() => sandbox.state.resetSettings());

const DAY = /^\d{2}\/\d{2}\/\d{4}$/;

/** A created order paid on the hosted page: AUTH MANUAL → AUTHORISED, SALE → CAPTURED. */
async function paidOrder(extra: Record<string, unknown>, amount = 100, currency = 'AED') {
	const data = orderData(extra);
	Object.assign(data.order_details, { amount, currency });
	const { body } = await api.create(data);
	const id = String(body.p_order_id);
	sandbox.state.completeOrder(id, 'pay');
	return sandbox.state.transactionsByPOrderId.get(id)!;
}
const authorised = (amount?: number, currency?: string) =>
	paidOrder({ action: 'AUTH', capture_method: 'MANUAL' }, amount, currency);
const captured = (amount?: number, currency?: string) =>
	paidOrder({ action: 'SALE' }, amount, currency);

const op = (action: string, record: TransactionRecord, value: unknown, extra: object = {}) =>
	api.manage({
		action,
		transaction_id: record.transaction_id,
		amount: { currencyCode: record.currency, value },
		...extra,
	});

const e0044 = (message: string) => ({ message, status: 'fail', code: 'E0044' });
const statuses = (record: TransactionRecord) => record.internal.history.map((h) => h.status);
const webhooks = (record: TransactionRecord) =>
	sandbox.state
		.eventsOf(record.p_order_id)
		.map((e) => [e.payload.action, e.payload.status, e.payload.order_status]);

describe('manage payment: capture → partial refund → refund rest', () => {
	test('ends REFUNDED with the spec response shapes, history and webhooks', async () => {
		const record = await authorised();
		const capture = await op('CAPTURE', record, 100);
		expect(capture.status).toBe(200);
		expect(capture.body).toEqual({
			data: {
				status: 'CAPTURED',
				m_order_id: record.m_order_id,
				p_order_id: Number(record.p_order_id),
				transaction_id: Number(record.transaction_id),
				amount: '100.00',
				currency: 'AED',
				date: expect.stringMatching(DAY),
			},
			message: 'Captured Successfully.',
			status: 'success',
			code: '00',
		});
		const partial = await op('REFUND', record, 30, { reason: 'damaged' });
		expect(partial.body).toMatchObject({
			data: { status: 'PARTIALLY_REFUNDED', amount: '30.00' },
			message: 'Refunded Successfully.',
			status: 'success',
			code: '00',
		});
		const rest = await op('REFUND', record, '70');
		expect(rest.body.data).toMatchObject({ status: 'REFUNDED', amount: '70.00' });
		expect(record).toMatchObject({
			status: 'REFUNDED',
			amount_captured: '100.00',
			reason: 'damaged',
		});
		expect(record.internal.amount_refunded).toBe('100.00');
		expect(statuses(record)).toEqual([
			'PENDING',
			'AUTHORISED',
			'CAPTURED',
			'PARTIALLY_REFUNDED',
			'REFUNDED',
		]);
		const amounts = record.internal.history.slice(2).map((h) => h.amount);
		expect(amounts).toEqual(['100.00', '30.00', '70.00']);
		expect(webhooks(record)).toEqual([
			['AUTH', 'SUCCESS', 'AUTHORISED'],
			['CAPTURE', 'SUCCESS', 'CAPTURED'],
			['REFUND', 'SUCCESS', 'PARTIALLY_REFUNDED'],
			['REFUND', 'SUCCESS', 'REFUNDED'],
		]);
		expect(sandbox.state.eventsOf(record.p_order_id)[2].payload.remark).toBe('damaged');
		// Balance zero: nothing more to refund.
		const more = await op('REFUND', record, 1);
		expect([more.status, more.body]).toEqual([400, e0044('Transaction is already fully refunded')]);
		const pos = await api.pos(record.p_order_id);
		expect(pos.body.data.transaction_history.map((h: { status: string }) => h.status)).toEqual(
			statuses(record),
		);
		const listQuery = `status=REFUNDED&p_order_id=${record.p_order_id}`;
		const listed = await api.call(`/orders/v1/transaction-list?${listQuery}`, {
			keys: sandbox.keys.hosted,
		});
		expect(listed.body.total_records).toBe(1);
		// docs/assumptions.md: refunds leave amount_captured as captured, and no refunded total is listed.
		expect(listed.body.data[0].amount_captured).toBe('100.00');
		expect(Object.keys(listed.body.data[0]).filter((key) => /refund/i.test(key))).toEqual([]);
	});

	test('partial capture: PARTIALLY_CAPTURE, refundable up to the captured amount', async () => {
		const record = await authorised();
		const capture = await op('CAPTURE', record, 40);
		expect(capture.body.data).toMatchObject({ status: 'PARTIALLY_CAPTURE', amount: '40.00' });
		expect(record.amount_captured).toBe('40.00');
		// One capture per authorisation.
		const again = await op('CAPTURE', record, 10);
		expect(again.body).toEqual(
			e0044('Transaction is not in a capturable state (status PARTIALLY_CAPTURE)'),
		);
		expect((await op('VOID', record, 60)).body.code).toBe('E0044');
		expect((await op('REFUND', record, 41)).body.code).toBe('REFUND_EXCEEDS_BALANCE');
		expect((await op('REFUND', record, 40)).body.data.status).toBe('REFUNDED');
	});

	test('capture above the authorised amount or of a capture is refused', async () => {
		const record = await authorised(50);
		const above = await op('CAPTURE', record, 50.01);
		expect([above.status, above.body]).toEqual([
			400,
			{
				message: 'Capture amount exceeds the authorised amount 50.00',
				status: 'fail',
				code: '400',
			},
		]);
		const paid = await captured();
		const twice = await op('CAPTURE', paid, 100);
		expect([twice.status, twice.body]).toEqual([
			400,
			e0044('Transaction is not in a capturable state (status CAPTURED)'),
		]);
	});
});

describe('manage payment: void', () => {
	test('void of an authorisation → VOID', async () => {
		const record = await authorised();
		const answer = await op('VOID', record, 100, { reason: 'customer changed mind' });
		expect(answer.status).toBe(200);
		expect(answer.body).toEqual({
			data: {
				status: 'VOID',
				m_order_id: record.m_order_id,
				p_order_id: Number(record.p_order_id),
				transaction_id: Number(record.transaction_id),
				amount: '100.00',
				currency: 'AED',
				date: expect.stringMatching(DAY),
			},
			message: 'Transaction successfully void',
			status: 'success',
			code: '00',
		});
		expect(record).toMatchObject({
			status: 'VOID',
			reason: 'customer changed mind',
			amount_captured: '0.00',
		});
		expect(webhooks(record).at(-1)).toEqual(['VOID', 'SUCCESS', 'VOID']);
		expect((await op('VOID', record, 100)).body).toEqual(e0044('Transaction is already voided'));
		expect((await op('CAPTURE', record, 100)).body.code).toBe('E0044');
	});

	test('void after capture is E0044', async () => {
		const record = await captured();
		const answer = await op('VOID', record, 100);
		expect(answer.status).toBe(400);
		expect(answer.body).toEqual(e0044('Transaction is not in a voidable state (status CAPTURED)'));
		expect(record.status).toBe('CAPTURED');
	});

	test('allowVoid off → E0044', async () => {
		const record = await authorised();
		sandbox.state.settings.allowVoid = false;
		const answer = await op('VOID', record, 100);
		expect([answer.status, answer.body]).toEqual([400, e0044('Void is not enabled on the MID')]);
		expect(record.status).toBe('AUTHORISED');
	});

	test('a tokenization (AUTH_REVERSAL) is already voided and cannot be captured', async () => {
		const record = await paidOrder({ action: 'AUTH_REVERSAL' });
		expect(record.status).toBe('AUTHORISED');
		expect((await op('VOID', record, 100)).body).toEqual(e0044('Transaction is already voided'));
		expect((await op('CAPTURE', record, 100)).body.code).toBe('E0044');
		expect((await op('REFUND', record, 100)).body.code).toBe('E0044');
	});
});

describe('manage payment: refund', () => {
	test('refund of an authorisation is E0044 with a human message', async () => {
		const record = await authorised();
		const answer = await op('REFUND', record, 10);
		expect([answer.status, answer.body]).toEqual([
			400,
			e0044('An authorisation cannot be refunded; void it instead (status AUTHORISED)'),
		]);
	});

	test('over-refund: HTTP 200 with success false and a PSP message; nothing changes', async () => {
		const record = await captured();
		expect((await op('REFUND', record, 60)).body.data.status).toBe('PARTIALLY_REFUNDED');
		const events = sandbox.state.events.length;
		const over = await op('REFUND', record, 40.01);
		expect(over.status).toBe(200);
		expect(over.body).toEqual({
			success: false,
			status: 'failed',
			code: 'REFUND_EXCEEDS_BALANCE',
			message: 'MPGS: refund amount exceeds the refundable balance',
		});
		expect(record).toMatchObject({ status: 'PARTIALLY_REFUNDED' });
		expect(record.internal.amount_refunded).toBe('60.00');
		expect(sandbox.state.events.length).toBe(events);
		expect((await op('REFUND', record, 40)).body.data.status).toBe('REFUNDED');
	});

	test('allowRefunds off → E0044; refund below 1 → 400', async () => {
		const record = await captured();
		expect((await op('REFUND', record, 0.99)).body).toEqual({
			message: 'Refund amount.value must be at least 1',
			status: 'fail',
			code: '400',
		});
		sandbox.state.settings.allowRefunds = false;
		const answer = await op('REFUND', record, 10);
		expect([answer.status, answer.body]).toEqual([
			400,
			e0044('Refunds are not enabled on the MID'),
		]);
	});

	test('three-decimal currencies keep exact sums', async () => {
		const record = await captured(10.5, 'KWD');
		expect((await op('REFUND', record, 3.333)).body.data).toMatchObject({
			status: 'PARTIALLY_REFUNDED',
			amount: '3.333',
			currency: 'KWD',
		});
		expect((await op('REFUND', record, 7.167)).body.data.status).toBe('REFUNDED');
	});

	test('generated records follow the same rules', async () => {
		const seeded = (status: string) =>
			sandbox.state.transactions.find(
				(t) => t.status === status && !sandbox.state.orders.has(t.p_order_id),
			)!;
		const partly = seeded('PARTIALLY_REFUNDED');
		const left = Number(partly.amount_captured) - Number(partly.internal.amount_refunded);
		const balance = left.toFixed(partly.amount.split('.')[1].length);
		const rest = await op('REFUND', partly, Number(balance));
		expect(rest.body.data.status).toBe('REFUNDED');
		const auth = seeded('AUTHORISED');
		expect((await op('VOID', auth, Number(auth.amount))).body.data.status).toBe('VOID');
		expect(sandbox.state.eventsOf(auth.p_order_id)[0].payload).toMatchObject({
			action: 'VOID',
			order_status: 'VOID',
			customer_details: { m_customer_id: auth.m_customer_id, email: auth.internal.customer_email },
		});
		const failed = seeded('FAILED');
		expect((await op('REFUND', failed, 1)).body).toEqual(
			e0044('Transaction is not in a refundable state (status FAILED)'),
		);
	});
});

describe('manage payment: request validation', () => {
	const REFUND_1 = { action: 'REFUND', transaction_id: '1' };
	test.each([
		[{}, 'action is required'],
		[{ action: 'SETTLE' }, 'action must be REFUND, VOID or CAPTURE'],
		[{ action: 'refund' }, 'action must be REFUND, VOID or CAPTURE'],
		[{ action: 'REFUND' }, 'transaction_id is required'],
		[{ action: 'REFUND', transaction_id: '1' }, 'amount is required'],
		[{ ...REFUND_1, amount: { value: 1 } }, 'amount.currencyCode is required'],
		[{ ...REFUND_1, amount: { currencyCode: 'AED' } }, 'amount.value must be a plain number'],
		[
			{ ...REFUND_1, amount: { currencyCode: 'AED', value: '1,5' } },
			'amount.value must be a plain number',
		],
		[
			{ ...REFUND_1, amount: { currencyCode: 'AED', value: 1 }, reason: 5 },
			'reason must be a string',
		],
		[{ data: { action: 'REFUND' } }, 'action is required'],
	])('%j → 400', async (body, message) => {
		const answer = await api.manage(body);
		expect(answer.status).toBe(400);
		expect(answer.body).toEqual({
			message: expect.stringContaining(message),
			status: 'fail',
			code: '400',
		});
	});

	test('unknown transaction → 400 E0044', async () => {
		const answer = await api.manage({
			action: 'REFUND',
			transaction_id: '42',
			amount: { currencyCode: 'AED', value: 5 },
		});
		expect([answer.status, answer.body]).toEqual([400, e0044('Transaction 42 not found')]);
	});

	test('currency must match; decimals must fit the currency; numeric ids work', async () => {
		const record = await captured();
		const wrong = await api.manage({
			action: 'REFUND',
			transaction_id: record.transaction_id,
			amount: { currencyCode: 'USD', value: 5 },
		});
		expect([wrong.status, wrong.body.code, wrong.body.message]).toEqual([
			400,
			'400',
			'amount.currencyCode "USD" does not match the transaction currency AED',
		]);
		const precise = await op('REFUND', record, 5.001);
		expect(precise.body.message).toBe('amount.value has more decimal places than AED allows');
		const numeric = await api.manage({
			action: 'REFUND',
			transaction_id: Number(record.transaction_id),
			amount: { currencyCode: 'AED', value: 5 },
		});
		expect(numeric.body.data.status).toBe('PARTIALLY_REFUNDED');
	});

	test('keys: hosted, SDK and S2S only', async () => {
		const body = { ...REFUND_1, amount: { currencyCode: 'AED', value: 5 } };
		expect((await api.manage(body, sandbox.keys.sdk)).status).toBe(400);
		expect((await api.manage(body, sandbox.keys.s2s)).status).toBe(400);
		expect((await api.manage(body, sandbox.keys.paymentLink)).status).toBe(401);
	});
});
