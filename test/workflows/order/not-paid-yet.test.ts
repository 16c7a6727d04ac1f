import type { IDataObject } from 'n8n-workflow';

import { orderSandbox } from './support';

const { box, runOrder } = orderSandbox(53);

const PAYMENT_NEXT =
	'Not paid yet: send payment_link to the customer; the payment arrives through the Payment Gateway Trigger or Order > Wait for Payment.';

/** The service's own create-response fields, which saved workflows read: all kept as they were. */
const SERVICE_FIELDS = [
	'status',
	'status_code',
	'message',
	'p_order_id',
	'm_order_id',
	'p_request_id',
	'order_creation_date',
	'amount',
	'payment_link',
	'iframe_link',
];

describe('order creates: the item says the order is created and not paid yet', () => {
	it.each([
		['createPayment', {}, PAYMENT_NEXT],
		[
			'authorize',
			{ captureMethod: 'MANUAL' },
			'Not authorized yet: send payment_link to the customer; the authorization arrives through the Payment Gateway Trigger or Order > Wait for Payment. With Capture Method Manual, capture it then with Payment > Capture.',
		],
		[
			'saveCard',
			{ customerId: 'CUST-NPY-1' },
			'No card saved yet: send payment_link to the customer; the saved-card token (m_payment_token) arrives by webhook, for example at a Payment Gateway Trigger (event Card Tokenized). Nothing is charged.',
		],
		[
			'createSplitPayment',
			{
				transactionAction: 'SALE',
				splitRecipients: { recipient: [{ splitId: 'SPL01', type: 'P', value: 50 }] },
			},
			PAYMENT_NEXT,
		],
	])('%s', async (operation, extra, next) => {
		const result = await runOrder(operation, { amount: 25, currency: 'AED', ...extra });
		expect(result.error).toBeUndefined();
		const json = result.outputs.Gateway[0].json;
		// The service's "SUCCESS" is about the request; the order itself is still unpaid.
		for (const field of SERVICE_FIELDS) expect(json).toHaveProperty(field);
		expect(json.status).toBe('SUCCESS');
		expect(json).toMatchObject({ order_state: 'created', paid: false, next });
		// What the panel shows first: the order, its link, then that it is not paid.
		expect(Object.keys(json).slice(0, 5)).toEqual([
			'p_order_id',
			'payment_link',
			'order_state',
			'paid',
			'next',
		]);
		const record = box.sandbox.state.transactionsByPOrderId.get(String(json.p_order_id));
		expect(record?.status).toBe('PENDING');
	});

	it('stays "not paid" until the customer pays: the service then shows the payment', async () => {
		const result = await runOrder('createPayment', { amount: 25, currency: 'AED' });
		const json = result.outputs.Gateway[0].json as IDataObject;
		expect(json.paid).toBe(false);
		box.sandbox.state.completeOrder(String(json.p_order_id), 'pay');
		expect(box.sandbox.state.transactionsByPOrderId.get(String(json.p_order_id))?.status).toBe(
			'CAPTURED',
		);
	});
});
