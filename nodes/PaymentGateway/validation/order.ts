import type { IDataObject } from 'n8n-workflow';

import type { Violation } from './rules';
import { isBlank, isCountryCode, isCurrencyCode, isDigits, SUPPORTED_CURRENCIES, toPlainNumber } from './rules';
import { unsafeUrlReason } from '../../../credentials/shared/url';

export const ITEM_GENDERS = ['Male', 'Female', 'Kids', 'Other'];
export const KEYED_VALUE_KEYS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'] as const;
export const MAX_SPLIT_RECIPIENTS = 4;

export interface SplitRecipient {
	splitId: string;
	type: 'P' | 'F';
	value: number;
}

/** ISO 4217 minor units of the supported currencies: three for the dinars and the rial. */
export const minorUnits = (currency: string) => (['KWD', 'BHD', 'OMR'].includes(currency) ? 3 : 2);

const decimalPlaces = (value: unknown) => /\.(\d+)$/.exec(String(value))?.[1].length ?? 0;

const obj = (value: unknown): IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as IDataObject) : {};

/** https://, or http:// to localhost for testing (the seed's webhook rule): the credentials' own rule. */
export const isWebhookUrl = (text: string): boolean => unsafeUrlReason(text) === undefined;

function isUrl(text: string): boolean {
	try {
		return ['http:', 'https:'].includes(new URL(text).protocol);
	} catch {
		return false;
	}
}

/** The seed's rules for the `data` object of POST /orders/v1/create, field names as it names them. */
export function validateOrderData(data: IDataObject): Violation[] {
	const violations: Violation[] = [];
	const add = (field: string, rule: string, value: unknown) => violations.push({ field, rule, value });
	const customer = obj(data.customer_details);
	const order = obj(data.order_details);
	const billing = obj(data.billing_details);
	const shipping = obj(data.shipping_details);
	const urls = obj(data.urls);

	const amount = toPlainNumber(order.amount);
	if (amount === undefined) {
		add('order_details.amount', 'must be a plain number (no currency symbol, commas or spaces)', order.amount);
	} else if (amount < 1) {
		add('order_details.amount', 'must be at least 1', order.amount);
	} else if (decimalPlaces(order.amount) > minorUnits(String(order.currency))) {
		const places = minorUnits(String(order.currency));
		add('order_details.amount', `must have at most ${places} decimal places in ${String(order.currency)}`, order.amount);
	}
	if (!SUPPORTED_CURRENCIES.includes(String(order.currency))) {
		add('order_details.currency', `must be one of ${SUPPORTED_CURRENCIES.join(', ')}`, order.currency);
	}
	for (const [field, value, min] of [
		['order_details.convenience_fee', order.convenience_fee, 0],
		['order_details.quantity', order.quantity, 1],
		['shipping_details.shipping_amount', shipping.shipping_amount, 0],
	] as const) {
		if (isBlank(value)) continue;
		const number = toPlainNumber(value);
		if (number === undefined || number < min) add(field, `must be a plain number of at least ${min}`, value);
	}

	const needsCustomerId = data.class === 'CAUTH' || data.action === 'AUTH_REVERSAL';
	if (needsCustomerId && isBlank(customer.m_customer_id)) {
		const why = data.class === 'CAUTH' ? 'pay by saved card' : 'saving a card';
		add('customer_details.m_customer_id', `is required for ${why}`, customer.m_customer_id ?? '');
	}
	if (data.class === 'CAUTH' && isBlank(data.payment_token)) {
		add('payment_token', 'is required for pay by saved card', data.payment_token ?? '');
	}
	for (const [field, value] of [
		['customer_details.mobile', customer.mobile],
		['shipping_details.shipping_mobile', shipping.shipping_mobile],
	] as const) {
		if (!isBlank(value) && !isDigits(String(value))) add(field, 'must contain digits only', value);
	}
	for (const [field, value] of [
		['customer_details.code', customer.code],
		['shipping_details.shipping_code', shipping.shipping_code],
	] as const) {
		if (!isBlank(value) && !/^\+?\d{1,4}$/.test(String(value))) {
			add(field, 'must be a dialing code such as 971 or +971', value);
		}
	}
	for (const [field, value] of [
		['billing_details.country', billing.country],
		['shipping_details.country', shipping.country],
	] as const) {
		if (!isBlank(value) && !isCountryCode(String(value))) {
			add(field, 'must be a 2-letter ISO 3166-1 alpha-2 code', value);
		}
	}
	if (!isBlank(shipping.shipping_currency) && !isCurrencyCode(String(shipping.shipping_currency))) {
		add('shipping_details.shipping_currency', 'must be a 3-letter ISO 4217 code', shipping.shipping_currency);
	}

	if (!isBlank(urls.webhook_url) && !isWebhookUrl(String(urls.webhook_url))) {
		add('urls.webhook_url', 'must be an https:// URL (http:// only for localhost)', urls.webhook_url);
	}
	for (const key of ['success', 'cancel', 'failure']) {
		if (!isBlank(urls[key]) && !isUrl(String(urls[key]))) add(`urls.${key}`, 'must be a URL', urls[key]);
	}
	if (!isBlank(order.return_url) && !isUrl(String(order.return_url))) {
		add('order_details.return_url', 'must be a URL', order.return_url);
	}

	const items = Array.isArray(data.items) ? (data.items as IDataObject[]) : [];
	items.forEach((item, i) => {
		const at = `items[${i}]`;
		if (typeof item !== 'object' || item === null) {
			add(at, 'must be an object', item);
			return;
		}
		for (const wrong of ['name', 'sku']) {
			if (wrong in item) add(`${at}.${wrong}`, `is not a field: use ${wrong === 'name' ? 'title' : 'reference_id'}`, item[wrong]);
		}
		if (!isBlank(item.quantity)) {
			const quantity = toPlainNumber(item.quantity);
			if (quantity === undefined || quantity < 1 || !Number.isInteger(quantity)) {
				add(`${at}.quantity`, 'must be a whole number of at least 1', item.quantity);
			}
		}
		if (!isBlank(item.gender) && !ITEM_GENDERS.includes(String(item.gender))) {
			add(`${at}.gender`, `must be one of ${ITEM_GENDERS.join(', ')}`, item.gender);
		}
		for (const money of ['unit_price', 'discount_amount']) {
			if (!isBlank(item[money]) && toPlainNumber(item[money]) === undefined) {
				add(`${at}.${money}`, 'must be decimal text such as 12.50', item[money]);
			}
		}
		if (!isBlank(item.is_refundable) && typeof item.is_refundable !== 'boolean') {
			add(`${at}.is_refundable`, 'must be true or false', item.is_refundable);
		}
	});
	return violations;
}

