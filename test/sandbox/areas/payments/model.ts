import { createHash } from 'node:crypto';

import {
	formatAmount,
	formatDay,
	formatTransactionDate,
	luhnCheckDigit,
	minorDigits,
} from '../../core/generate';
import { HttpError, json, quote, type Reply } from '../../core/http';
import { MANAGE_PAYMENT } from '../orders/rules';
import { orList } from '../../rules/types';
import type {
	OrderRecord,
	SandboxState,
	TransactionObject,
	TransactionRecord,
	TransactionStatus,
} from '../../core/state';
import { toTransactionObject } from '../transactions/model';
import { emitWebhook } from '../webhooks/model';

/** Documented test cards of the hosted page (README). Any other Luhn-valid PAN pays. */
export const TEST_CARDS = {
	/** The page's default: VISA credit, pays. */
	visa: '4111111111111111',
	/** MASTERCARD debit, pays. */
	mastercardDebit: '5555555555554444',
	/** Asks for a 3-D Secure code; THREE_DS_CODE passes, anything else fails. */
	threeDSecure: '4000000000003220',
	/** Pays, but its token is not eligible for merchant-initiated payment (no mandate). */
	mandateNotRegistered: '4000000000000341',
	/** Declined by the issuer ("Do not honour"). */
	declined: '4000000000000002',
} as const;

export const THREE_DS_CODE = '123456';

export interface CardInfo {
	pan: string;
	scheme: string;
	type: 'CREDIT' | 'DEBIT';
	country: string;
	masked: string;
}

/** Card data for a PAN (12-19 digits, Luhn-valid); undefined otherwise. */
export function cardInfo(pan: string): CardInfo | undefined {
	if (!/^\d{12,19}$/.test(pan) || luhnCheckDigit(pan.slice(0, -1)) !== pan.slice(-1)) {
		return undefined;
	}
	const scheme = pan.startsWith('4')
		? 'VISA'
		: /^(5[1-5]|2[2-7])/.test(pan)
			? 'MASTERCARD'
			: /^3[47]/.test(pan)
				? 'AMEX'
				: 'CARD';
	return {
		pan,
		scheme,
		type: pan === TEST_CARDS.mastercardDebit ? 'DEBIT' : 'CREDIT',
		country: 'AE',
		masked: pan.slice(0, 6) + 'X'.repeat(pan.length - 10) + pan.slice(-4),
	};
}

/** Integer minor units, so money sums are exact. */
export const toMinor = (value: number, currency: string): number =>
	Math.round(value * 10 ** minorDigits(currency));

export const fromMinor = (minor: number, currency: string): string =>
	formatAmount(minor / 10 ** minorDigits(currency), currency);

/** A value with no more decimals than the currency has. */
export const fitsCurrency = (value: number, currency: string): boolean => {
	const scaled = value * 10 ** minorDigits(currency);
	return Math.abs(scaled - Math.round(scaled)) < 1e-6;
};

/** Sets the status and appends the history entry of the change. */
export function setStatus(
	record: TransactionRecord,
	status: TransactionStatus,
	amount: string,
	now = Date.now(),
): void {
	record.status = status;
	record.internal.history.push({ status, amount, date: formatTransactionDate(now) });
}

/** What the PSP reports once a card is used: references and the card's data. */
export function attachCard(
	record: TransactionRecord,
	card: Omit<CardInfo, 'pan'> & { pan?: string },
): void {
	record.psp_ref_id = `SBXREF${record.transaction_id}`.slice(-16);
	record.psp_txn_id = record.transaction_id.slice(-12).padStart(12, '0');
	record.payment_method = card.type === 'DEBIT' ? 'Debit Card' : 'Credit Card';
	record.payment_method_data = {
		scheme: card.scheme,
		card_country: card.country,
		card_type: card.type,
		masked_pan: card.masked,
	};
	if (card.pan) {
		record.internal.card_pan = card.pan;
		record.internal.payment_method_id = `pm_${digest(card.pan).slice(0, 16)}`;
	}
}

