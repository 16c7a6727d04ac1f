import { CURRENCIES, formatAmount, formatDateTime, formatTransactionDate } from './generate';
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
import { emitWebhook } from './webhooks';

/** Channels of the keys that may create orders, as the records name them (name, channel_id). */
export const ORDER_CHANNELS = { hosted: ['HOSTED', '1'], sdk: ['SDK', '2'], s2s: ['S2S', '3'] };

const KEYED_NAMES = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
const SPLIT_FLAG = '|SPLIT_PAYMENT';
const SPLIT_RULE = /^\|([A-Za-z0-9_-]+),([PF]),(\d+(?:\.\d+)?)$/;
const GENDERS = ['Male', 'Female', 'Kids', 'Other'];
const ITEM_TEXT_FIELDS = [
	'title',
	'description',
	'reference_id',
	'image_url',
	'product_url',
	'category',
	'color',
	'product_material',
	'size_type',
	'size',
	'brand',
];

/** ISO 3166-1 alpha-2, officially assigned codes. */
const COUNTRY_CODES = new Set(
	(
		'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ ' +
		'BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM ' +
		'DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS ' +
		'GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN ' +
		'KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ ' +
		'MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM ' +
		'PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV ' +
		'SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI ' +
		'VN VU WF WS YE YT ZA ZM ZW'
	).split(' '),
);

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

interface TextRule {
	/** The key must be present (the value may still be ''). */
	required?: boolean;
	/** A non-empty value is required. */
	nonEmpty?: boolean;
	/** Checked on non-empty values; returns the rule text when broken. */
	check?: (value: string) => string | undefined;
}

/** A string field; returns '' when absent. */
function textField(parent: Obj, key: string, path: string, rule: TextRule = {}): string {
	const value = parent[key];
	if (value === undefined) {
		if (rule.required || rule.nonEmpty) invalid(`${path} is required`);
		return '';
	}
	if (typeof value !== 'string') invalid(`${path} must be a string, got ${quote(value)}`);
	const text = value as string;
	if (text === '' && rule.nonEmpty) invalid(`${path} is required`);
	const broken = text === '' ? undefined : rule.check?.(text);
	if (broken) invalid(`${path} ${broken}, got ${quote(text)}`);
	return text;
}

const digitsOnly = (value: string) =>
	/^\d+$/.test(value) ? undefined : 'must contain digits only';
const country = (value: string) =>
	COUNTRY_CODES.has(value) ? undefined : 'must be an ISO 3166-1 alpha-2 country code';
const currencyCode = (value: string) =>
	/^[A-Z]{3}$/.test(value) ? undefined : 'must be an ISO 4217 currency code';

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