/** Split rules: 1–4 recipients, percentages up to 100 in total, flat amounts within the order amount. */
export function validateSplitRecipients(recipients: SplitRecipient[], orderAmount: unknown): Violation[] {
	const violations: Violation[] = [];
	const add = (field: string, rule: string, value: unknown) => violations.push({ field, rule, value });
	if (recipients.length === 0) add('split recipients', 'must list at least one recipient', 0);
	if (recipients.length > MAX_SPLIT_RECIPIENTS) {
		add('split recipients', `may list at most ${MAX_SPLIT_RECIPIENTS} (custom_data beta to epsilon)`, recipients.length);
	}
	let percent = 0;
	let flat = 0;
	recipients.forEach((r, i) => {
		const at = `split recipient ${i + 1}`;
		if (!r.splitId || /[|,]/.test(r.splitId)) {
			add(`${at} split ID`, 'must be a non-empty ID without | or ,', r.splitId);
		}
		if (r.type !== 'P' && r.type !== 'F') add(`${at} type`, 'must be P (percentage) or F (flat)', r.type);
		if (typeof r.value !== 'number' || !Number.isFinite(r.value) || r.value <= 0) {
			add(`${at} value`, 'must be a number above 0', r.value);
			return;
		}
		if (r.type === 'P') percent += r.value;
		if (r.type === 'F') flat += r.value;
	});
	const amount = toPlainNumber(orderAmount);
	if (percent > 100) add('split percentages', 'must not add up to more than 100', percent);
	if (amount !== undefined) {
		if (flat > amount) add('split flat amounts', `must not add up to more than the order amount (${amount})`, flat);
		const allocated = (amount * percent) / 100 + flat;
		if (percent <= 100 && flat <= amount && allocated > amount + 1e-9) {
			add('split recipients', `must not share out more than the order amount (${amount})`, allocated);
		}
	}
	return violations;
}

/** custom_data for a split: alpha `|SPLIT_PAYMENT`, then one `|{id},{type},{value}` per recipient. */
export function encodeSplitCustomData(recipients: SplitRecipient[]): IDataObject[] {
	const [, ...recipientKeys] = KEYED_VALUE_KEYS;
	return [
		{ alpha: '|SPLIT_PAYMENT' },
		...recipientKeys.map((key, i) => {
			const r = recipients[i];
			return { [key]: r ? `|${r.splitId},${r.type},${r.value}` : '' };
		}),
	];
}