const digest = (text: string) => createHash('sha256').update(text).digest('hex');

/** The webhook action of a hosted payment's result (spec: States and transitions). */
function hostedResult(order: OrderRecord): { status: TransactionStatus; action: string } {
	if (order.action === 'SALE') return { status: 'CAPTURED', action: 'SALE' };
	if (order.action === 'AUTH_REVERSAL') return { status: 'AUTHORISED', action: 'AUTH_REVERSAL' };
	// Pay by token AUTH only holds funds; ECOM AUTH captures unless capture_method is MANUAL.
	return order.class === 'CAUTH' || order.captureMethod === 'MANUAL'
		? { status: 'AUTHORISED', action: 'AUTH' }
		: { status: 'CAPTURED', action: 'CAPTURE' };
}

export type CompleteOutcome = 'pay' | 'decline' | 'cancel';

export interface CompleteResult {
	/** Full redirect URL with the spec's callback query parameters. */
	redirect: string;
	order: TransactionObject;
}

type RedirectKind = 'success' | 'cancel' | 'failure';

function redirectUrl(
	state: SandboxState,
	order: OrderRecord,
	record: TransactionRecord,
	kind: RedirectKind,
): string {
	const own = order.request.data.urls?.[kind];
	const target = typeof own === 'string' && own !== '' ? own : state.settings.defaultUrls[kind];
	const url = new URL(target);
	const query: Record<string, string> = {
		status: kind === 'success' ? 'SUCCESS' : 'FAILED',
		p_order_id: record.p_order_id,
		m_order_id: record.m_order_id,
		transaction_id: record.transaction_id,
		amount: record.amount,
		currency: record.currency,
		payment_method: record.payment_method,
	};
	for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
	return url.toString();
}

/**
 * The hosted page's outcome. Cancel changes nothing (the link stays payable); pay and decline
 * close the order, update the record and store the webhook event.
 */
export function completeOrder(
	state: SandboxState,
	pOrderId: string,
	outcome: CompleteOutcome,
	card: string = TEST_CARDS.visa,
	otp?: string,
): CompleteResult {
	const order = state.orders.get(pOrderId);
	const record = state.transactionsByPOrderId.get(pOrderId);
	if (!order || !record) throw new HttpError(404, `Order ${pOrderId} not found`);
	if (!order.open) {
		throw new HttpError(409, `Order ${pOrderId} is already completed (status ${record.status})`);
	}
	if (!['pay', 'decline', 'cancel'].includes(outcome)) {
		throw new HttpError(400, `outcome must be pay, decline or cancel, got ${quote(outcome)}`);
	}
	const done = (kind: RedirectKind) => ({
		redirect: redirectUrl(state, order, record, kind),
		order: toTransactionObject(record),
	});
	if (outcome === 'cancel') return done('cancel');

	const info = cardInfo(card);
	if (!info) {
		throw new HttpError(400, `Invalid card number ${quote(card)}: 12-19 digits, Luhn-valid`);
	}
	if (outcome === 'pay' && card === TEST_CARDS.threeDSecure && otp === undefined) {
		throw new HttpError(
			400,
			`Card ${card} needs 3-D Secure: send otp (test code ${THREE_DS_CODE})`,
		);
	}
	const declineReason =
		outcome === 'decline'
			? 'Declined by issuer'
			: card === TEST_CARDS.declined
				? 'Do not honour'
				: card === TEST_CARDS.threeDSecure && otp !== THREE_DS_CODE
					? '3DS authentication failed'
					: '';
	const now = Date.now();
	order.open = false;
	attachCard(record, info);
	if (declineReason) {
		record.reason = declineReason;
		setStatus(record, 'FAILED', record.amount, now);
		// A failure carries the order's own action (no capture happened).
		emitWebhook(state, record, order.action, 'FAILED');
		return done('failure');
	}

	const eligible = card !== TEST_CARDS.mandateNotRegistered;
	if (order.class === 'CAUTH') {
		// Paying on the page registers the mandate of the order's token.
		const token = state.tokens.get(record.m_payment_token ?? '');
		if (token) token.mitEligible = eligible;
	} else {
		// Same customer, card and PSP: same token, as a real vault would answer.
		const token = `tok_${digest(`${record.m_customer_id}|${info.pan}|${record.psp}`).slice(0, 24)}`;
		state.tokens.set(token, {
			m_customer_id: record.m_customer_id ?? '',
			psp: record.psp,
			mitEligible: eligible,
			scheme: info.scheme,
			mask_card_number: info.masked,
			card_country: info.country,
			card_type: info.type,
			expiry_month: '12',
			expiry_year: '2030',
		});
		record.m_payment_token = token;
	}
	const result = hostedResult(order);
	record.reason = '';
	if (result.status === 'CAPTURED') record.amount_captured = record.amount;
	setStatus(record, result.status, record.amount, now);
	emitWebhook(state, record, result.action, 'SUCCESS');
	return done('success');
}

const isObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** A JSON number or plain numeric text (no sign, symbols, commas or spaces). */
export function plainNumber(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	if (typeof value === 'string' && /^\d+(\.\d+)?$/.test(value)) return Number(value);
	return undefined;
}

const e0044 = (message: string) => new HttpError(400, message, 'E0044');

const MANAGE_MESSAGES = {
	CAPTURE: 'Captured Successfully.',
	VOID: 'Transaction successfully void',
	REFUND: 'Refunded Successfully.',
} as const;

/** The manage request's own fields, by MANAGE_PAYMENT's rules; throws HttpError 400. */
function manageRequest(body: unknown) {
	if (!isObject(body)) throw new HttpError(400, 'Request body must be a JSON object');
	const { transaction_id: id, amount, reason } = body;
	const given = body.action;
	if (given === undefined || given === '') throw new HttpError(400, 'action is required');
	const actions = MANAGE_PAYMENT.fields.action.oneOf ?? [];
	if (!actions.includes(given as string)) {
		throw new HttpError(400, `action must be ${orList(actions)}, got ${quote(given)}`);
	}
	const validId = (typeof id === 'string' && id !== '') || Number.isSafeInteger(id);
	if (!validId) throw new HttpError(400, 'transaction_id is required');
	if (!isObject(amount)) {
		throw new HttpError(400, 'amount is required: an object with currencyCode and value');
	}
	if (typeof amount.currencyCode !== 'string' || amount.currencyCode === '') {
		throw new HttpError(400, 'amount.currencyCode is required');
	}
	const value = plainNumber(amount.value);
	if (value === undefined) {
		throw new HttpError(400, `amount.value must be a plain number, got ${quote(amount.value)}`);
	}
	if (reason !== undefined && typeof reason !== 'string') {
		throw new HttpError(400, 'reason must be a string');
	}
	const action = given as keyof typeof MANAGE_MESSAGES;
	return {
		action,
		id,
		currencyCode: amount.currencyCode,
		value,
		reason: reason as string | undefined,
	};
}

