import type { Violation } from './rules';
import { isBlank, SUPPORTED_CURRENCIES, toPlainNumber } from './rules';

import { wallTimeText } from '../helpers/dates';

/** Seed, Subscription plan (create input) and Limits. */
export const PLAN_NAME_MAX = 50;
export const PLAN_DESCRIPTION_MAX = 250;
export const PLAN_NOTE_MAX = 250;
export const PLAN_SUBJECT_MAX = 200;
export const PLAN_PRODUCT_DETAILS_MAX = 200;
export const PLAN_MAX_RECIPIENTS = 40;
export const PLAN_MAX_CC = 5;
export const PLAN_TERMS_MIN = 1;
export const PLAN_TERMS_MAX = 1999;
export const BILLING_FREQUENCIES = ['daily', 'weekly', 'monthly', 'yearly'] as const;

/** Letters, numbers, spaces, full stop, hyphen, comma (the seed's plan_description rule); letters of any script. */
const DESCRIPTION_CHARACTERS = /^[\p{L}\p{Nd} .,-]*$/u;
const SERVICE_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2})$/;
/** One address of a comma-separated list: local part, @, domain ending in a top-level domain of letters. */
const EMAIL = /^[^\s@,;<>]+@[^\s@,;<>]+\.[A-Za-z]{2,}$/;

/**
 * The body of POST /subscriptions/v1/add as it will be sent, except that amounts and counts hold
 * whatever the user gave (a number, or text from an expression) until they are checked.
 */
export interface SubscriptionPlanInput {
	plan_name: string;
	plan_description?: string;
	billing_frequency: { frequency: string; interval: unknown };
	installment_amount: { currency: string; value: unknown };
	terms: { unlimited: string; value?: unknown; discount_term?: unknown; discount_amount?: unknown };
	initial_payment_amount: unknown;
	final_payment_amount: unknown;
	shipping_fee: unknown;
	convenience_fee: unknown;
	/** YYYY-MM-DD HH:mm, or the value as given when it could not be read as a date and time. */
	start_date: unknown;
	expiry_date?: unknown;
	note?: string;
	customer_emails: string;
	customer_email_cc: string;
	subject: string;
	product_details: string;
}

const chars = (text: string) => [...text].length;

/** The addresses of a comma-separated list, blanks dropped. */
export const splitEmails = (text: string) =>
	text
		.split(',')
		.map((address) => address.trim())
		.filter((address) => address !== '');

export const isEmail = (text: string) => EMAIL.test(text);

/** A real calendar date and time in the service's form YYYY-MM-DD HH:mm. */
export function isServiceDateTime(value: unknown): value is string {
	const match = typeof value === 'string' ? SERVICE_DATE_TIME.exec(value) : null;
	if (!match) return false;
	const [year, month, day, hour, minute] = match.slice(1).map(Number);
	const date = new Date(Date.UTC(year, month - 1, day));
	return date.getUTCMonth() === month - 1 && date.getUTCDate() === day && hour <= 23 && minute <= 59;
}

