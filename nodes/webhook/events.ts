import type { IDataObject, INodePropertyOptions } from 'n8n-workflow';

import { paymentOutcome, statusText } from './outcome';

/** Events as the service's state table and webhook payload define them. */
export const PAYMENT_EVENTS: INodePropertyOptions[] = [
	{
		name: 'Card Tokenized',
		value: 'card_tokenised',
		description: 'Save Card succeeded: action AUTH_REVERSAL, status SUCCESS, with m_payment_token',
	},
	{
		name: 'Payment Authorized',
		value: 'payment_authorised',
		description: 'Order status AUTHORISED (action AUTH)',
	},
	{
		name: 'Payment Captured',
		value: 'payment_captured',
		description: 'Order status CAPTURED (action SALE or CAPTURE)',
	},
	{ name: 'Payment Failed', value: 'payment_failed', description: 'Status or order status FAILED' },
	{
		name: 'Payment Partially Refunded',
		value: 'payment_partially_refunded',
		description: 'Order status PARTIALLY_REFUNDED',
	},
	{ name: 'Payment Refunded', value: 'payment_refunded', description: 'Order status REFUNDED' },
	{ name: 'Payment Voided', value: 'payment_voided', description: 'Order status VOID' },
	{ name: 'Other', value: 'other', description: 'Any other combination of action and status' },
];

/** The canvas subtitle: the chosen events in words ("Payment Captured, Payment Failed"). */
export const EVENTS_SUBTITLE = `={{ (($parameter["events"] || []).includes("*") ? ["Any event"] : ($parameter["events"] || []).map((e) => (${JSON.stringify(
	Object.fromEntries(PAYMENT_EVENTS.map((e) => [e.value, e.name])),
)})[e] || e)).join(", ") }}`;

/** Names the event a webhook payload reports, from its action, status and order_status. */
export function classifyEvent(payload: IDataObject): string {
	if (paymentOutcome(payload.status, payload.order_status) === 'failed') return 'payment_failed';
	if (statusText(payload.action) === 'AUTH_REVERSAL') {
		return statusText(payload.status) === 'SUCCESS' && payload.m_payment_token
			? 'card_tokenised'
			: 'other';
	}
	switch (statusText(payload.order_status)) {
		case 'REFUNDED':
			return 'payment_refunded';
		case 'PARTIALLY_REFUNDED':
			return 'payment_partially_refunded';
		case 'VOID':
			return 'payment_voided';
		case 'CAPTURED':
			return 'payment_captured';
		case 'AUTHORISED':
			return 'payment_authorised';
		default:
			return 'other';
	}
}

/**
 * What identifies one status change; the service's retries of it share the key. transaction_time
 * tells apart two changes with the same statuses, such as two partial refunds.
 */
export function deliveryKey(payload: IDataObject): string {
	return ['transaction_id', 'action', 'status', 'order_status', 'transaction_time']
		.map((field) => String(payload[field] ?? ''))
		.join('|');
}
