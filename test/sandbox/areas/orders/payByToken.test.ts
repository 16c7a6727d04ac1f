import { startSandbox, type Sandbox } from '../..';
import { WEBHOOK_FIELDS, orderData, sandboxClient } from '../../testClient';

let sandbox: Sandbox;
let api: ReturnType<typeof sandboxClient>;

beforeAll(async () => {
	sandbox = await startSandbox();
	api = sandboxClient(sandbox);
});
afterAll(() => sandbox.stop());
afterEach(() => sandbox.state.resetSettings());

const INELIGIBLE =
	'Card is not tokenized for merchant-initiated payments; ' +
	'complete the payment via the payment link';
const fail422 = (message: string) => ({ message, status: 'fail', code: '422' });

let customerSeq = 0;
/** A fresh customer with an eligible token on the current PSP. */
function customerWithToken(fields: Record<string, unknown> = {}) {
	customerSeq += 1;
	const customer = `CAUTH-${customerSeq}`;
	const token = sandbox.state.addToken({
		m_customer_id: customer,
		scheme: 'MASTERCARD',
		mask_card_number: '555555XXXXXX4444',
		card_type: 'DEBIT',
		card_country: 'AE',
		expiry_month: '07',
		expiry_year: '2031',
		...fields,
	}).token;
	return { customer, token };
}

function cauth(customer: string, token: string, extra: Record<string, unknown> = {}) {
	const data = orderData({ class: 'CAUTH', action: 'SALE', payment_token: token, ...extra });
	data.customer_details.m_customer_id = customer;
	return data;
}

