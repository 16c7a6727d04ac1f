import { randomBytes } from 'node:crypto';

import { CURRENCIES } from '../../core/generate';
import { HttpError, quote } from '../../core/http';
import { qrLikePng } from '../../core/png';
import { EMAIL, PLAN_DATE_TIME, SUBSCRIPTION_ADD } from './rules';
import { ruleAt, textFits } from '../../rules/types';
import type { SandboxState, SubscriptionPlanRecord } from '../../core/state';

const RULES = SUBSCRIPTION_ADD.fields;
const rule = (path: string) => ruleAt(RULES, path);
const maxLength = (path: string) => rule(path).maxLength ?? Infinity;
const min = (path: string) => rule(path).min ?? -Infinity;

/**
 * Required keys in table order, each object before its fields; terms.value only counts when
 * terms.unlimited is "no" (checked in validatePlan).
 */
const REQUIRED = Object.entries(RULES)
	.filter(([path, r]) => r.required || path === 'terms.value')
	.flatMap(([path]) => (path.includes('.') ? [path.split('.')[0], path] : [path]))
	.filter((path, i, all) => all.indexOf(path) === i);

export const FREQUENCIES = rule('billing_frequency.frequency').oneOf as readonly string[];
/** Currencies enabled on the sandbox merchant account for subscriptions. */
export const PLAN_CURRENCIES = CURRENCIES;
export const MAX_RECIPIENTS = rule('customer_emails').maxItems as number;
export const MAX_CC = rule('customer_email_cc').maxItems as number;
export { EMAIL };
const DATE_TIME = PLAN_DATE_TIME;

const invalid = (message: string): never => {
	throw new HttpError(400, message);
};

function valueAt(body: Record<string, unknown>, path: string): unknown {
	let value: unknown = body;
	for (const key of path.split('.')) {
		const isObject = typeof value === 'object' && value !== null;
		value = isObject ? (value as Record<string, unknown>)[key] : undefined;
	}
	return value;
}

const absent = (value: unknown) => value === undefined || value === null;

function object(body: Record<string, unknown>, name: string): Record<string, unknown> {
	const value = body[name];
	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		return invalid(`${name} must be an object`);
	}
	return value as Record<string, unknown>;
}

function string(path: string, value: unknown, max: number): string {
	if (typeof value !== 'string') return invalid(`${path} must be a string, got ${quote(value)}`);
	if (value.length > max) invalid(`${path} must be at most ${max} characters, got ${value.length}`);
	return value;
}

/** Amounts and counts must be JSON numbers: quoted numbers are refused by name. */
function number(path: string, value: unknown, min: number, integer = false): number {
	if (typeof value === 'string') {
		invalid(`${path} must be a JSON number, not a quoted string, got ${quote(value)}`);
	}
	if (typeof value !== 'number' || !Number.isFinite(value)) {
		invalid(`${path} must be a number, got ${quote(JSON.stringify(value))}`);
	}
	const n = value as number;
	if (integer && !Number.isInteger(n)) invalid(`${path} must be a whole number, got ${n}`);
	if (n < min) invalid(`${path} must be at least ${min}, got ${n}`);
	return n;
}

/** Minutes since the epoch of a valid YYYY-MM-DD HH:mm (read as UTC), else 400. */
function dateTime(path: string, value: unknown): { minutes: number; day: string } {
	const found = typeof value === 'string' ? DATE_TIME.exec(value) : null;
	const [y, mo, d, h, mi] = (found ?? []).slice(1).map(Number);
	const time = Date.UTC(y, mo - 1, d, h, mi);
	const date = new Date(time);
	const valid =
		found !== null &&
		date.getUTCFullYear() === y &&
		date.getUTCMonth() === mo - 1 &&
		date.getUTCDate() === d &&
		h < 24 &&
		mi < 60;
	if (!valid) invalid(`${path} must be a date and time YYYY-MM-DD HH:mm, got ${quote(value)}`);
	return { minutes: time / 60_000, day: (value as string).slice(0, 10) };
}

/** Addresses of a comma-separated list ('' = none); each must look like an email. */
function emails(path: string, value: unknown, max: number): string[] {
	const list = string(path, value, Infinity).trim();
	if (list === '') return [];
	const addresses = list.split(',').map((a) => a.trim());
	for (const address of addresses) {
		if (!rule(path).pattern?.test(address))
			invalid(`${path} has an invalid email address ${quote(address)}`);
	}
	if (addresses.length > max) {
		invalid(`${path} may list at most ${max} addresses, got ${addresses.length}`);
	}
	return addresses;
}

const today = (now: number) => new Date(now).toISOString().slice(0, 10);

