import { formatAmount, formatDateTime, formatTransactionDate } from '../../core/generate';
import { json, type Reply } from '../../core/http';
import { invalid, validateCreate, type ValidOrder } from './request';
import { attachCard, setStatus, toMinor } from '../payments/model';
import type { OrderRecord, PaymentToken, SandboxState, TransactionRecord } from '../../core/state';
import { emitWebhook } from '../webhooks/model';

/** Channels of the keys that may create orders, as the records name them (name, channel_id). */
export const ORDER_CHANNELS = { hosted: ['HOSTED', '1'], sdk: ['SDK', '2'], s2s: ['S2S', '3'] };

/** The token a CAUTH order may use, or the 422 of the spec. */
function usableToken(state: SandboxState, order: ValidOrder): PaymentToken {
	const token = state.tokens.get(order.paymentToken);
	if (!token) invalid('Invalid payment token', 422);
	const found = token as PaymentToken;
	if (found.m_customer_id !== order.customerId) {
		invalid('Payment token does not belong to this customer (m_customer_id)', 422);
	}
	if (found.psp !== state.settings.currentPsp) {
		invalid(
			`Payment token PSP mismatch: issued by ${found.psp}, the configured PSP is ` +
				`${state.settings.currentPsp}; tokenize the card again`,
			422,
		);
	}
	return found;
}

const INELIGIBLE_TOKEN_MESSAGE =
	'Card is not tokenized for merchant-initiated payments; ' +
	'complete the payment via the payment link';

/** The spec's standard create response. */
function createResponse(state: SandboxState, record: TransactionRecord, message: string): Reply {
	return json(200, {
		status: 'SUCCESS',
		status_code: '00',
		message,
		p_order_id: Number(record.p_order_id),
		m_order_id: record.m_order_id,
		p_request_id: record.p_request_id,
		order_creation_date: formatDateTime(record.internal.time, '/'),
		amount: `${record.currency} ${record.amount}`,
		...links(state, record),
	});
}

const links = (state: SandboxState, record: TransactionRecord) => ({
	payment_link: `${state.checkoutUrl}/pay/${record.p_order_id}`,
	iframe_link: `${state.checkoutUrl}/iframe/${record.p_order_id}`,
});

/** POST /orders/v1/create for an already parsed body; `channel` is a key of ORDER_CHANNELS. */
export function createOrder(
	state: SandboxState,
	body: unknown,
	channel: keyof typeof ORDER_CHANNELS,
): Reply {
	const valid = validateCreate(body, state);
	const { settings } = state;
	if (valid.class === 'CAUTH' && !settings.cauthEnabled) {
		invalid('CAUTH (pay by token) is not enabled for this merchant account', 403);
	}
	if (valid.split.length > 0 && !settings.splitEnabled) {
		invalid('Split payments are not enabled for this merchant account', 403);
	}
	if (valid.split.length > 0 && settings.splitRequiresLive && !settings.liveMode) {
		invalid('Split payments work in live mode only', 403);
	}
	const token = valid.class === 'CAUTH' ? usableToken(state, valid) : undefined;

	const request = structuredClone(body) as OrderRecord['request'];
	const data = request.data;
	const now = Date.now();
	const ids = state.allocateIds();
	const money = (value: number) => formatAmount(value, valid.currency);
	const amount = money(valid.amount);
	const [channelName, channelId] = ORDER_CHANNELS[channel];
	const record: TransactionRecord = {
		m_order_id: valid.mOrderId,
		p_order_id: ids.p_order_id,
		p_request_id: ids.p_request_id,
		psp_ref_id: '',
		psp_txn_id: '',
		// Assigned at creation, so redirects, lists and lookups always have one.
		transaction_id: ids.transaction_id,
		transaction_date: formatTransactionDate(now),
		status: 'PENDING',
		currency: valid.currency,
		amount,
		amount_captured: money(0),
		psp: settings.currentPsp,
		payment_method: '',
		m_customer_id: valid.customerId,
		m_payment_token: valid.paymentToken,
		payment_method_data: { scheme: '', card_country: '', card_type: '', masked_pan: '' },
		apm_name: '',
		apm_identifier: '',
		sub_merchant_identifier: '',
		channel: channelName,
		channel_id: channelId,
		parameters: structuredClone(valid.parameters),
		custom_data: structuredClone(valid.customData),
		reason: '',
		internal: {
			time: now,
			customer_name: data.customer_details.name,
			customer_email: data.customer_details.email,
			customer_code: data.customer_details.code ?? '',
			customer_mobile: data.customer_details.mobile ?? '',
			billing_country: data.billing_details.country,
			payment_method_id: '',
			card_pan: '',
			amount_refunded: money(0),
			history: [{ status: 'PENDING', amount, date: formatTransactionDate(now) }],
		},
	};
	const order: OrderRecord = {
		p_order_id: record.p_order_id,
		request,
		class: valid.class,
		action: valid.action,
		captureMethod: valid.captureMethod,
		channel: channelName,
		split: valid.split,
		open: true,
		createdAt: now,
	};
	state.orders.set(order.p_order_id, order);
	state.addTransaction(record);
	if (valid.mOrderId !== '') state.mOrderIds.add(valid.mOrderId);

	if (!token) return createResponse(state, record, 'Order created successfully');
	return payByToken(state, order, record, token);
}

/**
 * The three pay-by-token outcomes, chosen deterministically: a token not eligible for
 * merchant-initiated payment needs the hosted page; an amount ending in .51 is declined by the
 * PSP; anything else is paid at once.
 */
function payByToken(
	state: SandboxState,
	order: OrderRecord,
	record: TransactionRecord,
	token: PaymentToken,
): Reply {
	if (!token.mitEligible) {
		return createResponse(state, record, INELIGIBLE_TOKEN_MESSAGE);
	}
	attachCard(record, {
		scheme: token.scheme,
		type: token.card_type === 'DEBIT' ? 'DEBIT' : 'CREDIT',
		country: token.card_country,
		masked: token.mask_card_number,
	});
	const card = record.payment_method_data;
	if (toMinor(Number(record.amount), 'KWD') % 1000 === 510) {
		record.reason = 'Declined by PSP';
		setStatus(record, 'FAILED', record.amount);
		emitWebhook(state, record, order.action, 'FAILED');
		// The decline envelope offers the payment link, so the page stays payable.
		return json(200, {
			status: 'failed',
			code: 'PAYMENT_FAILED',
			message: 'Transaction Failed',
			data: {
				action: order.action,
				status: 'FAILED',
				order_status: 'FAILED',
				m_order_id: record.m_order_id,
				p_order_id: record.p_order_id,
				p_request_id: String(record.p_request_id),
				transaction_id: record.transaction_id,
				currency: record.currency,
				amount: record.amount,
				m_payment_token: record.m_payment_token,
				payment_method_data: {
					scheme: card.scheme,
					card_country: card.card_country,
					card_type: card.card_type,
					mask_card_number: card.masked_pan,
				},
			},
			...links(state, record),
		});
	}
	order.open = false;
	const sale = order.action === 'SALE';
	if (sale) record.amount_captured = record.amount;
	setStatus(record, sale ? 'CAPTURED' : 'AUTHORISED', record.amount);
	const event = emitWebhook(state, record, sale ? 'CAPTURE' : 'AUTH', 'SUCCESS');
	return json(200, {
		status: 'success',
		code: '00',
		message: `Payment successful via ${record.psp}`,
		data: structuredClone(event.payload),
	});
}
