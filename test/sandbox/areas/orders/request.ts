import { HttpError, quote } from '../../core/http';
import { fitsCurrency, plainNumber } from '../payments/model';
import { ORDER_CREATE } from './rules';
import { orList, ruleAt, textFits, type WireRule } from '../../rules/types';
import type {
	KeyedValue,
	OrderAction,
	OrderClass,
	SandboxState,
	SplitRecipient,
} from '../../core/state';

/** Order create request validation (spec: Order create request), by the rules of ORDER_CREATE. */

const KEYED_NAMES = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
const SPLIT_FLAG = '|SPLIT_PAYMENT';
const SPLIT_RULE = /^\|([A-Za-z0-9_-]+),([PF]),(\d+(?:\.\d+)?)$/;
const RULES = ORDER_CREATE.fields;
type Obj = Record<string, unknown>;

const isObject = (value: unknown): value is Obj =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

export const invalid = (message: string, status = 400): never => {
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
export interface ValidOrder {
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

/** order_details: its fields, then the currency list (422) and the amount's decimals in it. */
function orderDetails(order: Obj) {
	checkObject(order, 'order_details');
	const mOrderId = textField(order, 'm_order_id', 'order_details.m_order_id');
	const amount = numberField(order, 'amount', 'order_details.amount') as number;
	const currency = order.currency as string;
	const supported = RULES['order_details.currency'].oneOf ?? [];
	if (!supported.includes(currency)) {
		invalid(`Unsupported currency ${quote(currency)}; supported: ${supported.join(', ')}`, 422);
	}
	if (!fitsCurrency(amount, currency)) {
		invalid(`order_details.amount has more decimal places than ${currency} allows`);
	}
	return { mOrderId, amount, currency };
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

	const { mOrderId, amount, currency } = orderDetails(objectField(data, 'order_details'));

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
		amount,
		currency,
		split,
		parameters: parameters ?? [],
		customData: customData ?? [],
	};
}