/** Checks a create body against every rule of the spec's table; throws HttpError(400). */
export function validatePlan(input: unknown, now = Date.now()): Record<string, unknown> {
	if (typeof input !== 'object' || input === null || Array.isArray(input)) {
		return invalid('Request body must be a JSON object');
	}
	const plan = input as Record<string, unknown>;
	for (const field of REQUIRED) {
		if (field === 'terms.value' && valueAt(plan, 'terms.unlimited') !== 'no') continue;
		// Empty strings are allowed (the email keys must be sent empty to skip email).
		if (absent(valueAt(plan, field))) invalid(`${field} is required`);
	}

	const name = string('plan_name', plan.plan_name, maxLength('plan_name'));
	if (name.trim() === '') invalid('plan_name is required');
	if (!absent(plan.plan_description)) {
		const path = 'plan_description';
		const description = string(path, plan.plan_description, maxLength(path));
		if (!textFits(rule(path), description)) {
			invalid(`${path} ${rule(path).says}, got ${quote(description)}`);
		}
	}

	const billing = object(plan, 'billing_frequency');
	if (!FREQUENCIES.includes(billing.frequency as string)) {
		const allowed = FREQUENCIES.join(', ');
		const got = quote(billing.frequency);
		invalid(`billing_frequency.frequency must be one of ${allowed}, got ${got}`);
	}
	number('billing_frequency.interval', billing.interval, min('billing_frequency.interval'), true);

	const installment = object(plan, 'installment_amount');
	const currency = installment.currency;
	if (
		typeof currency !== 'string' ||
		!rule('installment_amount.currency').pattern?.test(currency)
	) {
		invalid(`installment_amount.currency must be a 3-letter ISO code, got ${quote(currency)}`);
	}
	if (!PLAN_CURRENCIES.includes(currency as string)) {
		invalid(
			`installment_amount.currency ${quote(currency)} is not enabled on the merchant account; ` +
				`enabled: ${PLAN_CURRENCIES.join(', ')}`,
		);
	}
	const value = number(
		'installment_amount.value',
		installment.value,
		min('installment_amount.value'),
	);
	const notAboveInstallment = (path: string, amount: number) => {
		if (amount > value) {
			invalid(`${path} must not be above installment_amount.value (${value}), got ${amount}`);
		}
	};

	const terms = object(plan, 'terms');
	if (!rule('terms.unlimited').oneOf?.includes(terms.unlimited as string)) {
		invalid(`terms.unlimited must be yes or no, got ${quote(terms.unlimited)}`);
	}
	const fixed = terms.unlimited === 'no';
	let termCount = Infinity;
	if (fixed) {
		termCount = number('terms.value', terms.value, min('terms.value'), true);
		const most = rule('terms.value').max as number;
		if (termCount > most) invalid(`terms.value must be at most ${most}, got ${termCount}`);
	} else if ('value' in terms) {
		invalid(`terms.value must be omitted when terms.unlimited is yes, got ${quote(terms.value)}`);
	}
	if (!absent(terms.discount_term)) {
		const term = number(
			'terms.discount_term',
			terms.discount_term,
			min('terms.discount_term'),
			true,
		);
		if (term > termCount) {
			invalid(`terms.discount_term must not be above terms.value (${termCount}), got ${term}`);
		}
		if (absent(terms.discount_amount)) {
			invalid('terms.discount_amount is required when terms.discount_term is above 0');
		}
	}
	if (!absent(terms.discount_amount)) {
		notAboveInstallment(
			'terms.discount_amount',
			number('terms.discount_amount', terms.discount_amount, min('terms.discount_amount')),
		);
	}

	for (const path of ['initial_payment_amount', 'final_payment_amount']) {
		notAboveInstallment(path, number(path, plan[path], min(path)));
	}
	number('shipping_fee', plan.shipping_fee, min('shipping_fee'));
	number('convenience_fee', plan.convenience_fee, min('convenience_fee'));

	const start = dateTime('start_date', plan.start_date);
	if (start.day < today(now)) {
		const got = quote(plan.start_date);
		invalid(`start_date must be today (${today(now)}, UTC) or later, got ${got}`);
	}
	if (!absent(plan.expiry_date) && plan.expiry_date !== '') {
		const expiry = dateTime('expiry_date', plan.expiry_date);
		if (expiry.minutes <= start.minutes) {
			const got = quote(plan.expiry_date);
			invalid(`expiry_date must be after start_date (${plan.start_date as string}), got ${got}`);
		}
	}
	if (!absent(plan.note)) string('note', plan.note, maxLength('note'));

	const recipients = emails('customer_emails', plan.customer_emails, MAX_RECIPIENTS);
	const cc = emails('customer_email_cc', plan.customer_email_cc, MAX_CC);
	const subject = string('subject', plan.subject, maxLength('subject'));
	string('product_details', plan.product_details, maxLength('product_details'));
	if (recipients.length === 0 && cc.length > 0) {
		invalid('customer_email_cc needs customer_emails: set recipients or send "" for both');
	}
	if (recipients.length === 0 && subject.trim() !== '') {
		invalid('subject needs customer_emails: set recipients or send "" for both');
	}
	if (recipients.length > 0 && subject.trim() === '') {
		invalid('subject is required when customer_emails is set');
	}
	return plan;
}

/** The uniqueness key: name (any case) with frequency, currency and installment amount. */
function planKey(plan: Record<string, any>): string {
	return JSON.stringify([
		String(plan.plan_name).trim().toLowerCase(),
		plan.billing_frequency.frequency,
		plan.installment_amount.currency,
		plan.installment_amount.value,
	]);
}

/** Validates, checks uniqueness and stores the plan with its link and QR code. */
export function createPlan(
	state: SandboxState,
	input: unknown,
	now = Date.now(),
): SubscriptionPlanRecord {
	const plan = validatePlan(input, now) as Record<string, any>;
	const key = planKey(plan);
	for (const other of state.subscriptionPlans.values()) {
		if (planKey(other.request) === key) {
			const { billing_frequency: billing, installment_amount: amount } = plan;
			invalid(
				`A plan named ${quote(plan.plan_name)} already exists for ${billing.frequency} ` +
					`billing at ${amount.currency} ${amount.value}`,
			);
		}
	}
	const dataId = randomBytes(18).toString('base64url');
	const link = `${state.checkoutUrl}/subscribe/${dataId}`;
	const record: SubscriptionPlanRecord = {
		data_id: dataId,
		plan_id: String(state.nextSequence('subscriptionPlan')),
		link,
		qr_code: qrLikePng(link).toString('base64'),
		request: structuredClone(plan),
		createdAt: now,
	};
	state.subscriptionPlans.set(dataId, record);
	return record;
}
