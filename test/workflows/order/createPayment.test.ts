import type { IDataObject } from 'n8n-workflow';

import { runWorkflow } from '../../harness';
import { GATEWAY, requestsTo, sandboxCredentials } from '../support';
import { CREATE, EMPTY_KEYED, orderSandbox } from './support';

const { box, runOrder, sentData } = orderSandbox(3);

describe('order.createPayment', () => {
	it('sends the whole data object the service requires, with every required key', async () => {
		const result = await runOrder('createPayment', {
			amount: 150.5,
			currency: 'USD',
			merchantOrderId: 'ORD-1001',
		});
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
			billing_details: {
				address_line1: '',
				address_line2: '',
				city: '',
				province: '',
				country: '',
				pin: '',
			},
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
		const stored = box.sandbox.state.orders.get(String(item.json.p_order_id));
		expect(stored?.request).toEqual({ data: sentData() });
	});

	it('maps every optional field to the names the service uses', async () => {
		await runOrder('createPayment', {
			amount: 20,
			currency: 'AED',
			customerName: 'Aisha Khan',
			customerEmail: 'aisha@example.com',
			customerDetails: { customerId: 'CUST-9', mobile: '501234567', code: '971' },
			orderDetails: {
				description: 'Two mugs',
				quantity: 2,
				convenienceFee: 1.5,
				returnUrl: 'https://shop.example.com/r',
			},
			billingAddress: { addressLine1: '1 Road', city: 'Dubai', country: 'ae', pin: '00000' },
			shippingDetails: {
				name: 'Aisha',
				mobile: '501234567',
				code: '971',
				country: 'AE',
				currency: 'aed',
				amount: 5,
				locationPin: 'https://maps.example.com/x',
			},
			items: {
				item: [
					{
						title: 'Mug',
						quantity: 2,
						unitPrice: '9.25',
						referenceId: 'SKU-1',
						gender: 'Other',
						isRefundable: 'yes',
					},
				],
			},
			urls: { success: 'https://shop.example.com/ok', webhookUrl: 'https://hooks.example.com/pay' },
			parameters: { alpha: 'cart-77' },
			customData: { alpha: 'MID_GROUP_A', beta: 'LABEL_1' },
			options: {
				lineItemsJson:
					'[{"title":"Gift wrap","reference_id":"GW","quantity":1,"unit_price":"1.00"}]',
			},
		});
		const data = sentData();
		expect(data.customer_details).toEqual({
			m_customer_id: 'CUST-9',
			name: 'Aisha Khan',
			email: 'aisha@example.com',
			mobile: '501234567',
			code: '971',
		});
		expect(data.order_details).toMatchObject({
			description: 'Two mugs',
			quantity: 2,
			convenience_fee: 1.5,
			return_url: 'https://shop.example.com/r',
		});
		expect(data.billing_details).toEqual({
			address_line1: '1 Road',
			address_line2: '',
			city: 'Dubai',
			province: '',
			country: 'AE',
			pin: '00000',
		});
		expect(data.shipping_details).toMatchObject({
			shipping_name: 'Aisha',
			shipping_mobile: '501234567',
			shipping_code: '971',
			country: 'AE',
			shipping_currency: 'AED',
			shipping_amount: 5,
			location_pin: 'https://maps.example.com/x',
		});
		expect(data.items).toEqual([
			{
				title: 'Mug',
				quantity: 2,
				unit_price: '9.25',
				reference_id: 'SKU-1',
				gender: 'Other',
				is_refundable: true,
			},
			{ title: 'Gift wrap', reference_id: 'GW', quantity: 1, unit_price: '1.00' },
		]);
		expect(data.urls).toEqual({
			success: 'https://shop.example.com/ok',
			cancel: '',
			failure: '',
			webhook_url: 'https://hooks.example.com/pay',
		});
		expect(data.parameters).toEqual([{ alpha: 'cart-77' }, ...EMPTY_KEYED.slice(1)]);
		expect(data.custom_data).toEqual([
			{ alpha: 'MID_GROUP_A' },
			{ beta: 'LABEL_1' },
			...EMPTY_KEYED.slice(2),
		]);
	});

	it.each([
		['amount', { amount: 0.5 }, 'order_details.amount'],
		['currency', { currency: 'JPY' }, 'order_details.currency'],
		['mobile', { customerDetails: { mobile: '+971 50' } }, 'customer_details.mobile'],
		['country', { billingAddress: { country: 'UAE' } }, 'billing_details.country'],
		['webhook', { urls: { webhookUrl: 'http://hooks.example.com' } }, 'urls.webhook_url'],
		['gender', { items: { item: [{ title: 'x', gender: 'Unisex' }] } }, 'items[0].gender'],
		// What n8n makes of `"items": {"item": "={{ … }}"}`: one entry of defaults per character.
		['item of defaults', { items: { item: [{ title: 'x' }, { quantity: 1 }] } }, 'items[1]'],
		[
			'quantity',
			{ options: { lineItemsJson: '[{"title":"x","quantity":0}]' } },
			'items[0].quantity',
		],
		['sku', { options: { lineItemsJson: '[{"name":"x","sku":"1"}]' } }, 'items[0].name'],
	])('refuses a bad %s before sending', async (_label, parameters, field) => {
		const result = await runOrder('createPayment', { amount: 10, currency: 'AED', ...parameters });
		expect(result.error?.constructor.name).toBe('NodeOperationError');
		expect(result.error?.message).toContain(field);
		expect(box.sandbox.requests).toHaveLength(0);
	});

	it('hosted payment drives the state machine: SALE ends CAPTURED', async () => {
		const result = await runOrder('createPayment', { amount: 30, currency: 'AED' });
		const pOrderId = String(result.outputs.Gateway[0].json.p_order_id);
		box.sandbox.state.completeOrder(pOrderId, 'pay');
		expect(box.sandbox.state.transactionsByPOrderId.get(pOrderId)?.status).toBe('CAPTURED');
	});

	it("every create carries an m_order_id, the node's own when none is given, and is retried with it", async () => {
		box.sandbox.faults.inject({ kind: 'status500' });
		const made = await runOrder('createPayment', { amount: 10, currency: 'AED' });
		expect(made.error).toBeUndefined();
		const ids = requestsTo(box.sandbox, CREATE).map(
			(r) => (JSON.parse(r.body.toString()).data.order_details as IDataObject).m_order_id,
		);
		expect(ids).toHaveLength(2);
		expect(ids[1]).toBe(ids[0]);
		expect(String(ids[0])).toMatch(/^n8n-[A-Za-z0-9-]{1,26}$/);
		expect(made.outputs.Gateway[0].json.m_order_id).toBe(ids[0]);

		box.sandbox.clearRequests();
		box.sandbox.faults.inject({ kind: 'status500' });
		const result = await runOrder('createPayment', {
			amount: 10,
			currency: 'AED',
			merchantOrderId: 'RETRY-1',
		});
		expect(result.error).toBeUndefined();
		expect(requestsTo(box.sandbox, CREATE)).toHaveLength(2);
	});

	it('two runs with the Merchant Order ID empty make two orders with two IDs', async () => {
		box.sandbox.clearRequests();
		const first = await runOrder('createPayment', { amount: 10, currency: 'AED' });
		const second = await runOrder('createPayment', { amount: 10, currency: 'AED' });
		const ids = [first, second].map((r) => r.outputs.Gateway[0].json.m_order_id);
		expect(ids[0]).not.toBe(ids[1]);
		expect(requestsTo(box.sandbox, CREATE)).toHaveLength(2);
	});

	it('reports a repeated m_order_id as the service error', async () => {
		await runOrder('createPayment', { amount: 10, currency: 'AED', merchantOrderId: 'DUP-1' });
		const again = await runOrder('createPayment', {
			amount: 10,
			currency: 'AED',
			merchantOrderId: 'DUP-1',
		});
		expect(again.error?.constructor.name).toBe('NodeApiError');
		expect(again.error?.message).toMatch(/^The Merchant Order ID "DUP-1" was already used/);
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
		expect(requestsTo(box.sandbox, CREATE)).toHaveLength(1);
	});

	it('sends failed items to the error output under "Continue (using error output)"', async () => {
		const credentials = sandboxCredentials(box.sandbox);
		const result = await runWorkflow(
			{
				nodes: [
					{
						name: 'Start',
						type: 'harness.start',
						parameters: { items: [{ amount: 0 }, { amount: 12 }] as never },
					},
					{
						name: 'Gateway',
						type: GATEWAY,
						onError: 'continueErrorOutput',
						parameters: {
							resource: 'order',
							operation: 'createPayment',
							amount: '={{ $json.amount }}',
							currency: 'AED',
						},
						credentials: {
							paymentGatewayHostedApi: { id: 'paymentGatewayHostedApi', name: 'hosted' },
						},
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

describe('order.createPayment: values from expressions', () => {
	it('sends numeric text as JSON numbers where the service says Number', async () => {
		const result = await runOrder('createPayment', {
			amount: '={{ "150.25" }}',
			currency: '={{ " usd " }}',
			orderDetails: { quantity: '={{ "5" }}', convenienceFee: '={{ "1.5" }}' },
			shippingDetails: { amount: '={{ "2.75" }}' },
			items: { item: [{ title: 'Mug', quantity: '={{ "2" }}' }] },
		});
		expect(result.error).toBeUndefined();
		const data = sentData();
		expect(data.order_details).toMatchObject({
			amount: 150.25,
			quantity: 5,
			convenience_fee: 1.5,
			currency: 'USD',
		});
		expect((data.shipping_details as IDataObject).shipping_amount).toBe(2.75);
		expect(data.items).toEqual([{ title: 'Mug', quantity: 2 }]);
	});

	it.each([true, 'true', 'Yes', 1])('reads Is Refundable %p as true', async (given) => {
		await runOrder('createPayment', {
			amount: 10,
			currency: 'AED',
			items: { item: [{ title: 'Mug', isRefundable: `={{ ${JSON.stringify(given)} }}` }] },
		});
		expect(sentData().items).toEqual([{ title: 'Mug', quantity: 1, is_refundable: true }]);
	});

	it('trims text once and sends what it checked; a mobile number given as a number is sent as text', async () => {
		await runOrder('createPayment', {
			amount: '={{ " 100 " }}',
			currency: 'AED',
			merchantOrderId: '={{ "  ORD-7  " }}',
			customerDetails: { mobile: '={{ 501234567 }}' },
		});
		const data = sentData();
		expect(data.order_details).toMatchObject({ amount: 100, m_order_id: 'ORD-7' });
		expect((data.customer_details as IDataObject).mobile).toBe('501234567');
	});

	it.each([
		[
			'an object as Customer ID',
			{ customerDetails: { customerId: '={{ { id: 1 } }}' } },
			'customer_details.m_customer_id',
			'must be text, not a object',
		],
		[
			'a list as Merchant Order ID',
			{ merchantOrderId: '={{ ["a", "b"] }}' },
			'order_details.m_order_id',
			'must be text, not a list',
		],
		[
			'a URL with a line break',
			{ urls: { success: '={{ "https://shop.example.com/ok\\nX" }}' } },
			'urls.success',
			'one line',
		],
		['NaN as amount', { amount: '={{ NaN }}' }, 'order_details.amount', 'finite'],
		[
			'invalid Line Items (JSON)',
			{ options: { lineItemsJson: '[{"title": ' } },
			'Line Items (JSON)',
			'must be valid JSON',
		],
		[
			'Line Items (JSON) that is not a list',
			{ options: { lineItemsJson: '{"title":"x"}' } },
			'Line Items (JSON)',
			'must be a JSON array',
		],
		[
			'a shipping currency outside ISO 4217',
			{ shippingDetails: { currency: 'XYZ' } },
			'shipping_details.shipping_currency',
			'ISO 4217',
		],
		[
			'three decimals in AED',
			{ amount: 10.125 },
			'order_details.amount',
			'at most 2 decimal places in AED',
		],
		[
			'a convenience fee with three decimals in AED',
			{ orderDetails: { convenienceFee: '={{ "1.005" }}' } },
			'Invalid Order Details > Convenience Fee: order_details.convenience_fee',
			'at most 2 decimal places in AED (received 1.005)',
		],
	])(
		'refuses %s, naming field and rule; nothing is sent',
		async (_label, parameters, field, rule) => {
			const result = await runOrder('createPayment', {
				amount: 10,
				currency: 'AED',
				...parameters,
			});
			expect(result.error?.constructor.name).toBe('NodeOperationError');
			expect(result.error?.message).toContain(field);
			expect(result.error?.message).toContain(rule);
			expect(box.sandbox.requests).toHaveLength(0);
		},
	);

	it('takes three decimals in KWD', async () => {
		const result = await runOrder('createPayment', { amount: 10.125, currency: 'KWD' });
		expect(result.error).toBeUndefined();
		expect((sentData().order_details as IDataObject).amount).toBe(10.125);
	});
});