const DATE_TIME_INPUT =
	/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * Reads an n8n date-time value as the YYYY-MM-DD HH:mm the service takes, in `timeZone` (the
 * workflow's): the date picker's text (wall time, kept as it is), an ISO 8601 text with an offset or
 * Z, a JS Date or a Luxon DateTime from an expression such as `{{ $now.plus(1, 'day') }}` (both
 * converted to the wall time in `timeZone`), or YYYY-MM-DD (midnight). Seconds are dropped.
 * Undefined when the value is none of these.
 */
export function toServiceDateTime(value: unknown, timeZone: string): string | undefined {
	if (value instanceof Date) {
		return Number.isNaN(value.getTime()) ? undefined : wallTimeText(value.getTime(), timeZone);
	}
	if (typeof value === 'object' && value !== null && typeof (value as { toISO?: unknown }).toISO === 'function') {
		const iso = (value as { toISO: () => string | null }).toISO();
		return iso ? toServiceDateTime(iso, timeZone) : undefined;
	}
	if (typeof value !== 'string') return undefined;
	const match = DATE_TIME_INPUT.exec(value.trim());
	if (!match) return undefined;
	const [, year, month, day, hour = '00', minute = '00', second, zone] = match;
	const text = `${year}-${month}-${day} ${hour}:${minute}`;
	if (!isServiceDateTime(text)) return undefined;
	if (!zone) return text;
	const offset = zone.toUpperCase() === 'Z' ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
	const instant = Date.parse(`${year}-${month}-${day}T${hour}:${minute}:${second ?? '00'}${offset}`);
	return Number.isNaN(instant) ? undefined : wallTimeText(instant, timeZone);
}

/**
 * The seed's rules for POST /subscriptions/v1/add, on the fields as the service names them.
 * `today` is YYYY-MM-DD in the workflow's time zone (start_date may not be before it).
 */
export function validateSubscriptionPlan(plan: SubscriptionPlanInput, today: string): Violation[] {
	const violations: Violation[] = [];
	const add = (field: string, rule: string, value: unknown) => violations.push({ field, rule, value });
	const maxLength = (field: string, value: string | undefined, max: number) => {
		if (value !== undefined && chars(value) > max) add(field, `must be at most ${max} characters long`, value);
	};
	/** A plain number of at least `min`, or undefined (and a violation). */
	const amount = (field: string, value: unknown, min: number): number | undefined => {
		const number = toPlainNumber(value);
		if (number === undefined) add(field, 'must be a plain number (no currency symbol, commas or spaces)', value);
		else if (number < min) add(field, `must be at least ${min}`, value);
		else return number;
		return undefined;
	};
	const integer = (field: string, value: unknown, min: number, max?: number): number | undefined => {
		const number = toPlainNumber(value);
		const ok = number !== undefined && Number.isInteger(number) && number >= min && (max === undefined || number <= max);
		if (ok) return number;
		add(field, max === undefined ? `must be a whole number of at least ${min}` : `must be a whole number from ${min} to ${max}`, value);
		return undefined;
	};

	// Plan
	if (plan.plan_name.trim() === '') add('plan_name', 'is required', plan.plan_name);
	else maxLength('plan_name', plan.plan_name, PLAN_NAME_MAX);
	const description = plan.plan_description;
	if (description !== undefined && description !== '') {
		maxLength('plan_description', description, PLAN_DESCRIPTION_MAX);
		if (!DESCRIPTION_CHARACTERS.test(description)) {
			add('plan_description', 'may contain only letters, numbers, spaces, full stops, hyphens and commas', description);
		}
	}

	// Billing
	const { frequency, interval } = plan.billing_frequency;
	if (!(BILLING_FREQUENCIES as readonly string[]).includes(frequency)) {
		add('billing_frequency.frequency', `must be one of ${BILLING_FREQUENCIES.join(', ')}`, frequency);
	}
	integer('billing_frequency.interval', interval, 1);

	const { currency } = plan.installment_amount;
	if (!SUPPORTED_CURRENCIES.includes(currency)) {
		add('installment_amount.currency', `must be one of ${SUPPORTED_CURRENCIES.join(', ')}`, currency);
	}
	const installment = amount('installment_amount.value', plan.installment_amount.value, 1);
	/** Amounts that may not exceed the installment (initial, final, discount). */
	const notAboveInstallment = (field: string, value: unknown, number: number | undefined) => {
		if (number !== undefined && installment !== undefined && number > installment) {
			add(field, `must not be above installment_amount.value (${installment})`, value);
		}
	};

	// Terms
	const { terms } = plan;
	let termCount: number | undefined;
	if (terms.unlimited === 'no') {
		if (isBlank(terms.value)) add('terms.value', 'is required when terms.unlimited is no', terms.value ?? '');
		else termCount = integer('terms.value', terms.value, PLAN_TERMS_MIN, PLAN_TERMS_MAX);
	} else if (terms.unlimited === 'yes') {
		if (terms.value !== undefined) add('terms.value', 'must be omitted when terms.unlimited is yes', terms.value);
	} else {
		add('terms.unlimited', 'must be yes or no', terms.unlimited);
	}
	let discountTerm: number | undefined;
	if (!isBlank(terms.discount_term)) {
		discountTerm = integer('terms.discount_term', terms.discount_term, 1);
		if (discountTerm !== undefined && termCount !== undefined && discountTerm > termCount) {
			add('terms.discount_term', `must be at most terms.value (${termCount}) when terms are not unlimited`, terms.discount_term);
		}
	}
	if (isBlank(terms.discount_amount)) {
		if (discountTerm !== undefined && discountTerm > 0) {
			add('terms.discount_amount', 'is required when terms.discount_term is above 0', terms.discount_amount ?? '');
		}
	} else {
		notAboveInstallment('terms.discount_amount', terms.discount_amount, amount('terms.discount_amount', terms.discount_amount, 0));
	}

	// Payments and fees
	for (const field of ['initial_payment_amount', 'final_payment_amount'] as const) {
		notAboveInstallment(field, plan[field], amount(field, plan[field], 1));
	}
	amount('shipping_fee', plan.shipping_fee, 0);
	amount('convenience_fee', plan.convenience_fee, 0);

	// Dates
	const start = plan.start_date;
	if (isBlank(start)) add('start_date', 'is required', start ?? '');
	else if (!isServiceDateTime(start)) add('start_date', 'must be a date and time (YYYY-MM-DD HH:mm)', start);
	else if (start.slice(0, 10) < today) add('start_date', `must be today (${today}) or later`, start);
	const expiry = plan.expiry_date;
	if (!isBlank(expiry)) {
		if (!isServiceDateTime(expiry)) add('expiry_date', 'must be a date and time (YYYY-MM-DD HH:mm)', expiry);
		else if (isServiceDateTime(start) && expiry <= start) add('expiry_date', `must be after start_date (${start})`, expiry);
	}
	maxLength('note', plan.note, PLAN_NOTE_MAX);

	// Email
	const recipients = splitEmails(plan.customer_emails);
	const cc = splitEmails(plan.customer_email_cc);
	const emailList = (field: string, list: string[], max: number, raw: string) => {
		if (list.length > max) add(field, `must list at most ${max} addresses (got ${list.length})`, raw);
		for (const address of list) {
			if (!isEmail(address)) add(field, 'must contain valid email addresses only', address);
		}
	};
	emailList('customer_emails', recipients, PLAN_MAX_RECIPIENTS, plan.customer_emails);
	emailList('customer_email_cc', cc, PLAN_MAX_CC, plan.customer_email_cc);
	const subject = plan.subject.trim();
	if (recipients.length === 0) {
		if (cc.length > 0) add('customer_email_cc', 'must be empty when customer_emails is empty', plan.customer_email_cc);
		if (subject !== '') add('subject', 'must be empty when customer_emails is empty', plan.subject);
	} else if (subject === '') {
		add('subject', 'is required when customer_emails is set', plan.subject);
	}
	maxLength('subject', plan.subject, PLAN_SUBJECT_MAX);
	maxLength('product_details', plan.product_details, PLAN_PRODUCT_DETAILS_MAX);
	return violations;
}
