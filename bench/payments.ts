// Create Payment and Refund against HTTP Request sending the same body, fields mapped by expressions.
import type { Sandbox, TransactionRecord } from '../test/sandbox';
import { gateway, httpRequest, itemsCode, type Contender } from './workflows';

/** Eight input fields per item, each mapped into the order by one expression. */
const ORDER_ITEM =
	"{ orderId: `BENCH-${run}-${i}`, amount: 10 + (i % 50), currency: 'AED', name: `Customer ${i}`, " +
	"email: `customer${i}@example.com`, description: `Order ${i}`, city: 'Dubai', country: 'AE' }";

const empty = (keys: string[]) => keys.map((key) => `"${key}": ""`).join(', ');
const keyed = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'].map((key) => `{ "${key}": "" }`).join(', ');

/** The data object Create Payment sends for those fields (see test/workflows/order/createPayment). */
const ORDER_BODY =
	'={ "data": { "class": "ECOM", "action": "SALE", ' +
	'"customer_details": { "name": "{{ $json.name }}", "email": "{{ $json.email }}" }, ' +
	'"order_details": { "m_order_id": "{{ $json.orderId }}", "amount": {{ $json.amount }}, "convenience_fee": "", "quantity": "", ' +
	'"currency": "{{ $json.currency }}", "description": "{{ $json.description }}" }, ' +
	'"billing_details": { "address_line1": "", "address_line2": "", "city": "{{ $json.city }}", "province": "", "country": "{{ $json.country }}", "pin": "" }, ' +
	`"shipping_details": { ${empty(['shipping_name', 'shipping_email', 'address_line1', 'address_line2', 'city', 'province', 'country', 'pin', 'location_pin', 'shipping_currency', 'shipping_amount'])} }, ` +
	`"items": [], "urls": { ${empty(['success', 'cancel', 'failure'])} }, "parameters": [${keyed}], "custom_data": [${keyed}] } }`;

/** Create Payment with the eight fields mapped (the profile script uses the same parameters). */
export const CREATE_PAYMENT_PARAMETERS = {
	resource: 'order',
	operation: 'createPayment',
	merchantOrderId: '={{ $json.orderId }}',
	amount: '={{ $json.amount }}',
	currency: '={{ $json.currency }}',
	customerName: '={{ $json.name }}',
	customerEmail: '={{ $json.email }}',
	orderDetails: { description: '={{ $json.description }}' },
	billingAddress: { city: '={{ $json.city }}', country: '={{ $json.country }}' },
};

export function createPaymentContenders(box: Sandbox, items: number): Contender[] {
	return [
		{
			name: 'Create Payment',
			items: itemsCode(items, ORDER_ITEM),
			node: gateway('zero', CREATE_PAYMENT_PARAMETERS),
		},
		{ name: 'HTTP Request', items: itemsCode(items, ORDER_ITEM), node: httpRequest(box, { method: 'POST', path: '/orders/v1/create', jsonBody: ORDER_BODY }) },
	];
}

const pools = new WeakMap<Sandbox, TransactionRecord[]>();

/** Seeded transactions to refund, fixed at first use (new orders are added to the same list). */
function refundPool(box: Sandbox, items: number): TransactionRecord[] {
	let pool = pools.get(box);
	if (!pool) pools.set(box, (pool = box.state.transactions.slice(0, items)));
	return pool;
}

/** The pool made refundable again before every run (1 per refund, 2 per run). */
export function resetRefundPool(box: Sandbox, items: number): void {
	for (const record of refundPool(box, items)) {
		record.status = 'CAPTURED';
		record.amount_captured = record.amount;
		record.internal.amount_refunded = '0';
	}
}

const REFUND_BODY =
	'={ "action": "REFUND", "transaction_id": "{{ $json.id }}", ' +
	'"amount": { "value": {{ $json.amount }}, "currencyCode": "{{ $json.currency }}" }, "reason": "{{ $json.reason }}" }';

export function refundContenders(box: Sandbox, items: number): Contender[] {
	const pool = refundPool(box, items).map((record) => [String(record.transaction_id), String(record.currency)]);
	const code =
		`const pool = ${JSON.stringify(pool)};\n` +
		itemsCode(items, "{ id: pool[i][0], currency: pool[i][1], amount: 1, reason: `Refund ${run}-${i}` }");
	return [
		{
			name: 'Refund',
			items: code,
			node: gateway('zero', {
				resource: 'payment',
				operation: 'refund',
				transactionId: '={{ $json.id }}',
				amount: '={{ $json.amount }}',
				currency: '={{ $json.currency }}',
				additionalFields: { reason: '={{ $json.reason }}' },
			}),
		},
		{ name: 'HTTP Request', items: code, node: httpRequest(box, { method: 'POST', path: '/orders/v1/transaction', jsonBody: REFUND_BODY }) },
	];
}
