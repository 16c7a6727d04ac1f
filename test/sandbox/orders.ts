import { formatAmount, formatDateTime, formatTransactionDate } from './generate';
import { HttpError, json, quote, type Reply } from './http';
import { attachCard, fitsCurrency, plainNumber, setStatus, toMinor } from './payments';
import type {
	KeyedValue,
	OrderAction,
	OrderClass,
	OrderRecord,
	PaymentToken,
	SandboxState,
	SplitRecipient,
	TransactionRecord,
} from './state';
import { ORDER_CREATE } from './rules/orders';
import { orList, ruleAt, textFits, type WireRule } from './rules/types';
import { emitWebhook } from './webhooks';

/** Channels of the keys that may create orders, as the records name them (name, channel_id). */
export const ORDER_CHANNELS = { hosted: ['HOSTED', '1'], sdk: ['SDK', '2'], s2s: ['S2S', '3'] };

const KEYED_NAMES = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
const SPLIT_FLAG = '|SPLIT_PAYMENT';
const SPLIT_RULE = /^\|([A-Za-z0-9_-]+),([PF]),(\d+(?:\.\d+)?)$/;
const RULES = ORDER_CREATE.fields;
type Obj = Record<string, unknown>;

const isObject = (value: unknown): value is Obj =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

const invalid = (message: string, status = 400): never => {
	throw new HttpError(status, message);
};

function objectField(parent: Obj, key: string, path = key): Obj {
	const value = parent[key];
	if (value === undefined || value === null) invalid(`${path} is required`);
	if (!isObject(value)) invalid(`${path} must be an object`);
	return value as Obj;
}

/** The rule's own check of a non-empty text (pattern, list, URL form); the broken rule's words. */
function textCheck(rule: WireRule, value: string): string | undefined {
	if (rule.type === 'url') return httpUrl(value);
	if (rule.type === 'webhookUrl') return webhookUrl(value);
	return rule.says && !textFits(rule, value) ? rule.says : undefined;
}

/** A string field by its rule; returns '' when absent. */
function textField(parent: Obj, key: string, path: string, rule: WireRule = ruleAt(RULES, path)) {
	const value = parent[key];
	const nonEmpty = rule.required && !rule.mayBeEmpty;
	if (value === undefined) {
		if (rule.required) invalid(`${path} is required`);
		return '';
	}
	if (typeof value !== 'string') invalid(`${path} must be a string, got ${quote(value)}`);
	const text = value as string;
	if (text === '' && nonEmpty) invalid(`${path} is required`);
	const broken = text === '' ? undefined : textCheck(rule, text);
	if (broken) invalid(`${path} ${broken}, got ${quote(text)}`);
	return text;
}

function httpUrl(value: string): string | undefined {
	try {
		const { protocol } = new URL(value);
		return protocol === 'http:' || protocol === 'https:' ? undefined : 'must be an http(s) URL';
	} catch {
		return 'must be an absolute URL';
	}
}

/** HTTPS, or plain HTTP to the local machine (the spec allows localhost for testing). */
function webhookUrl(value: string): string | undefined {
	try {
		const url = new URL(value);
		const local = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
		if (url.protocol === 'https:' || (url.protocol === 'http:' && local)) return undefined;
	} catch {
		return 'must be an absolute URL';
	}
	return 'must use HTTPS (plain HTTP only for localhost or 127.0.0.1)';
}

/** A number field by its rule ('' only where it may be empty); `min` is inclusive. */
function numberField(
	parent: Obj,
	key: string,
	path: string,
	rule: WireRule = ruleAt(RULES, path),
): number | undefined {
	const value = parent[key];
	if (value === undefined || value === null) {
		return rule.required ? invalid(`${path} is required`) : undefined;
	}
	if (value === '') return rule.mayBeEmpty ? undefined : invalid(`${path} is required`);
	const number = plainNumber(value);
	if (number === undefined) {
		invalid(
			`${path} must be a plain number (no currency symbol, commas or spaces), got ${quote(value)}`,
		);
	}
	if (rule.type === 'integer' && !Number.isInteger(number)) {
		invalid(`${path} must be a whole number`);
	}
	if (rule.min !== undefined && (number as number) < rule.min) {
		invalid(`${path} must be at least ${rule.min}, got ${quote(value)}`);
	}
	return number;
}

