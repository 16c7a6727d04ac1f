import { TEST_CARDS, startSandbox, type Sandbox } from '../..';
import { WEBHOOK_FIELDS, orderData, sandboxClient } from '../../testClient';

let sandbox: Sandbox;
let api: ReturnType<typeof sandboxClient>;

beforeAll(async () => {
	sandbox = await startSandbox();
	api = sandboxClient(sandbox);
});
afterAll(() => sandbox.stop());
afterEach(() => sandbox.state.resetSettings());

async function createOrder(extra: Record<string, unknown> = {}, edit?: (d: any) => void) {
	const data = orderData(extra);
	edit?.(data);
	const answer = await api.create(data);
	expect(answer.status).toBe(200);
	const id = String(answer.body.p_order_id);
	return { id, data, record: sandbox.state.transactionsByPOrderId.get(id)! };
}

const query = (location: string) => Object.fromEntries(new URL(location).searchParams);
const webhooks = (id: string) =>
	sandbox.state
		.eventsOf(id)
		.map((e) => [e.payload.action, e.payload.status, e.payload.order_status]);
const base = (location: string) => location.split('?')[0];

describe('hosted payment page', () => {
	test('GET pay and iframe pages: order summary, card field, Pay / Decline / Cancel', async () => {
		const { id } = await createOrder();
		for (const kind of ['pay', 'iframe']) {
			const page = await api.call(`/checkout/${kind}/${id}`);
			expect(page.status).toBe(200);
			expect(page.headers.get('content-type')).toMatch(/^text\/html/);
			expect(page.text).toContain('AED 100.00');
			expect(page.text).toContain('Test order');
			expect(page.text).toContain(`name="card" value="${TEST_CARDS.visa}"`);
			expect(page.text).toContain(`action="/checkout/pay/${id}"`);
			for (const outcome of ['pay', 'decline', 'cancel']) {
				expect(page.text).toContain(`name="outcome" value="${outcome}"`);
			}
			expect(page.text.includes('target="_top"')).toBe(kind === 'iframe');
		}
		expect((await api.call('/checkout/pay/123')).status).toBe(404);
	});

	test('Pay redirects to the success URL with the callback parameters; state updated', async () => {
		const { id, data, record } = await createOrder();
		const answer = await api.submitForm(`/checkout/pay/${id}`, {
			outcome: 'pay',
			card: TEST_CARDS.visa,
		});
		expect(answer.status).toBe(302);
		const location = answer.headers.get('location')!;
		expect(base(location)).toBe('https://merchant.example/ok');
		expect(query(location)).toEqual({
			status: 'SUCCESS',
			p_order_id: id,
			m_order_id: data.order_details.m_order_id,
			transaction_id: record.transaction_id,
			amount: '100.00',
			currency: 'AED',
			payment_method: 'Credit Card',
		});
		expect(record).toMatchObject({
			status: 'CAPTURED',
			amount_captured: '100.00',
			payment_method: 'Credit Card',
			payment_method_data: {
				scheme: 'VISA',
				card_country: 'AE',
				card_type: 'CREDIT',
				masked_pan: '411111XXXXXX1111',
			},
		});
		expect(record.internal.history.map((h) => h.status)).toEqual(['PENDING', 'CAPTURED']);

		const [event] = sandbox.state.eventsOf(id);
		expect(event).toEqual({
			id: expect.stringMatching(/^evt_\d{6}$/),
			p_order_id: id,
			url: 'https://merchant.example/hook',
			payload: expect.any(Object),
			createdAt: expect.any(Number),
			// merchant.example is a reserved name: the first try fails at once, retries follow.
			pending: true,
			delivery: 'pending',
			attempts: expect.any(Number),
		});
		expect(Object.keys(event.payload).sort()).toEqual(WEBHOOK_FIELDS);
		expect(event.payload).toMatchObject({
			action: 'SALE',
			status: 'SUCCESS',
			order_status: 'CAPTURED',
			transaction_id: record.transaction_id,
			shipping_address: {
				address_line_1: '3 Ship Road',
				address_line_2: '',
				city: 'Abu Dhabi',
				state: 'Abu Dhabi',
				country: 'AE',
				pincode: '00002',
			},
			ip_country: 'AE',
			terminal_label: expect.any(String),
			parameters: data.parameters,
		});
		// A card payment carries a token of the customer, eligible for later MIT.
		expect(event.payload.m_payment_token).toBe(record.m_payment_token);
		expect(sandbox.state.tokens.get(record.m_payment_token!)).toMatchObject({
			m_customer_id: 'CUST-T1',
			psp: 'MPGS',
			mitEligible: true,
			mask_card_number: '411111XXXXXX1111',
		});
		expect(event.payload.payment_method_data).toEqual({
			scheme: 'VISA',
			card_country: 'AE',
			card_type: 'CREDIT',
			mask_card_number: '411111XXXXXX1111',
			expiry_month: '12',
			expiry_year: '2030',
		});
		const pos = await api.pos(id);
		expect(pos.body.data.transaction_history.map((h: { status: string }) => h.status)).toEqual([
			'PENDING',
			'CAPTURED',
		]);
	});

	test('paying twice shows an error page', async () => {
		const { id } = await createOrder();
		expect((await api.submitForm(`/checkout/pay/${id}`, { outcome: 'pay' })).status).toBe(302);
		for (const answer of [
			await api.call(`/checkout/pay/${id}`),
			await api.call(`/checkout/iframe/${id}`),
			await api.submitForm(`/checkout/pay/${id}`, { outcome: 'pay' }),
		]) {
			expect(answer.status).toBe(409);
			expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
			expect(answer.text).toContain('already completed');
		}
		expect(sandbox.state.eventsOf(id)).toHaveLength(1);
	});

	test('Decline redirects to the failure URL; the order is FAILED, so is the webhook', async () => {
		const { id, record } = await createOrder({ action: 'AUTH' });
		const answer = await api.submitForm(`/checkout/pay/${id}`, { outcome: 'decline' });
		expect(answer.status).toBe(302);
		const location = answer.headers.get('location')!;
		expect(base(location)).toBe('https://merchant.example/fail');
		expect(query(location)).toMatchObject({ status: 'FAILED', p_order_id: id });
		expect(record).toMatchObject({
			status: 'FAILED',
			reason: 'Declined by issuer',
			amount_captured: '0.00',
		});
		expect(webhooks(id)).toEqual([['AUTH', 'FAILED', 'FAILED']]);
		expect(record.m_payment_token).toBe('');
	});

	test('Cancel redirects to the cancel URL, status FAILED; the order stays payable', async () => {
		const { id, record } = await createOrder();
		const answer = await api.submitForm(`/checkout/pay/${id}`, { outcome: 'cancel' });
		expect(answer.status).toBe(302);
		const location = answer.headers.get('location')!;
		expect(base(location)).toBe('https://merchant.example/cancel');
		expect(query(location)).toMatchObject({ status: 'FAILED', p_order_id: id, payment_method: '' });
		expect(record.status).toBe('PENDING');
		expect(sandbox.state.eventsOf(id)).toEqual([]);
		expect((await api.submitForm(`/checkout/pay/${id}`, { outcome: 'pay' })).status).toBe(302);
		expect(record.status).toBe('CAPTURED');
	});

	test('the declined test card fails like the Decline button', async () => {
		const { id, record } = await createOrder();
		const answer = await api.submitForm(`/checkout/pay/${id}`, {
			outcome: 'pay',
			card: TEST_CARDS.declined,
		});
		expect(query(answer.headers.get('location')!).status).toBe('FAILED');
		expect(record).toMatchObject({ status: 'FAILED', reason: 'Do not honour' });
	});

	test('3-D Secure card: a code page, then 123456 passes', async () => {
		const { id, record } = await createOrder();
		const challenge = await api.submitForm(`/checkout/pay/${id}`, {
			outcome: 'pay',
			card: TEST_CARDS.threeDSecure,
		});
		expect(challenge.status).toBe(200);
		expect(challenge.text).toContain('3-D Secure');
		expect(challenge.text).toContain(`action="/checkout/pay/${id}/3ds"`);
		expect(challenge.text).toContain('name="otp"');
		expect(record.status).toBe('PENDING');
		const answer = await api.submitForm(`/checkout/pay/${id}/3ds`, {
			card: TEST_CARDS.threeDSecure,
			otp: '123456',
			outcome: 'pay',
		});
		expect(answer.status).toBe(302);
		expect(query(answer.headers.get('location')!).status).toBe('SUCCESS');
		expect(record.status).toBe('CAPTURED');
	});

	test('3-D Secure: a wrong code fails; cancel on the code page cancels', async () => {
		const wrong = await createOrder();
		const answer = await api.submitForm(`/checkout/pay/${wrong.id}/3ds`, {
			card: TEST_CARDS.threeDSecure,
			otp: '000000',
			outcome: 'pay',
		});
		expect(base(answer.headers.get('location')!)).toBe('https://merchant.example/fail');
		expect(wrong.record).toMatchObject({ status: 'FAILED', reason: '3DS authentication failed' });

		const cancelled = await createOrder();
		const cancel = await api.submitForm(`/checkout/pay/${cancelled.id}/3ds`, {
			card: TEST_CARDS.threeDSecure,
			outcome: 'cancel',
		});
		expect(base(cancel.headers.get('location')!)).toBe('https://merchant.example/cancel');
		expect(cancelled.record.status).toBe('PENDING');
	});

	test('an invalid card number shows the page again with the error; nothing changes', async () => {
		const { id, record } = await createOrder();
		const answer = await api.submitForm(`/checkout/pay/${id}`, {
			outcome: 'pay',
			card: '4111111111111112',
		});
		expect(answer.status).toBe(400);
		expect(answer.text).toContain('Invalid card number');
		expect(answer.text).toContain('name="card"');
		expect(record.status).toBe('PENDING');
	});

	test('empty redirect URLs fall back to the default pages, which exist', async () => {
		const { id } = await createOrder({}, (d) => {
			d.urls = { success: '', cancel: '', failure: '', webhook_url: '' };
		});
		const answer = await api.submitForm(`/checkout/pay/${id}`, { outcome: 'pay' });
		const location = answer.headers.get('location')!;
		expect(base(location)).toBe(`${sandbox.checkoutUrl}/result/success`);
		const page = await fetch(location);
		expect(page.status).toBe(200);
		expect(await page.text()).toContain('Payment successful');
		// No webhook URL anywhere: stored, but nothing to deliver.
		expect(sandbox.state.eventsOf(id)[0]).toMatchObject({ url: '', pending: false });
	});

	test('merchant defaults from the settings; redirect URLs keep their own query', async () => {
		sandbox.state.settings.defaultWebhookUrl = 'https://merchant.example/default-hook';
		sandbox.state.settings.defaultUrls.failure = 'https://merchant.example/default-fail';
		const { id } = await createOrder({}, (d) => {
			d.urls = { success: 'https://merchant.example/ok?shop=7', failure: '' };
		});
		const decline = await api.complete(id, { outcome: 'decline' });
		expect(base(decline.body.redirect)).toBe('https://merchant.example/default-fail');
		expect(sandbox.state.eventsOf(id)[0].url).toBe('https://merchant.example/default-hook');

		const kept = await createOrder({}, (d) => {
			d.urls.success = 'https://merchant.example/ok?shop=7';
		});
		const paid = await api.complete(kept.id, { outcome: 'pay' });
		expect(query(paid.body.redirect)).toMatchObject({ shop: '7', status: 'SUCCESS' });
	});
});

