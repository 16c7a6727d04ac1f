import type { IDataObject } from 'n8n-workflow';

import type { Violation } from '../../fields/types';
import { isEmail, toCalendarDate } from '../../fields/coerce';
import { wallTimeText } from '../../helpers/dates';

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

const SERVICE_DATE_TIME = /^(\d{4}-\d{2}-\d{2}) (\d{2}):(\d{2})$/;

/** The addresses of a comma-separated list, blanks dropped. */
export const splitEmails = (text: string) =>
	text
		.split(',')
		.map((address) => address.trim())
		.filter((address) => address !== '');

/** A real calendar date and time in the service's form YYYY-MM-DD HH:mm. */
export function isServiceDateTime(value: unknown): value is string {
	const match = typeof value === 'string' ? SERVICE_DATE_TIME.exec(value) : null;
	return match !== null && toCalendarDate(match[1]) !== undefined && +match[2] <= 23 && +match[3] <= 59;
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

type Add = (field: string, rule: string, value: unknown) => void;

/** Terms: a count when they are fixed, none when unlimited; the discounted term within the count. */
function termRules(terms: IDataObject, add: Add): void {
	if (terms.unlimited === 'yes') delete terms.value;
	else if (terms.value === undefined) add('terms.value', 'is required when terms.unlimited is no', '');
	// 0 means no discounted term (the seed's terms are 1-based): then the key is not sent.
	if (terms.discount_term === 0) delete terms.discount_term;
	const discountTerm = terms.discount_term as number | undefined;
	if (discountTerm !== undefined && typeof terms.value === 'number' && discountTerm > terms.value) {
		add('terms.discount_term', `must be at most terms.value (${terms.value}) when terms are not unlimited`, discountTerm);
	}
	if (discountTerm !== undefined && terms.discount_amount === undefined) {
		add('terms.discount_amount', 'is required when terms.discount_term is above 0', '');
	}
}

function emailRules(body: IDataObject, add: Add): void {
	const list = (field: string, max: number) => {
		const addresses = splitEmails(String(body[field] ?? ''));
		if (addresses.length > max) add(field, `must list at most ${max} addresses (got ${addresses.length})`, body[field]);
		for (const address of addresses) {
			if (!isEmail(address)) add(field, 'must contain valid email addresses only', address);
		}
		body[field] = addresses.join(',');
		return addresses.length;
	};
	const recipients = list('customer_emails', PLAN_MAX_RECIPIENTS);
	const cc = list('customer_email_cc', PLAN_MAX_CC);
	if (recipients === 0) {
		if (cc > 0) add('customer_email_cc', 'must be empty when customer_emails is empty', body.customer_email_cc);
		if (body.subject !== '') add('subject', 'must be empty when customer_emails is empty', body.subject);
	} else if (body.subject === '') {
		add('subject', 'is required when customer_emails is set', '');
	}
}

/**
 * The seed's rules across fields of POST /subscriptions/v1/add, on the body built from the field
 * table (each field already typed and checked on its own). Dates are turned into the service's
 * YYYY-MM-DD HH:mm in `timeZone`; `today` is YYYY-MM-DD there (start_date may not be before it).
 * Adjusts the body as the service wants it (fees 0 when not set, no discount term 0).
 */
export function planRules(body: IDataObject, today: string, timeZone: string): Violation[] {
	const violations: Violation[] = [];
	const add: Add = (field, rule, value) => violations.push({ field, rule, value });
	body.shipping_fee ??= 0;
	body.convenience_fee ??= 0;
	const terms = (body.terms ?? {}) as IDataObject;
	termRules(terms, add);

	const installment = (body.installment_amount as IDataObject | undefined)?.value;
	const notAbove = (field: string, value: unknown) => {
		if (typeof value === 'number' && typeof installment === 'number' && value > installment) {
			add(field, `must not be above installment_amount.value (${installment})`, value);
		}
	};
	notAbove('initial_payment_amount', body.initial_payment_amount);
	notAbove('final_payment_amount', body.final_payment_amount);
	notAbove('terms.discount_amount', terms.discount_amount);

	for (const field of ['start_date', 'expiry_date']) {
		if (body[field] !== undefined) body[field] = toServiceDateTime(body[field], timeZone) ?? body[field];
	}
	const start = body.start_date;
	if (isServiceDateTime(start) && start.slice(0, 10) < today) add('start_date', `must be today (${today}) or later`, start);
	const expiry = body.expiry_date;
	if (isServiceDateTime(expiry) && isServiceDateTime(start) && expiry <= start) {
		add('expiry_date', `must be after start_date (${start})`, expiry);
	}
	emailRules(body, add);
	return violations;
}