/** A field that must be one of its rule's values. */
function oneOfField(data: Obj, path: string): unknown {
	const rule = ruleAt(RULES, path);
	const value = data[path];
	if (value === undefined || value === '') {
		return rule.required ? invalid(`${path} is required`) : undefined;
	}
	if (!rule.oneOf?.includes(value as string)) {
		invalid(`${path} must be ${orList(rule.oneOf ?? [])}, got ${quote(value)}`);
	}
	return value;
}

/** parameters / custom_data: single-key objects named alpha…epsilon with string values. */
function keyedArray(data: Obj, key: string): KeyedValue[] | undefined {
	const value = data[key];
	if (value === undefined) return undefined;
	if (!Array.isArray(value)) invalid(`${key} must be an array of single-key objects`);
	const seen = new Set<string>();
	(value as unknown[]).forEach((entry, i) => {
		const keys = isObject(entry) ? Object.keys(entry) : [];
		if (keys.length !== 1) invalid(`${key}[${i}] must be an object with exactly one key`);
		const [name] = keys;
		if (!KEYED_NAMES.includes(name)) {
			invalid(`${key}[${i}] has key ${quote(name)}; use alpha, beta, gamma, delta or epsilon`);
		}
		if (seen.has(name)) invalid(`${key} has ${name} more than once`);
		seen.add(name);
		if (typeof (entry as Obj)[name] !== 'string') invalid(`${key}[${i}].${name} must be a string`);
	});
	return value as KeyedValue[];
}

/** The split recipients of custom_data, or [] when it carries no |SPLIT_PAYMENT flag. */
function splitRules(customData: KeyedValue[] | undefined): SplitRecipient[] {
	const values: Record<string, string> = Object.assign({}, ...(customData ?? []));
	if (values.alpha !== SPLIT_FLAG) return [];
	const recipients: SplitRecipient[] = [];
	for (const name of KEYED_NAMES.slice(1)) {
		const rule = values[name] ?? '';
		if (rule === '') {
			if (name === 'beta') invalid('custom_data beta is required for a split payment');
			continue;
		}
		const found = SPLIT_RULE.exec(rule);
		if (!found) {
			invalid(`custom_data ${name} must have the form |{id},{P|F},{value}, got ${quote(rule)}`);
		}
		const [, id, type, text] = found as RegExpExecArray;
		const value = Number(text);
		if (value <= 0 || (type === 'P' && value > 100)) {
			invalid(`custom_data ${name} value must be above 0 (percentages at most 100)`);
		}
		recipients.push({ id, type: type as 'P' | 'F', value });
	}
	return recipients;
}

/**
 * Every field of one object by the rules under `prefix`, in the table's order; `path` names the
 * object in answers (items[2]), `skip` leaves fields to the caller's own checks.
 */
function checkObject(obj: Obj, prefix: string, path = prefix, skip: string[] = []): void {
	for (const [wire, rule] of Object.entries(RULES)) {
		if (!wire.startsWith(`${prefix}.`)) continue;
		const key = wire.slice(prefix.length + 1);
		if (skip.includes(key)) continue;
		const at = `${path}.${key}`;
		if (rule.type === 'number' || rule.type === 'integer') numberField(obj, key, at, rule);
		else if (rule.type !== 'boolean') textField(obj, key, at, rule);
		else if (obj[key] !== undefined && typeof obj[key] !== 'boolean') {
			invalid(`${at} must be true or false`);
		}
	}
}