/** A number field that may also be ''; `min` is inclusive. */
function numberField(
	parent: Obj,
	key: string,
	path: string,
	rule: { min: number; integer?: boolean; allowEmpty?: boolean; required?: boolean },
): number | undefined {
	const value = parent[key];
	if (value === undefined || value === null) {
		return rule.required ? invalid(`${path} is required`) : undefined;
	}
	if (value === '') return rule.allowEmpty ? undefined : invalid(`${path} is required`);
	const number = plainNumber(value);
	if (number === undefined) {
		invalid(
			`${path} must be a plain number (no currency symbol, commas or spaces), got ${quote(value)}`,
		);
	}
	if (rule.integer && !Number.isInteger(number)) invalid(`${path} must be a whole number`);
	if ((number as number) < rule.min) {
		invalid(`${path} must be at least ${rule.min}, got ${quote(value)}`);
	}
	return number;
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
		for (const key of ITEM_TEXT_FIELDS) textField(it, key, `${path}.${key}`);
		for (const key of ['unit_price', 'discount_amount']) {
			textField(it, key, `${path}.${key}`, {
				check: (v) => (/^\d+(\.\d+)?$/.test(v) ? undefined : 'must be decimal text'),
			});
		}
		numberField(it, 'quantity', `${path}.quantity`, { min: 1, integer: true });
		textField(it, 'gender', `${path}.gender`, {
			check: (v) => (GENDERS.includes(v) ? undefined : 'must be Male, Female, Kids or Other'),
		});
		if (it.is_refundable !== undefined && typeof it.is_refundable !== 'boolean') {
			invalid(`${path}.is_refundable must be true or false`);
		}
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

	const cls = data.class;
	if (cls === undefined || cls === '') invalid('class is required');
	if (cls !== 'ECOM' && cls !== 'CAUTH') invalid(`class must be ECOM or CAUTH, got ${quote(cls)}`);
	const action = data.action;
	if (action === undefined || action === '') invalid('action is required');
	if (!['SALE', 'AUTH', 'AUTH_REVERSAL'].includes(action as string)) {
		invalid(`action must be SALE, AUTH or AUTH_REVERSAL, got ${quote(action)}`);
	}
	if (cls === 'CAUTH' && action === 'AUTH_REVERSAL') {
		invalid('action AUTH_REVERSAL is not allowed for class CAUTH: tokenize with class ECOM');
	}
	const captureMethod = data.capture_method;
	if (captureMethod !== undefined && captureMethod !== 'AUTOMATIC' && captureMethod !== 'MANUAL') {
		invalid(`capture_method must be AUTOMATIC or MANUAL, got ${quote(captureMethod)}`);
	}
	let paymentToken = '';
	if (cls === 'CAUTH') {
		paymentToken = textField(data, 'payment_token', 'payment_token', { nonEmpty: true });
	} else if (data.payment_token !== undefined) {
		invalid('payment_token is only for class CAUTH; omit it for ECOM');
	}

	const customer = objectField(data, 'customer_details');
	const needsCustomer = cls === 'CAUTH' || action === 'AUTH_REVERSAL';
	const customerId = textField(customer, 'm_customer_id', 'customer_details.m_customer_id', {
		nonEmpty: needsCustomer,
	});
	textField(customer, 'name', 'customer_details.name', { required: true });
	textField(customer, 'email', 'customer_details.email', { required: true });
	textField(customer, 'mobile', 'customer_details.mobile', { check: digitsOnly });
	textField(customer, 'code', 'customer_details.code');

	const order = objectField(data, 'order_details');
	const mOrderId = textField(order, 'm_order_id', 'order_details.m_order_id');
	const amount = numberField(order, 'amount', 'order_details.amount', { min: 1, required: true });
	numberField(order, 'convenience_fee', 'order_details.convenience_fee', {
		min: 0,
		allowEmpty: true,
		required: true,
	});
	numberField(order, 'quantity', 'order_details.quantity', {
		min: 1,
		integer: true,
		allowEmpty: true,
		required: true,
	});
	const currency = textField(order, 'currency', 'order_details.currency', { nonEmpty: true });
	if (!CURRENCIES.includes(currency)) {
		invalid(`Unsupported currency ${quote(currency)}; supported: ${CURRENCIES.join(', ')}`, 422);
	}
	if (!fitsCurrency(amount as number, currency)) {
		invalid(`order_details.amount has more decimal places than ${currency} allows`);
	}
	textField(order, 'description', 'order_details.description', { required: true });
	textField(order, 'return_url', 'order_details.return_url');

	const billing = objectField(data, 'billing_details');
	for (const key of ['address_line1', 'address_line2', 'city', 'province', 'pin']) {
		textField(billing, key, `billing_details.${key}`, { required: true });
	}
	textField(billing, 'country', 'billing_details.country', { required: true, check: country });

	const shipping = objectField(data, 'shipping_details');
	for (const key of [
		'shipping_name',
		'shipping_email',
		'address_line1',
		'address_line2',
		'city',
		'province',
		'pin',
		'location_pin',
	]) {
		textField(shipping, key, `shipping_details.${key}`, { required: true });
	}
	textField(shipping, 'country', 'shipping_details.country', { required: true, check: country });
	textField(shipping, 'shipping_currency', 'shipping_details.shipping_currency', {
		required: true,
		check: currencyCode,
	});
	textField(shipping, 'shipping_code', 'shipping_details.shipping_code');
	textField(shipping, 'shipping_mobile', 'shipping_details.shipping_mobile', { check: digitsOnly });
	numberField(shipping, 'shipping_amount', 'shipping_details.shipping_amount', {
		min: 0,
		allowEmpty: true,
		required: true,
	});

	validateItems(data);

	const urls = objectField(data, 'urls');
	for (const key of ['success', 'cancel', 'failure']) {
		textField(urls, key, `urls.${key}`, { check: httpUrl });
	}
	textField(urls, 'webhook_url', 'urls.webhook_url', { check: webhookUrl });

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
