import type { IDataObject } from 'n8n-workflow';

import type { FieldValues } from '../../fields/read';
import type { Violation } from '../../fields/types';
import { isEmail, toCalendarDate } from '../../fields/coerce';
import { wallTimeText } from '../../helpers/dates';

/** The limits of a subscription plan's create input. */
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
	return (
		match !== null && toCalendarDate(match[1]) !== undefined && +match[2] <= 23 && +match[3] <= 59
	);
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
	if (
		typeof value === 'object' &&
		value !== null &&
		typeof (value as { toISO?: unknown }).toISO === 'function'
	) {
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
	const instant = Date.parse(
		`${year}-${month}-${day}T${hour}:${minute}:${second ?? '00'}${offset}`,
	);
	return Number.isNaN(instant) ? undefined : wallTimeText(instant, timeZone);
}

/** The panel's name and the service's name of a parameter, found in the table by its path. */
export type NameOf = (path: string) => Pick<Violation, 'field' | 'displayName'>;

type Add = (path: string, rule: string, value: unknown) => void;

/** The plan's values by parameter name: top-level fields, then the collections'. */
interface PlanValues {
	top: FieldValues;
	more: FieldValues;
	email: FieldValues;
}

function termRules({ top, more }: PlanValues, add: Add): void {
	if (top.unlimitedTerms !== true && top.terms === undefined)
		add('terms', 'is required when terms.unlimited is no', '');
	const discountTerm = more.discountTerm as number | undefined;
	if (!discountTerm) return;
	if (top.unlimitedTerms !== true && typeof top.terms === 'number' && discountTerm > top.terms) {
		add(
			'additionalFields.discountTerm',
			`must be at most terms.value (${top.terms}) when terms are not unlimited`,
			discountTerm,
		);
	}
	if (more.discountAmount === undefined) {
		add('additionalFields.discountAmount', 'is required when terms.discount_term is above 0', '');
	}
}

function amountRules({ top, more }: PlanValues, add: Add): void {
	const installment = top.installmentAmount;
	const notAbove = (path: string, value: unknown) => {
		if (typeof value === 'number' && typeof installment === 'number' && value > installment) {
			add(path, `must not be above installment_amount.value (${installment})`, value);
		}
	};
	notAbove('initialPaymentAmount', top.initialPaymentAmount);
	notAbove('finalPaymentAmount', top.finalPaymentAmount);
	notAbove('additionalFields.discountAmount', more.discountAmount);
}

function dateRules({ top, more }: PlanValues, today: string, timeZone: string, add: Add): void {
	const start = toServiceDateTime(top.startDate, timeZone);
	if (start !== undefined && start.slice(0, 10) < today)
		add('startDate', `must be today (${today}) or later`, start);
	const expiry = toServiceDateTime(more.expiryDate, timeZone);
	if (expiry !== undefined && start !== undefined && expiry <= start) {
		add('additionalFields.expiryDate', `must be after start_date (${start})`, expiry);
	}
}

function emailRules({ email }: PlanValues, add: Add): void {
	const list = (name: string, max: number) => {
		const addresses = splitEmails(String(email[name] ?? ''));
		const path = `email.${name}`;
		if (addresses.length > max)
			add(path, `must list at most ${max} addresses (got ${addresses.length})`, email[name]);
		for (const address of addresses) {
			if (!isEmail(address)) add(path, 'must contain valid email addresses only', address);
		}
		return addresses.length;
	};
	const recipients = list('customerEmails', PLAN_MAX_RECIPIENTS);
	const cc = list('customerEmailCc', PLAN_MAX_CC);
	const subject = email.subject ?? '';
	if (recipients === 0) {
		if (cc > 0)
			add(
				'email.customerEmailCc',
				'must be empty when customer_emails is empty',
				email.customerEmailCc,
			);
		if (subject !== '')
			add('email.subject', 'must be empty when customer_emails is empty', subject);
	} else if (subject === '') {
		add('email.subject', 'is required when customer_emails is set', '');
	}
}

const planValues = (values: FieldValues): PlanValues => ({
	top: values,
	more: (values.additionalFields ?? {}) as FieldValues,
	email: (values.email ?? {}) as FieldValues,
});

/**
 * The service's rules across fields of POST /subscriptions/v1/add, on the values read from the field
 * table (each already typed and checked on its own), addressed by parameter path and named as the
 * panel and the service name them. `today` is YYYY-MM-DD in `timeZone` (the workflow's).
 */
export function planRules(
	values: FieldValues,
	nameOf: NameOf,
	today: string,
	timeZone: string,
): Violation[] {
	const violations: Violation[] = [];
	const add: Add = (path, rule, value) => violations.push({ ...nameOf(path), rule, value });
	const plan = planValues(values);
	termRules(plan, add);
	amountRules(plan, add);
	dateRules(plan, today, timeZone, add);
	emailRules(plan, add);
	return violations;
}

/**
 * The wire body as the service wants it: fees 0 when not set, no count with unlimited terms, no
 * discount term 0 (the service's terms are 1-based), addresses joined without blanks, dates as
 * YYYY-MM-DD HH:mm in `timeZone`.
 */
export function shapePlanBody(body: IDataObject, timeZone: string): IDataObject {
	body.shipping_fee ??= 0;
	body.convenience_fee ??= 0;
	const terms = (body.terms ?? {}) as IDataObject;
	if (terms.unlimited === 'yes') delete terms.value;
	if (terms.discount_term === 0) delete terms.discount_term;
	for (const field of ['start_date', 'expiry_date']) {
		if (body[field] !== undefined)
			body[field] = toServiceDateTime(body[field], timeZone) ?? body[field];
	}
	for (const field of ['customer_emails', 'customer_email_cc']) {
		if (typeof body[field] === 'string') body[field] = splitEmails(body[field] as string).join(',');
	}
	return body;
}
