import { formatAmount, formatDateTime } from '../../core/generate';
import type { KeyedValue, SandboxState, TransactionRecord, WebhookEvent } from '../../core/state';

export interface WebhookAddress {
	address_line_1: string;
	address_line_2: string;
	city: string;
	state: string;
	country: string;
	pincode: string;
}

/** The spec's Webhook payload table, every field. */
export interface WebhookPayload {
	action: string;
	status: 'SUCCESS' | 'FAILED';
	order_status: string;
	m_order_id: string;
	p_order_id: string;
	p_request_id: string;
	psp_ref_id: string;
	transaction_id: string;
	is_live: boolean;
	terminal_label: string;
	remark: string;
	reason: string;
	currency: string;
	amount: string;
	shipping_fee: string;
	convenience_fee: string;
	channel: string;
	channel_id: string;
	customer_details: {
		name: string;
		email: string;
		code: string;
		mobile: string;
		m_customer_id: string;
	};
	billing_address: WebhookAddress;
	shipping_address: WebhookAddress;
	ip_country: string;
	psp: string;
	payment_method: string;
	m_payment_token: string;
	transaction_time: string;
	payment_method_data: {
		scheme: string;
		card_country: string;
		card_type: string;
		mask_card_number: string;
		expiry_month: string;
		expiry_year: string;
	};
	apm_name: string;
	apm_identifier: string;
	sub_merchant_identifier: string;
	parameters: KeyedValue[];
	custom_data: KeyedValue[];
}

const text = (value: unknown): string =>
	value === undefined || value === null ? '' : String(value);

/** '' and absent fees count as zero; the payload carries decimal text. */
const fee = (value: unknown, currency: string): string =>
	formatAmount(value === '' || value === undefined ? 0 : Number(value), currency);

function address(details: Record<string, unknown> | undefined): WebhookAddress {
	const d = details ?? {};
	return {
		address_line_1: text(d.address_line1),
		address_line_2: text(d.address_line2),
		city: text(d.city),
		state: text(d.province),
		country: text(d.country),
		pincode: text(d.pin),
	};
}

/**
 * The payload for a record's current state. Created orders take customer, address and fee data
 * from their stored request; generated records only have what the list shows.
 */
export function buildWebhookPayload(
	state: SandboxState,
	record: TransactionRecord,
	action: string,
	status: 'SUCCESS' | 'FAILED',
	remark = '',
	now = Date.now(),
): WebhookPayload {
	const data = state.orders.get(record.p_order_id)?.request.data;
	const customer = data?.customer_details ?? {};
	const token = state.tokens.get(record.m_payment_token ?? '');
	const card = record.payment_method_data;
	const billing = data
		? address(data.billing_details)
		: { ...address(undefined), country: record.internal.billing_country };
	// The spec shows both date forms; events alternate: odd numbers dashes, even slashes.
	const separator = (state.eventsCreated + 1) % 2 === 1 ? '-' : '/';
	return {
		action,
		status,
		order_status: record.status,
		m_order_id: record.m_order_id,
		p_order_id: record.p_order_id,
		p_request_id: String(record.p_request_id),
		psp_ref_id: record.psp_ref_id,
		transaction_id: record.transaction_id,
		is_live: false,
		terminal_label: record.psp ? `${record.psp}-SBX-TERM-01` : '',
		remark,
		reason: record.reason,
		currency: record.currency,
		amount: record.amount,
		shipping_fee: fee(data?.shipping_details?.shipping_amount, record.currency),
		convenience_fee: fee(data?.order_details?.convenience_fee, record.currency),
		channel: record.channel,
		channel_id: record.channel_id,
		customer_details: {
			name: data ? text(customer.name) : record.internal.customer_name,
			email: data ? text(customer.email) : record.internal.customer_email,
			code: data ? text(customer.code) : record.internal.customer_code,
			mobile: data ? text(customer.mobile) : record.internal.customer_mobile,
			m_customer_id: record.m_customer_id ?? '',
		},
		billing_address: billing,
		shipping_address: address(data?.shipping_details),
		// The sandbox's "customer IP" is in the billing country, else the UAE.
		ip_country: billing.country || 'AE',
		psp: record.psp,
		payment_method: record.payment_method,
		m_payment_token: record.m_payment_token ?? '',
		transaction_time: formatDateTime(now, separator),
		payment_method_data: {
			scheme: card.scheme,
			card_country: card.card_country,
			card_type: card.card_type,
			mask_card_number: card.masked_pan,
			expiry_month: token?.expiry_month ?? '',
			expiry_year: token?.expiry_year ?? '',
		},
		apm_name: record.apm_name,
		apm_identifier: record.apm_identifier,
		sub_merchant_identifier: record.sub_merchant_identifier,
		parameters: structuredClone(record.parameters),
		custom_data: structuredClone(record.custom_data),
	};
}

/** Where an order's webhooks go: its own URL, else the merchant default ('' = nowhere). */
export function webhookUrlOf(state: SandboxState, pOrderId: string): string {
	const own = state.orders.get(pOrderId)?.request.data.urls?.webhook_url;
	return typeof own === 'string' && own !== '' ? own : state.settings.defaultWebhookUrl;
}

/** Stores the webhook of a status change; returns the event (its payload is the full payload). */
export function emitWebhook(
	state: SandboxState,
	record: TransactionRecord,
	action: string,
	status: 'SUCCESS' | 'FAILED',
	remark = '',
): WebhookEvent {
	const now = Date.now();
	const payload = buildWebhookPayload(state, record, action, status, remark, now);
	return state.addEvent(record.p_order_id, webhookUrlOf(state, record.p_order_id), payload, now);
}