describe('state machine of hosted payments', () => {
	const flows: [string, Record<string, unknown>, string, string, string][] = [
		['SALE', { action: 'SALE' }, 'CAPTURED', 'SALE', '100.00'],
		['AUTH, capture_method omitted', { action: 'AUTH' }, 'CAPTURED', 'CAPTURE', '100.00'],
		[
			'AUTH AUTOMATIC',
			{ action: 'AUTH', capture_method: 'AUTOMATIC' },
			'CAPTURED',
			'CAPTURE',
			'100.00',
		],
		['AUTH MANUAL', { action: 'AUTH', capture_method: 'MANUAL' }, 'AUTHORISED', 'AUTH', '0.00'],
		['AUTH_REVERSAL', { action: 'AUTH_REVERSAL' }, 'AUTHORISED', 'AUTH_REVERSAL', '0.00'],
	];

	test.each(flows)('%s → %s, webhook %s', async (_name, extra, status, action, captured) => {
		const { id, record } = await createOrder(extra);
		const answer = await api.complete(id, { outcome: 'pay' });
		expect(answer.status).toBe(200);
		expect(answer.body.order).toMatchObject({ status, amount_captured: captured });
		expect(record.status).toBe(status);
		expect(webhooks(id)).toEqual([[action, 'SUCCESS', status]]);
	});

	test('AUTH_REVERSAL delivers a new eligible token of the customer in the webhook', async () => {
		const { id, record } = await createOrder({ action: 'AUTH_REVERSAL' }, (d) => {
			d.customer_details.m_customer_id = 'SAVER-1';
		});
		await api.complete(id, { outcome: 'pay', card: TEST_CARDS.mastercardDebit });
		const [event] = sandbox.state.eventsOf(id);
		const token = event.payload.m_payment_token;
		expect(token).toMatch(/^tok_[0-9a-f]{24}$/);
		expect(sandbox.state.tokens.get(token)).toMatchObject({
			m_customer_id: 'SAVER-1',
			mitEligible: true,
			scheme: 'MASTERCARD',
			card_type: 'DEBIT',
		});
		expect(record.m_payment_token).toBe(token);
		// The saved card pays at once.
		const charge = orderData({ class: 'CAUTH', payment_token: token });
		charge.customer_details.m_customer_id = 'SAVER-1';
		expect((await api.create(charge)).body.status).toBe('success');
	});

	test('"mandate not registered" card: the token needs the payment page later', async () => {
		const { id } = await createOrder({ action: 'AUTH_REVERSAL' }, (d) => {
			d.customer_details.m_customer_id = 'SAVER-2';
		});
		await api.complete(id, { outcome: 'pay', card: TEST_CARDS.mandateNotRegistered });
		const token = sandbox.state.eventsOf(id)[0].payload.m_payment_token;
		expect(sandbox.state.tokens.get(token)!.mitEligible).toBe(false);
		const charge = orderData({ class: 'CAUTH', payment_token: token });
		charge.customer_details.m_customer_id = 'SAVER-2';
		const answer = await api.create(charge);
		expect(answer.body.status).toBe('SUCCESS');
		expect(answer.body.payment_link).toContain('/checkout/pay/');
	});

	test('events alternate the two transaction_time forms', async () => {
		const first = await createOrder();
		const second = await createOrder();
		await api.complete(first.id, { outcome: 'pay' });
		await api.complete(second.id, { outcome: 'pay' });
		const times = [first.id, second.id].map(
			(id) => sandbox.state.eventsOf(id)[0].payload.transaction_time,
		);
		const dash = /^\d{2}-\d{2}-\d{4} \d{2}:\d{2}:\d{2}$/;
		const slash = /^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/;
		const forms = times.map((t) => (dash.test(t) ? 'dash' : slash.test(t) ? 'slash' : t));
		expect(forms.sort()).toEqual(['dash', 'slash']);
		const ids = sandbox.state.events.map((e) => Number(e.id.slice(4)));
		for (const event of sandbox.state.events) {
			const odd = Number(event.id.slice(4)) % 2 === 1;
			expect(event.payload.transaction_time).toMatch(odd ? dash : slash);
		}
		expect(ids).toEqual([...ids].sort((a, b) => a - b));
	});
});

