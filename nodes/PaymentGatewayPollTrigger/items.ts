import type { IDataObject } from 'n8n-workflow';

import { serviceDateToIso } from '../PaymentGateway/helpers/dates';
import { classifyEvent, deliveryKey } from '../webhook/events';
import type { Change } from './snapshot';

const CAPTURED = ['CAPTURED', 'PARTIALLY_CAPTURE'];

/**
 * The webhook's `action` for a change seen in the list: the list has no action, so it is read from
 * the statuses before and after. A capture after an authorisation is CAPTURE; a transaction first
 * seen captured is SALE (the list cannot tell an automatic capture from a sale).
 */
export function actionOf(previousStatus: string | null, status: string): string {
	if (CAPTURED.includes(status)) return previousStatus === 'AUTHORISED' ? 'CAPTURE' : 'SALE';
	if (status === 'AUTHORISED') return 'AUTH';
	if (status === 'REFUNDED' || status === 'PARTIALLY_REFUNDED') return 'REFUND';
	if (status === 'VOID') return 'VOID';
	return '';
}

const text = (value: unknown) => (value === undefined || value === null ? '' : String(value));

/**
 * One output item, shaped like the webhook trigger's where the fields overlap (the list lacks the
 * customer's name, addresses and fees), so one workflow can take both. `transaction_time` is the
 * list's transaction_date: the list says when a transaction was made, not when it changed.
 */
export function toItem(change: Change, timeZone: string, detectedAt: string): IDataObject {
	const record = change.record;
	const status = text(record.status).trim().toUpperCase();
	const card = (record.payment_method_data ?? {}) as IDataObject;
	const json: IDataObject = {
		action: actionOf(change.previousStatus, status),
		status: status === 'FAILED' ? 'FAILED' : 'SUCCESS',
		order_status: status,
		m_order_id: text(record.m_order_id),
		p_order_id: text(record.p_order_id),
		p_request_id: text(record.p_request_id),
		psp_ref_id: text(record.psp_ref_id),
		transaction_id: text(record.transaction_id),
		currency: text(record.currency),
		amount: text(record.amount),
		channel: text(record.channel),
		channel_id: text(record.channel_id),
		customer_details: { m_customer_id: text(record.m_customer_id) },
		psp: text(record.psp),
		payment_method: text(record.payment_method),
		m_payment_token: text(record.m_payment_token),
		transaction_time: text(record.transaction_date),
		payment_method_data: {
			scheme: text(card.scheme),
			card_country: text(card.card_country),
			card_type: text(card.card_type),
			mask_card_number: text(card.masked_pan),
		},
		apm_name: text(record.apm_name),
		apm_identifier: text(record.apm_identifier),
		sub_merchant_identifier: text(record.sub_merchant_identifier),
		parameters: Array.isArray(record.parameters) ? record.parameters : [],
		custom_data: Array.isArray(record.custom_data) ? record.custom_data : [],
		// Only in the list.
		amount_captured: text(record.amount_captured),
		psp_txn_id: text(record.psp_txn_id),
	};
	const iso = serviceDateToIso(json.transaction_time, timeZone);
	if (iso) json.transaction_time_iso = iso;
	json.event = classifyEvent(json);
	json.deliveryKey = deliveryKey(json);
	json.statusKey = `${json.transaction_id}|${status}`;
	json.previous_status = change.previousStatus;
	json.detected_at = detectedAt;
	json.source = 'poll';
	return json;
}

/** Whether the chosen events include this item's. */
export const selected = (events: string[], item: IDataObject) =>
	events.includes('*') || events.includes(String(item.event));