describe('pay by token (CAUTH)', () => {
	test('SALE is paid at once: success envelope with the full webhook payload', async () => {
		const { customer, token } = customerWithToken();
		const data = cauth(customer, token);
		const answer = await api.create(data, sandbox.keys.s2s);
		expect(answer.status).toBe(200);
		expect(answer.body).toEqual({
			status: 'success',
			code: '00',
			message: 'Payment successful via MPGS',
			data: expect.any(Object),
		});
		const payload = answer.body.data;
		expect(Object.keys(payload).sort()).toEqual(WEBHOOK_FIELDS);
		expect(payload).toMatchObject({
			action: 'CAPTURE',
			status: 'SUCCESS',
			order_status: 'CAPTURED',
			m_order_id: data.order_details.m_order_id,
			is_live: false,
			currency: 'AED',
			amount: '100.00',
			shipping_fee: '5.00',
			convenience_fee: '2.00',
			channel: 'S2S',
			channel_id: '3',
			psp: 'MPGS',
			payment_method: 'Debit Card',
			m_payment_token: token,
			customer_details: {
				name: 'Test Buyer',
				email: 'buyer@example.com',
				code: '971',
				mobile: '501234567',
				m_customer_id: customer,
			},
			billing_address: {
				address_line_1: '1 Test Street',
				address_line_2: 'Unit 2',
				city: 'Dubai',
				state: 'Dubai',
				country: 'AE',
				pincode: '00001',
			},
			payment_method_data: {
				scheme: 'MASTERCARD',
				card_country: 'AE',
				card_type: 'DEBIT',
				mask_card_number: '555555XXXXXX4444',
				expiry_month: '07',
				expiry_year: '2031',
			},
			parameters: data.parameters,
			custom_data: data.custom_data,
		});
		for (const key of ['p_order_id', 'p_request_id', 'transaction_id', 'psp_ref_id']) {
			expect(typeof payload[key]).toBe('string');
		}
		const record = sandbox.state.transactionsById.get(payload.transaction_id)!;
		expect(record).toMatchObject({ status: 'CAPTURED', amount_captured: '100.00' });
		const events = sandbox.state.eventsOf(record.p_order_id);
		expect(events).toHaveLength(1);
		expect(events[0]).toMatchObject({
			url: 'https://merchant.example/hook',
			pending: true,
			payload,
		});
		// Paid: the hosted page refuses it.
		const page = await api.call(`/checkout/pay/${record.p_order_id}`);
		expect(page.status).toBe(409);
	});

	test('AUTH holds the funds: action AUTH, AUTHORISED, capturable later', async () => {
		const { customer, token } = customerWithToken();
		// capture_method does not matter for pay by token: AUTH is captured via Manage Payment.
		const data = cauth(customer, token, { action: 'AUTH', capture_method: 'AUTOMATIC' });
		const answer = await api.create(data);
		expect(answer.body.status).toBe('success');
		expect(answer.body.data).toMatchObject({
			action: 'AUTH',
			order_status: 'AUTHORISED',
			status: 'SUCCESS',
		});
		const capture = await api.manage({
			action: 'CAPTURE',
			transaction_id: answer.body.data.transaction_id,
			amount: { currencyCode: 'AED', value: 100 },
		});
		expect(capture.body.data.status).toBe('CAPTURED');
	});

	test('an amount ending in .51 is declined by the PSP: PAYMENT_FAILED envelope', async () => {
		const { customer, token } = customerWithToken();
		const data = cauth(customer, token);
		data.order_details.amount = 100.51;
		const answer = await api.create(data);
		expect(answer.status).toBe(200);
		const record = sandbox.state.transactions.find(
			(t) => t.m_order_id === data.order_details.m_order_id,
		)!;
		expect(answer.body).toEqual({
			status: 'failed',
			code: 'PAYMENT_FAILED',
			message: 'Transaction Failed',
			data: {
				action: 'SALE',
				status: 'FAILED',
				order_status: 'FAILED',
				m_order_id: data.order_details.m_order_id,
				p_order_id: record.p_order_id,
				p_request_id: String(record.p_request_id),
				transaction_id: record.transaction_id,
				currency: 'AED',
				amount: '100.51',
				m_payment_token: token,
				payment_method_data: {
					scheme: 'MASTERCARD',
					card_country: 'AE',
					card_type: 'DEBIT',
					mask_card_number: '555555XXXXXX4444',
				},
			},
			payment_link: `${sandbox.checkoutUrl}/pay/${record.p_order_id}`,
			iframe_link: `${sandbox.checkoutUrl}/iframe/${record.p_order_id}`,
		});
		expect(record.status).toBe('FAILED');
		const events = sandbox.state.eventsOf(record.p_order_id);
		expect(events.map((e) => e.payload.status)).toEqual(['FAILED']);
		// The offered link still takes the payment.
		const paid = await api.complete(record.p_order_id, { outcome: 'pay' });
		expect(paid.body.order.status).toBe('CAPTURED');
		expect(record.internal.history.map((h) => h.status)).toEqual(['PENDING', 'FAILED', 'CAPTURED']);
	});

	test('.51 also declines three-decimal currencies (.510), not .512 or .5', async () => {
		const outcome = async (amount: number, currency: string) => {
			const { customer, token } = customerWithToken();
			const data = cauth(customer, token);
			Object.assign(data.order_details, { amount, currency });
			return (await api.create(data)).body.status;
		};
		expect(await outcome(20.51, 'KWD')).toBe('failed');
		expect(await outcome(20.512, 'KWD')).toBe('success');
		expect(await outcome(20.5, 'AED')).toBe('success');
		expect(await outcome(51, 'AED')).toBe('success');
	});

	test('token not eligible for MIT: standard response; the customer pays on the page', async () => {
		const { customer, token } = customerWithToken();
		sandbox.state.setTokenEligible(token, false);
		const data = cauth(customer, token, { action: 'AUTH' });
		const answer = await api.create(data);
		expect(answer.status).toBe(200);
		const id = answer.body.p_order_id;
		expect(answer.body).toEqual({
			status: 'SUCCESS',
			status_code: '00',
			message: INELIGIBLE,
			p_order_id: expect.any(Number),
			m_order_id: data.order_details.m_order_id,
			p_request_id: expect.any(Number),
			order_creation_date: expect.any(String),
			amount: 'AED 100.00',
			payment_link: `${sandbox.checkoutUrl}/pay/${id}`,
			iframe_link: `${sandbox.checkoutUrl}/iframe/${id}`,
		});
		expect(sandbox.state.transactionsByPOrderId.get(String(id))!.status).toBe('PENDING');
		expect(sandbox.state.eventsOf(String(id))).toEqual([]);
		const done = await api.complete(id, { outcome: 'pay' });
		expect(done.body.order).toMatchObject({ status: 'AUTHORISED', m_payment_token: token });
		const [event] = sandbox.state.eventsOf(String(id));
		expect(event.payload).toMatchObject({
			action: 'AUTH',
			status: 'SUCCESS',
			order_status: 'AUTHORISED',
		});
		// Paying on the page registered the mandate: the next charge is immediate.
		expect(sandbox.state.tokens.get(token)!.mitEligible).toBe(true);
		expect((await api.create(cauth(customer, token))).body.status).toBe('success');
	});

	test('token errors are 422 with distinct messages', async () => {
		const { customer, token } = customerWithToken();
		const other = customerWithToken();
		const nonToken = await api.create(cauth(customer, 'tok_does_not_exist'));
		const foreign = await api.create(cauth(customer, other.token));
		const ni = customerWithToken({ psp: 'NI' });
		const mismatch = await api.create(cauth(ni.customer, ni.token));
		const bodies = [nonToken, foreign, mismatch].map((a) => [a.status, a.body]);
		expect(bodies).toEqual([
			[422, fail422('Invalid payment token')],
			[422, fail422('Payment token does not belong to this customer (m_customer_id)')],
			[
				422,
				fail422(
					'Payment token PSP mismatch: issued by NI, the configured PSP is MPGS; ' +
						'tokenize the card again',
				),
			],
		]);
		// Changing the PSP invalidates existing tokens.
		sandbox.state.settings.currentPsp = 'CHECKOUT';
		const changed = await api.create(cauth(customer, token));
		expect([changed.status, changed.body.message]).toEqual([
			422,
			expect.stringContaining('PSP mismatch'),
		]);
	});

	test('CAUTH MID switched off → 403', async () => {
		const { customer, token } = customerWithToken();
		sandbox.state.settings.cauthEnabled = false;
		const answer = await api.create(cauth(customer, token));
		expect(answer.status).toBe(403);
		expect(answer.body).toEqual({
			message: 'CAUTH (pay by token) is not enabled for this merchant account',
			status: 'fail',
			code: '403',
		});
		// ECOM is unaffected.
		expect((await api.create(orderData())).status).toBe(200);
	});

	test('generated transactions seed the tokens of their customers', async () => {
		const seeded = sandbox.state.transactions.filter(
			(t) => t.m_customer_id && t.m_payment_token && !sandbox.state.orders.has(t.p_order_id),
		);
		expect(seeded.length).toBeGreaterThan(0);
		for (const t of seeded) {
			expect(sandbox.state.tokens.get(t.m_payment_token!)).toMatchObject({
				m_customer_id: t.m_customer_id,
				psp: 'MPGS',
				mitEligible: true,
				mask_card_number: t.payment_method_data.masked_pan,
				scheme: t.payment_method_data.scheme,
			});
		}
		const [t] = seeded;
		const answer = await api.create(cauth(t.m_customer_id!, t.m_payment_token!));
		expect(answer.body.status).toBe('success');
		expect(answer.body.data.payment_method_data.expiry_month).toMatch(/^(0[1-9]|1[0-2])$/);
	});

	test('tokens can be added over HTTP', async () => {
		const added = await api.postJson('/__sandbox/tokens', {
			m_customer_id: 'HTTP-1',
			mitEligible: false,
		});
		expect(added.status).toBe(201);
		const { token } = added.body.data;
		expect(sandbox.state.tokens.get(token)).toMatchObject({
			m_customer_id: 'HTTP-1',
			mitEligible: false,
		});
		const answer = await api.create(cauth('HTTP-1', token));
		expect(answer.body.status).toBe('SUCCESS');
		expect((await api.postJson('/__sandbox/tokens', {})).status).toBe(400);
	});
});
