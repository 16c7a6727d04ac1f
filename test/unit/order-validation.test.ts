import {
	encodeSplitCustomData,
	validateOrderData,
	validateSplitRecipients,
} from '../../nodes/PaymentGateway/validation/order';

const base = () => ({
	class: 'ECOM',
	action: 'SALE',
	customer_details: { name: '', email: '' },
	order_details: { amount: 10, convenience_fee: '', quantity: '', currency: 'AED', description: '' },
	billing_details: {},
	shipping_details: {},
	items: [],
	urls: {},
});

describe('order data rules', () => {
	it('accepts the smallest valid order', () => {
		expect(validateOrderData(base())).toEqual([]);
	});

	it.each([
		['order_details.amount', (d: any) => (d.order_details.amount = '1,000')],
		['order_details.amount', (d: any) => (d.order_details.amount = 0.99)],
		['order_details.currency', (d: any) => (d.order_details.currency = 'CHF')],
		['order_details.quantity', (d: any) => (d.order_details.quantity = 0)],
		['customer_details.mobile', (d: any) => (d.customer_details.mobile = '05-123')],
		['customer_details.code', (d: any) => (d.customer_details.code = 'UAE')],
		['shipping_details.country', (d: any) => (d.shipping_details.country = 'United Arab Emirates')],
		['shipping_details.shipping_currency', (d: any) => (d.shipping_details.shipping_currency = 'dirham')],
		['urls.webhook_url', (d: any) => (d.urls.webhook_url = 'http://example.com/hook')],
		['urls.success', (d: any) => (d.urls.success = 'not a url')],
		['items[0].gender', (d: any) => (d.items = [{ gender: 'male' }])],
		['items[0].unit_price', (d: any) => (d.items = [{ unit_price: '$5' }])],
		['items[0].is_refundable', (d: any) => (d.items = [{ is_refundable: 'yes' }])],
		['customer_details.m_customer_id', (d: any) => (d.action = 'AUTH_REVERSAL')],
	])('flags %s', (field, mutate) => {
		const data = base();
		mutate(data);
		expect(validateOrderData(data).map((v) => v.field)).toContain(field);
	});

	it('allows three decimal places only in KWD, BHD and OMR', () => {
		const data: any = base();
		data.order_details.amount = 10.125;
		expect(validateOrderData(data).map((v) => v.rule)).toEqual(['must have at most 2 decimal places in AED']);
		data.order_details.currency = 'KWD';
		expect(validateOrderData(data)).toEqual([]);
	});

	it('allows http:// webhooks to localhost for testing', () => {
		const data: any = base();
		data.urls.webhook_url = 'http://localhost:5678/webhook/x';
		expect(validateOrderData(data)).toEqual([]);
	});

	it('requires token and customer for pay by saved card', () => {
		const data: any = { ...base(), class: 'CAUTH' };
		expect(validateOrderData(data).map((v) => v.field)).toEqual(['customer_details.m_customer_id', 'payment_token']);
	});
});

describe('split rules', () => {
	it('encodes recipients as the service expects', () => {
		expect(
			encodeSplitCustomData([
				{ splitId: 'S1', type: 'P', value: 25 },
				{ splitId: 'S2', type: 'F', value: 3.75 },
				{ splitId: 'S3', type: 'P', value: 5 },
				{ splitId: 'S4', type: 'F', value: 1 },
			]),
		).toEqual([
			{ alpha: '|SPLIT_PAYMENT' },
			{ beta: '|S1,P,25' },
			{ gamma: '|S2,F,3.75' },
			{ delta: '|S3,P,5' },
			{ epsilon: '|S4,F,1' },
		]);
	});

	it('allows exactly 100 percent and flat amounts equal to the order amount', () => {
		expect(validateSplitRecipients([{ splitId: 'A', type: 'P', value: 100 }], 50)).toEqual([]);
		expect(validateSplitRecipients([{ splitId: 'A', type: 'F', value: 50 }], 50)).toEqual([]);
	});

	it('refuses a mix that shares out more than the order', () => {
		const violations = validateSplitRecipients(
			[
				{ splitId: 'A', type: 'P', value: 80 },
				{ splitId: 'B', type: 'F', value: 30 },
			],
			100,
		);
		expect(violations.map((v) => v.rule)).toEqual(['must not share out more than the order amount (100)']);
	});
});