function validateItems(data: Obj): void {
	const items = data.items;
	if (items === undefined) return;
	if (!Array.isArray(items)) invalid('items must be an array');
	(items as unknown[]).forEach((item, i) => {
		const path = `items[${i}]`;
		if (!isObject(item)) invalid(`${path} must be an object`);
		const it = item as Obj;
		// Frequent mistakes the spec calls out: title, not name; reference_id, not sku.
		if ('name' in it) invalid(`${path}.name is not an item field: use title`);
		if ('sku' in it) invalid(`${path}.sku is not an item field: use reference_id`);
		checkObject(it, 'items[]', path);
	});
}

/** What a valid create request boils down to. */
interface ValidOrder {
	class: OrderClass;
	action: OrderAction;
	captureMethod: 'AUTOMATIC' | 'MANUAL';
	paymentToken: string;
	customerId: string;
	mOrderId: string;
	amount: number;
	currency: string;
	split: SplitRecipient[];
	parameters: KeyedValue[];
	customData: KeyedValue[];
}

/** Every rule of the spec's Order create request; throws HttpError (400, 422 for currency). */
export function validateCreate(body: unknown, state: SandboxState): ValidOrder {
	if (!isObject(body)) invalid('Request body must be a JSON object');
	const data = objectField(body as Obj, 'data', 'data (the order nested in a data object)');

	const cls = oneOfField(data, 'class');
	const action = oneOfField(data, 'action');
	if (cls === 'CAUTH' && action === 'AUTH_REVERSAL') {
		invalid('action AUTH_REVERSAL is not allowed for class CAUTH: tokenize with class ECOM');
	}
	const captureMethod = oneOfField(data, 'capture_method');
	let paymentToken = '';
	if (cls === 'CAUTH') {
		paymentToken = textField(data, 'payment_token', 'payment_token', {
			...RULES.payment_token,
			required: true,
		});
	} else if (data.payment_token !== undefined) {
		invalid('payment_token is only for class CAUTH; omit it for ECOM');
	}

	const customer = objectField(data, 'customer_details');
	// m_customer_id: required for AUTH_REVERSAL and CAUTH only (spec: Flows).
	const needsCustomer = cls === 'CAUTH' || action === 'AUTH_REVERSAL';
	const customerId = textField(customer, 'm_customer_id', 'customer_details.m_customer_id', {
		...RULES['customer_details.m_customer_id'],
		required: needsCustomer,
	});
	checkObject(customer, 'customer_details', undefined, ['m_customer_id']);

	const order = objectField(data, 'order_details');
	checkObject(order, 'order_details');
	const mOrderId = textField(order, 'm_order_id', 'order_details.m_order_id');
	const amount = numberField(order, 'amount', 'order_details.amount');
	const currency = order.currency as string;
	const supported = RULES['order_details.currency'].oneOf ?? [];
	if (!supported.includes(currency)) {
		invalid(`Unsupported currency ${quote(currency)}; supported: ${supported.join(', ')}`, 422);
	}
	if (!fitsCurrency(amount as number, currency)) {
		invalid(`order_details.amount has more decimal places than ${currency} allows`);
	}

	checkObject(objectField(data, 'billing_details'), 'billing_details');
	checkObject(objectField(data, 'shipping_details'), 'shipping_details');
	validateItems(data);
	checkObject(objectField(data, 'urls'), 'urls');

	const parameters = keyedArray(data, 'parameters');
	const customData = keyedArray(data, 'custom_data');
	const split = splitRules(customData);
	if (split.length > 0 && (cls !== 'ECOM' || action === 'AUTH_REVERSAL')) {
		invalid('Split payments need class ECOM with action SALE or AUTH');
	}
	if (mOrderId !== '' && state.mOrderIds.has(mOrderId)) {
		invalid(`Duplicate m_order_id ${quote(mOrderId)}: it must be unique per order`);
	}
	return {
		class: cls as OrderClass,
		action: action as OrderAction,
		captureMethod: captureMethod === 'MANUAL' ? 'MANUAL' : 'AUTOMATIC',
		paymentToken,
		customerId,
		mOrderId,
		amount: amount as number,
		currency,
		split,
		parameters: parameters ?? [],
		customData: customData ?? [],
	};
}

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