/** POST /orders/v1/transaction: capture, void or refund (spec: Manage payment). */
export function manageTransaction(state: SandboxState, body: unknown): Reply {
	const { action, id, currencyCode, value, reason } = manageRequest(body);
	const above = MANAGE_PAYMENT.fields['amount.value'].above ?? 0;
	const record = state.transactionsById.get(String(id));
	// Our choice: an unknown transaction is E0044 like the other "cannot do that" cases.
	if (!record) throw e0044(`Transaction ${String(id)} not found`);
	const currency = record.currency;
	if (currencyCode !== currency) {
		const given = quote(currencyCode);
		throw new HttpError(
			400,
			`amount.currencyCode ${given} does not match the transaction currency ${currency}`,
		);
	}
	if (!fitsCurrency(value, currency)) {
		throw new HttpError(400, `amount.value has more decimal places than ${currency} allows`);
	}
	const tokenization = state.orders.get(record.p_order_id)?.action === 'AUTH_REVERSAL';
	const minor = toMinor(value, currency);
	const authorised = toMinor(Number(record.amount), currency);
	const now = Date.now();
	let shown: string;

	if (action === 'CAPTURE') {
		if (tokenization) {
			throw e0044('A card tokenization (AUTH_REVERSAL) is voided at once and cannot be captured');
		}
		if (record.status !== 'AUTHORISED') {
			throw e0044(`Transaction is not in a capturable state (status ${record.status})`);
		}
		if (!(value > above)) throw new HttpError(400, `amount.value must be greater than ${above}`);
		if (minor > authorised) {
			throw new HttpError(400, `Capture amount exceeds the authorised amount ${record.amount}`);
		}
		shown = fromMinor(minor, currency);
		record.amount_captured = shown;
		setStatus(record, minor === authorised ? 'CAPTURED' : 'PARTIALLY_CAPTURE', shown, now);
	} else if (action === 'VOID') {
		if (!state.settings.allowVoid) throw e0044('Void is not enabled on the MID');
		if (tokenization || record.status === 'VOID') throw e0044('Transaction is already voided');
		if (record.status !== 'AUTHORISED') {
			throw e0044(`Transaction is not in a voidable state (status ${record.status})`);
		}
		if (!(value > above)) throw new HttpError(400, `amount.value must be greater than ${above}`);
		if (minor > authorised) {
			throw new HttpError(400, `Void amount exceeds the authorised amount ${record.amount}`);
		}
		// A void releases the whole authorisation, whatever value was sent.
		shown = record.amount;
		record.reason = reason || 'Voided by merchant';
		setStatus(record, 'VOID', shown, now);
	} else {
		if (!state.settings.allowRefunds) throw e0044('Refunds are not enabled on the MID');
		if (record.status === 'AUTHORISED') {
			throw e0044('An authorisation cannot be refunded; void it instead (status AUTHORISED)');
		}
		if (record.status === 'REFUNDED') throw e0044('Transaction is already fully refunded');
		if (!['CAPTURED', 'PARTIALLY_CAPTURE', 'PARTIALLY_REFUNDED'].includes(record.status)) {
			throw e0044(`Transaction is not in a refundable state (status ${record.status})`);
		}
		const least = MANAGE_PAYMENT.variants?.[0].fields['amount.value'].min ?? 1;
		if (value < least) {
			throw new HttpError(400, `Refund amount.value must be at least ${least}`);
		}
		const captured = toMinor(Number(record.amount_captured), currency);
		const refunded = toMinor(Number(record.internal.amount_refunded), currency) + minor;
		if (refunded > captured) {
			// The spec: the PSP rejects it and the API answers HTTP 200 with success false.
			return json(200, {
				success: false,
				status: 'failed',
				code: 'REFUND_EXCEEDS_BALANCE',
				message: `${record.psp}: refund amount exceeds the refundable balance`,
			});
		}
		shown = fromMinor(minor, currency);
		record.internal.amount_refunded = fromMinor(refunded, currency);
		if (reason) record.reason = reason;
		setStatus(record, refunded === captured ? 'REFUNDED' : 'PARTIALLY_REFUNDED', shown, now);
	}
	emitWebhook(state, record, action, 'SUCCESS', reason ?? '');
	return json(200, {
		data: {
			status: record.status,
			m_order_id: record.m_order_id,
			p_order_id: Number(record.p_order_id),
			transaction_id: Number(record.transaction_id),
			amount: shown,
			currency,
			date: formatDay(now, '/'),
		},
		message: MANAGE_MESSAGES[action],
		status: 'success',
		code: '00',
	});
}
