import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Sandbox } from '../sandbox';
import { startSandbox } from '../sandbox';
import { runWorkflow } from '../harness';
import { GATEWAY, requestsTo, runGateway, sandboxCredentials } from './support';

const CREATE = '/orders/v1/create';

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ seed: 3 });
});
afterAll(async () => await sandbox.stop());
beforeEach(() => {
	sandbox.faults.clear();
	sandbox.clearRequests();
});

const runOrder = (operation: string, parameters: IDataObject, extra: { items?: object[]; continueOnFail?: boolean; credentialType?: string } = {}) =>
	runGateway(sandbox, {
		...extra,
		parameters: { resource: 'order', operation, ...(parameters as INodeParameters) },
	});

/** The body the sandbox received for the n-th create request. */
const sentData = (n = 0) => JSON.parse(requestsTo(sandbox, CREATE)[n].body.toString()).data as IDataObject;

const EMPTY_KEYED = [{ alpha: '' }, { beta: '' }, { gamma: '' }, { delta: '' }, { epsilon: '' }];

describe('order.createPayment', () => {
	it('sends the whole data object the service requires, with every required key', async () => {
		const result = await runOrder('createPayment', { amount: 150.5, currency: 'USD', merchantOrderId: 'ORD-1001' });
		expect(result.error).toBeUndefined();
		expect(sentData()).toEqual({
			class: 'ECOM',
			action: 'SALE',
			customer_details: { name: '', email: '' },
			order_details: {
				m_order_id: 'ORD-1001',
				amount: 150.5,
				convenience_fee: '',
				quantity: '',
				currency: 'USD',
				description: '',
			},
			billing_details: { address_line1: '', address_line2: '', city: '', province: '', country: '', pin: '' },
			shipping_details: {
				shipping_name: '',
				shipping_email: '',
				address_line1: '',
				address_line2: '',
				city: '',
				province: '',
				country: '',
				pin: '',
				location_pin: '',
				shipping_currency: '',
				shipping_amount: '',
			},
			items: [],
			urls: { success: '', cancel: '', failure: '' },
			parameters: EMPTY_KEYED,
			custom_data: EMPTY_KEYED,
		});
		const [item] = result.outputs.Gateway;
		expect(item.json).toMatchObject({ status: 'SUCCESS', m_order_id: 'ORD-1001' });
		expect(item.json.payment_link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/checkout\//);
		expect(item.json.iframe_link).toBeDefined();
		expect(item.json.order_creation_date_iso).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
		const stored = sandbox.state.orders.get(String(item.json.p_order_id));
		expect(stored?.request).toEqual({ data: sentData() });
	});

	it('maps every optional field to the names the service uses', async () => {
		await runOrder('createPayment', {
			amount: 20,
			currency: 'AED',
			customerName: 'Aisha Khan',
			customerEmail: 'aisha@example.com',
			customerDetails: { customerId: 'CUST-9', mobile: '501234567', code: '971' },
			orderDetails: { description: 'Two mugs', quantity: 2, convenienceFee: 1.5, returnUrl: 'https://shop.example.com/r' },
			billingAddress: { addressLine1: '1 Road', city: 'Dubai', country: 'ae', pin: '00000' },
			shippingDetails: { name: 'Aisha', mobile: '501234567', code: '971', country: 'AE', currency: 'aed', amount: 5, locationPin: 'https://maps.example.com/x' },
			items: {
				item: [
					{ title: 'Mug', quantity: 2, unitPrice: '9.25', referenceId: 'SKU-1', gender: 'Other', isRefundable: 'yes' },
				],
			},
			urls: { success: 'https://shop.example.com/ok', webhookUrl: 'https://hooks.example.com/pay' },
			parameters: { alpha: 'cart-77' },
			customData: { alpha: 'MID_GROUP_A', beta: 'LABEL_1' },
			options: { lineItemsJson: '[{"title":"Gift wrap","reference_id":"GW","quantity":1,"unit_price":"1.00"}]' },
		});
		const data = sentData();
		expect(data.customer_details).toEqual({
			m_customer_id: 'CUST-9',
			name: 'Aisha Khan',
			email: 'aisha@example.com',
			mobile: '501234567',
			code: '971',
		});
		expect(data.order_details).toMatchObject({ description: 'Two mugs', quantity: 2, convenience_fee: 1.5, return_url: 'https://shop.example.com/r' });
		expect(data.billing_details).toEqual({ address_line1: '1 Road', address_line2: '', city: 'Dubai', province: '', country: 'AE', pin: '00000' });
		expect(data.shipping_details).toMatchObject({ shipping_name: 'Aisha', shipping_mobile: '501234567', shipping_code: '971', country: 'AE', shipping_currency: 'AED', shipping_amount: 5, location_pin: 'https://maps.example.com/x' });
		expect(data.items).toEqual([
			{ title: 'Mug', quantity: 2, unit_price: '9.25', reference_id: 'SKU-1', gender: 'Other', is_refundable: true },
			{ title: 'Gift wrap', reference_id: 'GW', quantity: 1, unit_price: '1.00' },
		]);
		expect(data.urls).toEqual({ success: 'https://shop.example.com/ok', cancel: '', failure: '', webhook_url: 'https://hooks.example.com/pay' });
		expect(data.parameters).toEqual([{ alpha: 'cart-77' }, ...EMPTY_KEYED.slice(1)]);
		expect(data.custom_data).toEqual([{ alpha: 'MID_GROUP_A' }, { beta: 'LABEL_1' }, ...EMPTY_KEYED.slice(2)]);
	});

	it.each([
		['amount', { amount: 0.5 }, 'order_details.amount'],
		['currency', { currency: 'JPY' }, 'order_details.currency'],
		['mobile', { customerDetails: { mobile: '+971 50' } }, 'customer_details.mobile'],
		['country', { billingAddress: { country: 'UAE' } }, 'billing_details.country'],
		['webhook', { urls: { webhookUrl: 'http://hooks.example.com' } }, 'urls.webhook_url'],
		['gender', { items: { item: [{ title: 'x', gender: 'Unisex' }] } }, 'items[0].gender'],
		['quantity', { options: { lineItemsJson: '[{"title":"x","quantity":0}]' } }, 'items[0].quantity'],
		['sku', { options: { lineItemsJson: '[{"name":"x","sku":"1"}]' } }, 'items[0].name'],
	])('refuses a bad %s before sending', async (_label, parameters, field) => {
		const result = await runOrder('createPayment', { amount: 10, currency: 'AED', ...parameters });
		expect(result.error?.constructor.name).toBe('NodeOperationError');
		expect(result.error?.message).toContain(field);
		expect(sandbox.requests).toHaveLength(0);
	});

	it('hosted payment drives the state machine: SALE ends CAPTURED', async () => {
		const result = await runOrder('createPayment', { amount: 30, currency: 'AED' });
		const pOrderId = String(result.outputs.Gateway[0].json.p_order_id);
		sandbox.state.completeOrder(pOrderId, 'pay');
		expect(sandbox.state.transactionsByPOrderId.get(pOrderId)?.status).toBe('CAPTURED');
	});

	it('retries a create only when it carries an m_order_id', async () => {
		sandbox.faults.inject({ kind: 'status500' });
		await runOrder('createPayment', { amount: 10, currency: 'AED' });
		expect(requestsTo(sandbox, CREATE)).toHaveLength(1);

		sandbox.clearRequests();
		sandbox.faults.inject({ kind: 'status500' });
		const result = await runOrder('createPayment', { amount: 10, currency: 'AED', merchantOrderId: 'RETRY-1' });
		expect(result.error).toBeUndefined();
		expect(requestsTo(sandbox, CREATE)).toHaveLength(2);
	});

	it('reports a repeated m_order_id as the service error', async () => {
		await runOrder('createPayment', { amount: 10, currency: 'AED', merchantOrderId: 'DUP-1' });
		const again = await runOrder('createPayment', { amount: 10, currency: 'AED', merchantOrderId: 'DUP-1' });
		expect(again.error?.constructor.name).toBe('NodeApiError');
		expect(again.error?.message).toMatch(/m_order_id/i);
	});

	it('continues on fail with an error item paired to its input', async () => {
		const result = await runOrder(
			'createPayment',
			{ amount: '={{ $json.amount }}', currency: 'AED' },
			{ items: [{ amount: 0 }, { amount: 12 }], continueOnFail: true },
		);
		const [bad, good] = result.outputs.Gateway;
		expect(bad.json.error).toContain('order_details.amount');
		expect(bad.pairedItem).toEqual({ item: 0 });
		expect(good.json.status).toBe('SUCCESS');
		expect(good.pairedItem).toEqual({ item: 1 });
		expect(requestsTo(sandbox, CREATE)).toHaveLength(1);
	});

	it('sends failed items to the error output under "Continue (using error output)"', async () => {
		const credentials = sandboxCredentials(sandbox);
		const result = await runWorkflow(
			{
				nodes: [
					{ name: 'Start', type: 'harness.start', parameters: { items: [{ amount: 0 }, { amount: 12 }] as never } },
					{
						name: 'Gateway',
						type: GATEWAY,
						onError: 'continueErrorOutput',
						parameters: { resource: 'order', operation: 'createPayment', amount: '={{ $json.amount }}', currency: 'AED' },
						credentials: { paymentGatewayHostedApi: { id: 'paymentGatewayHostedApi', name: 'hosted' } },
					},
				],
				connections: { Start: { main: [[{ node: 'Gateway', type: 'main', index: 0 }]] } },
			},
			{ credentials },
		);
		const [success, failure] = result.allOutputs.Gateway;
		expect(success.map((i) => i.json.status)).toEqual(['SUCCESS']);
		expect(success[0].pairedItem).toEqual({ item: 1 });
		expect(failure).toHaveLength(1);
		expect(failure[0].json.error).toContain('order_details.amount');
		expect(failure[0].pairedItem).toEqual({ item: 0 });
	});
});

describe('order.authorize', () => {
	it.each([
		['MANUAL', 'AUTHORISED'],
		['AUTOMATIC', 'CAPTURED'],
	])('capture method %s ends %s after the customer pays', async (captureMethod, status) => {
		const result = await runOrder('authorize', { amount: 40, currency: 'EUR', captureMethod });
		expect(sentData()).toMatchObject({ class: 'ECOM', action: 'AUTH', capture_method: captureMethod });
		const pOrderId = String(result.outputs.Gateway[0].json.p_order_id);
		sandbox.state.completeOrder(pOrderId, 'pay');
		expect(sandbox.state.transactionsByPOrderId.get(pOrderId)?.status).toBe(status);
	});
});

describe('order.saveCard', () => {
	it('requires the customer ID', async () => {
		// From an expression that comes out empty (n8n itself refuses a literal empty value).
		const result = await runOrder('saveCard', { amount: 1, currency: 'AED', customerId: '={{ $json.customer }}' });
		expect(result.error?.message).toContain('customer_details.m_customer_id');
		expect(sandbox.requests).toHaveLength(0);
	});

	it('tokenizes: AUTH_REVERSAL, reported AUTHORISED, token delivered in the webhook event', async () => {
		const result = await runOrder('saveCard', {
			amount: 1,
			currency: 'AED',
			customerId: 'CUST-SAVE-1',
			webhookUrl: 'https://hooks.example.com/tokens',
		});
		expect(sentData()).toMatchObject({
			class: 'ECOM',
			action: 'AUTH_REVERSAL',
			customer_details: { m_customer_id: 'CUST-SAVE-1' },
			urls: { webhook_url: 'https://hooks.example.com/tokens' },
		});
		expect(sentData()).not.toHaveProperty('capture_method');
		const pOrderId = String(result.outputs.Gateway[0].json.p_order_id);
		sandbox.state.completeOrder(pOrderId, 'pay');
		const event = sandbox.state.events.filter((e) => String(e.p_order_id) === pOrderId).pop()!;
		expect(event.url).toBe('https://hooks.example.com/tokens');
		expect(event.payload).toMatchObject({ action: 'AUTH_REVERSAL', status: 'SUCCESS', order_status: 'AUTHORISED' });
		expect(event.payload.m_payment_token).toBeTruthy();
		expect(sandbox.state.tokens.get(String(event.payload.m_payment_token))?.m_customer_id).toBe('CUST-SAVE-1');
	});
});

describe('order.chargeSavedCard', () => {
	/** Saves a card for the customer through the hosted flow and returns its token. */
	async function savedToken(customerId: string, card?: string): Promise<string> {
		const result = await runOrder('saveCard', { amount: 1, currency: 'AED', customerId });
		const pOrderId = String(result.outputs.Gateway[0].json.p_order_id);
		sandbox.state.completeOrder(pOrderId, 'pay', card);
		const event = sandbox.state.events.filter((e) => String(e.p_order_id) === pOrderId).pop()!;
		return String(event.payload.m_payment_token);
	}

	const charge = (paymentToken: string, customerId: string, amount: number, transactionAction = 'SALE') =>
		runOrder(
			'chargeSavedCard',
			{ authentication: 's2s', paymentToken, customerId, amount, currency: 'AED', transactionAction },
			{ credentialType: 'paymentGatewayS2sApi' },
		);

	it('uses the S2S keys chosen under Authentication and sends CAUTH with the token', async () => {
		const token = await savedToken('CUST-C1');
		sandbox.clearRequests();
		await runOrder('chargeSavedCard', { authentication: 's2s', paymentToken: token, customerId: 'CUST-C1', amount: 5, currency: 'AED' }, { credentialType: 'paymentGatewayS2sApi' });
		expect(requestsTo(sandbox, CREATE)[0].headers['merchant-key']).toBe(sandbox.keys.s2s.merchantKey);
		expect(sentData()).toMatchObject({ class: 'CAUTH', action: 'SALE', payment_token: token, customer_details: { m_customer_id: 'CUST-C1' } });
	});

	it('paid: SALE charged at once', async () => {
		const token = await savedToken('CUST-C2');
		const result = await charge(token, 'CUST-C2', 25);
		const [item] = result.outputs.Gateway;
		expect(item.json).toMatchObject({ outcome: 'paid', order_status: 'CAPTURED' });
		expect((item.json.payment as IDataObject).m_payment_token).toBe(token);
		expect((item.json.payment as IDataObject).transaction_time_iso).toBeDefined();
	});

	it('authorised: AUTH holds the funds', async () => {
		const token = await savedToken('CUST-C3');
		const result = await charge(token, 'CUST-C3', 25, 'AUTH');
		expect(result.outputs.Gateway[0].json).toMatchObject({ outcome: 'authorised', order_status: 'AUTHORISED' });
	});

	it('declined: an outcome to route on, not a node error', async () => {
		const token = await savedToken('CUST-C4');
		const result = await charge(token, 'CUST-C4', 100.51);
		expect(result.error).toBeUndefined();
		const [item] = result.outputs.Gateway;
		expect(item.json).toMatchObject({ outcome: 'declined', order_status: 'FAILED' });
		expect(item.json.payment_link).toBeDefined();
	});

	it('customer_action_required: the card is not eligible yet, the customer pays by link', async () => {
		const token = await savedToken('CUST-C5', '4000000000000341');
		const result = await charge(token, 'CUST-C5', 25);
		const [item] = result.outputs.Gateway;
		expect(item.json.outcome).toBe('customer_action_required');
		expect(item.json.payment_link).toMatch(/\/checkout\//);
	});

	it("is a clear error with another customer's token", async () => {
		const token = await savedToken('CUST-C6');
		const result = await charge(token, 'SOMEONE-ELSE', 25);
		expect(result.error?.constructor.name).toBe('NodeApiError');
		expect(result.error?.message).toMatch(/customer/i);
		expect((result.error as { description?: string }).description).toMatch(/payment token/);
	});

	it('is a clear error after the configured PSP changed', async () => {
		const token = await savedToken('CUST-C7');
		const before = sandbox.state.settings.currentPsp;
		sandbox.state.settings.currentPsp = 'CYBERSOURCE';
		try {
			const result = await charge(token, 'CUST-C7', 25);
			expect(result.error?.message).toMatch(/PSP/i);
		} finally {
			sandbox.state.settings.currentPsp = before;
		}
	});

	it('requires the token and the customer ID before sending', async () => {
		const result = await charge('={{ $json.token }}', '={{ $json.customer }}', 25);
		expect(result.error?.message).toContain('customer_details.m_customer_id');
		expect(result.error?.message).toContain('payment_token');
		expect(sandbox.requests).toHaveLength(0);
	});
});

describe('order.createSplitPayment', () => {
	const recipients = (rows: Array<[string, string, number]>) => ({
		recipient: rows.map(([splitId, type, value]) => ({ splitId, type, value })),
	});

	it('encodes the recipients in custom_data exactly', async () => {
		const result = await runOrder('createSplitPayment', {
			amount: 200,
			currency: 'AED',
			transactionAction: 'AUTH',
			splitRecipients: recipients([
				['SPL01', 'P', 60],
				['SPL02', 'F', 12.5],
			]),
		});
		expect(result.error).toBeUndefined();
		expect(sentData()).toMatchObject({ class: 'ECOM', action: 'AUTH' });
		expect(sentData().custom_data).toEqual([
			{ alpha: '|SPLIT_PAYMENT' },
			{ beta: '|SPL01,P,60' },
			{ gamma: '|SPL02,F,12.5' },
			{ delta: '' },
			{ epsilon: '' },
		]);
	});

	it.each([
		['more than four recipients', [['A', 'P', 10], ['B', 'P', 10], ['C', 'P', 10], ['D', 'P', 10], ['E', 'P', 10]], /at most 4/],
		['percentages above 100', [['A', 'P', 70], ['B', 'P', 40]], /more than 100/],
		['flat amounts above the order amount', [['A', 'F', 150], ['B', 'F', 60]], /more than the order amount/],
		['no recipient', [], /at least one/],
		['an ID with a comma', [['A,B', 'P', 10]], /without \| or ,/],
	] as Array<[string, Array<[string, string, number]>, RegExp]>)('refuses %s', async (_label, rows, message) => {
		const result = await runOrder('createSplitPayment', { amount: 200, currency: 'AED', splitRecipients: recipients(rows) });
		expect(result.error?.message).toMatch(message);
		expect(sandbox.requests).toHaveLength(0);
	});

	it('reports a split refused by the account as the service error', async () => {
		sandbox.state.settings.splitEnabled = false;
		try {
			const result = await runOrder('createSplitPayment', { amount: 200, currency: 'AED', splitRecipients: recipients([['A', 'P', 10]]) });
			expect(result.error?.constructor.name).toBe('NodeApiError');
			expect(result.error?.message).toContain('403');
		} finally {
			sandbox.state.settings.splitEnabled = true;
		}
	});
});