describe('test-only completion', () => {
	test('POST /__sandbox/orders/:id/complete answers { redirect, order }', async () => {
		const { id, record } = await createOrder();
		const answer = await api.complete(id, { outcome: 'pay', card: TEST_CARDS.visa });
		expect(answer.status).toBe(200);
		expect(Object.keys(answer.body).sort()).toEqual(['order', 'redirect']);
		expect(answer.body.redirect).toMatch(/^https:\/\/merchant\.example\/ok\?status=SUCCESS&/);
		expect(answer.body.order).toMatchObject({
			p_order_id: id,
			transaction_id: record.transaction_id,
		});
		expect(answer.body.order.internal).toBeUndefined();
	});

	test('errors: unknown 404, completed 409, bad outcome or card, 3DS without otp', async () => {
		const { id } = await createOrder();
		const cases: [unknown, number, string][] = [
			[{ outcome: 'refund' }, 400, 'outcome must be pay, decline or cancel'],
			[{ outcome: 'pay', card: '1234' }, 400, 'Invalid card number'],
			[{ outcome: 'pay', card: 4111111111111111 }, 400, 'card must be a string'],
			[{ outcome: 'pay', card: TEST_CARDS.threeDSecure }, 400, 'needs 3-D Secure: send otp'],
		];
		for (const [body, status, message] of cases) {
			const answer = await api.complete(id, body);
			expect([answer.status, answer.body]).toEqual([
				status,
				{ message: expect.stringContaining(message), status: 'fail', code: String(status) },
			]);
		}
		const ok = await api.complete(id, {
			outcome: 'pay',
			card: TEST_CARDS.threeDSecure,
			otp: '123456',
		});
		expect(ok.body.order.status).toBe('CAPTURED');
		const again = await api.complete(id, { outcome: 'pay' });
		expect([again.status, again.body.code]).toEqual([409, '409']);
		expect((await api.complete('999', { outcome: 'pay' })).status).toBe(404);
	});

	test('state.completeOrder does the same in process', async () => {
		const { id, record } = await createOrder({ action: 'AUTH', capture_method: 'MANUAL' });
		const result = sandbox.state.completeOrder(id, 'pay');
		expect(result.order.status).toBe('AUTHORISED');
		expect(record.status).toBe('AUTHORISED');
		expect(() => sandbox.state.completeOrder(id, 'pay')).toThrow('already completed');
	});

	test('GET /__sandbox/events lists events, filtered by order or pending', async () => {
		const { id } = await createOrder();
		await api.complete(id, { outcome: 'pay' });
		const mine = await api.call(`/__sandbox/events?p_order_id=${id}`);
		expect(mine.body.data).toHaveLength(1);
		expect(mine.body.data[0]).toMatchObject({ p_order_id: id, pending: true });
		sandbox.state.events.forEach((e) => (e.pending = false));
		expect((await api.call('/__sandbox/events?pending=true')).body.data).toEqual([]);
		const summary = await api.call('/__sandbox/state/summary');
		expect(summary.body.data.events).toEqual({ total: sandbox.state.events.length, pending: 0 });
		expect(summary.body.data.orders).toBe(sandbox.state.orders.size);
		expect((await api.call('/__sandbox/events', { method: 'DELETE' })).status).toBe(200);
		expect(sandbox.state.events).toHaveLength(0);
	});
});

describe('merchant settings over HTTP', () => {
	test('GET returns them; PUT merges; DELETE resets', async () => {
		const got = await api.call('/__sandbox/settings');
		expect(got.body.data).toEqual({
			cauthEnabled: true,
			splitEnabled: true,
			liveMode: false,
			splitRequiresLive: false,
			allowVoid: true,
			allowRefunds: true,
			currentPsp: 'MPGS',
			documentUnsupportedPsps: ['NI'],
			terminalMissingPsps: [],
			failNextDocumentUploads: 0,
			payoutCallbackDelayMs: 100,
			payoutDefaultOutcome: 'processed',
			payoutResultStepMs: 1000,
			payoutResultsQueuedFirst: false,
			payoutResultsOutOfOrder: false,
			payoutResultsRepeat: 1,
			payoutResultsRowsPerPost: 0,
			payoutResultsForm: false,
			payoutResultsSendSecret: true,
			payoutCallbackRetryDelayScale: 1,
			paymentLinkStorageFailRows: [],
			defaultWebhookUrl: '',
			webhookDelivery: 'auto',
			webhookTimeoutMs: 5000,
			webhookRetryDelayScale: 1,
			webhookDuplicate: false,
			defaultUrls: {
				success: `${sandbox.checkoutUrl}/result/success`,
				cancel: `${sandbox.checkoutUrl}/result/cancel`,
				failure: `${sandbox.checkoutUrl}/result/failure`,
			},
		});
		const put = await api.send('PUT', '/__sandbox/settings', {
			allowVoid: false,
			terminalMissingPsps: ['MPGS'],
			defaultUrls: { success: 'https://m.example/ok' },
		});
		expect(put.status).toBe(200);
		expect(sandbox.state.settings).toMatchObject({
			allowVoid: false,
			allowRefunds: true,
			terminalMissingPsps: ['MPGS'],
			defaultUrls: {
				success: 'https://m.example/ok',
				cancel: `${sandbox.checkoutUrl}/result/cancel`,
			},
		});
		expect(put.body.data).toEqual(sandbox.state.settings);
		const reset = await api.call('/__sandbox/settings', { method: 'DELETE' });
		expect(reset.body.data.allowVoid).toBe(true);
		expect(sandbox.state.settings.allowVoid).toBe(true);
	});

	test.each([
		[{ allowVoid: 'no' }, 'settings.allowVoid must be a boolean'],
		[{ nope: 1 }, 'unknown setting nope'],
		[{ documentUnsupportedPsps: 'NI' }, 'must be an array of strings'],
		[{ failNextDocumentUploads: -1 }, 'must be a non-negative integer'],
		[{ defaultUrls: { home: 'x' } }, 'must be an object of success, cancel and failure URLs'],
		[[], 'settings must be a JSON object'],
	])('PUT %j → 400, nothing changes', async (patch, message) => {
		const before = structuredClone(sandbox.state.settings);
		// liveMode alongside: a valid part of a bad patch is not applied either.
		const body = Array.isArray(patch) ? patch : { liveMode: true, ...patch };
		const answer = await api.send('PUT', '/__sandbox/settings', body);
		expect(answer.status).toBe(400);
		expect(answer.body).toEqual({
			message: expect.stringContaining(message),
			status: 'fail',
			code: '400',
		});
		expect(sandbox.state.settings).toEqual(before);
	});
});
