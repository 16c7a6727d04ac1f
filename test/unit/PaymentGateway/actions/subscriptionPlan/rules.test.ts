import type { FieldValues } from '../../../../../nodes/PaymentGateway/fields/read';
import { fieldNames } from '../../../../../nodes/PaymentGateway/fields/read';
import { planTable } from '../../../../../nodes/PaymentGateway/actions/subscriptionPlan/fields';
import { todayIn } from '../../../../../nodes/PaymentGateway/helpers/dates';
import {
	isServiceDateTime,
	planRules,
	shapePlanBody,
	splitEmails,
	toServiceDateTime,
} from '../../../../../nodes/PaymentGateway/actions/subscriptionPlan/rules';

const TODAY = '2026-03-10';

/** A valid plan as the node reads it: values by parameter name, collections as objects. */
const valid = (): FieldValues => ({
	planName: 'Gold',
	frequency: 'monthly',
	interval: 1,
	currency: 'AED',
	installmentAmount: 100,
	unlimitedTerms: false,
	terms: 12,
	initialPaymentAmount: 100,
	finalPaymentAmount: 100,
	startDate: '2026-03-10 09:00',
	additionalFields: { discountTerm: 1, discountAmount: 50, expiryDate: '2027-03-10 09:00' },
	email: {
		customerEmails: 'a@example.com, b@example.com',
		customerEmailCc: 'boss@example.com',
		subject: 'Your plan',
		productDetails: 'Box of two',
	},
});

type Change = (plan: FieldValues) => void;
const more = (plan: FieldValues) => plan.additionalFields as FieldValues;
const email = (plan: FieldValues) => plan.email as FieldValues;
const nameOf = (path: string) => fieldNames(planTable, path);
const rulesOf = (change: Change) => {
	const plan = valid();
	change(plan);
	return planRules(plan, nameOf, TODAY, 'UTC').map(
		(v) => `${v.displayName} (${v.field}): ${v.rule}`,
	);
};
const emails = (n: number) => Array.from({ length: n }, (_, i) => `user${i}@example.com`).join(',');

describe('subscription plan rules across fields (seed: Subscription plan (create input))', () => {
	it.each<[string, Change]>([
		['the full example', () => {}],
		[
			'unlimited terms without a count',
			(p) => {
				p.unlimitedTerms = true;
				delete p.terms;
			},
		],
		[
			'no discount',
			(p) => {
				delete more(p).discountTerm;
				delete more(p).discountAmount;
			},
		],
		[
			'discount term 0 (none) without an amount',
			(p) => {
				more(p).discountTerm = 0;
				delete more(p).discountAmount;
			},
		],
		['a plan without email', (p) => (p.email = {})],
		[
			'40 recipients and 5 CC',
			(p) => {
				email(p).customerEmails = emails(40);
				email(p).customerEmailCc = emails(5);
			},
		],
	])('accepts %s', (_, change) => {
		expect(rulesOf(change)).toEqual([]);
	});

	it.each<[string, Change, string]>([
		[
			'fixed terms without a count',
			(p) => delete p.terms,
			'Number of Terms (terms.value): is required when terms.unlimited is no',
		],
		[
			'a discount term after the last',
			(p) => (more(p).discountTerm = 13),
			'Additional Fields > Discount Term (terms.discount_term): must be at most terms.value (12) when terms are not unlimited',
		],
		[
			'a discount term without an amount',
			(p) => delete more(p).discountAmount,
			'Additional Fields > Discount Amount (terms.discount_amount): is required when terms.discount_term is above 0',
		],
		[
			'a discount above the installment',
			(p) => (more(p).discountAmount = 101),
			'Additional Fields > Discount Amount (terms.discount_amount): must not be above installment_amount.value (100)',
		],
		[
			'an initial payment above the installment',
			(p) => (p.initialPaymentAmount = 500),
			'Initial Payment Amount (initial_payment_amount): must not be above installment_amount.value (100)',
		],
		[
			'a final payment above the installment',
			(p) => (p.finalPaymentAmount = 100.01),
			'Final Payment Amount (final_payment_amount): must not be above installment_amount.value (100)',
		],
		[
			'a start yesterday',
			(p) => (p.startDate = '2026-03-09 23:59'),
			'Start Date (start_date): must be today (2026-03-10) or later',
		],
		[
			'an expiry at the start',
			(p) => (more(p).expiryDate = p.startDate),
			'Additional Fields > Expiry Date (expiry_date): must be after start_date (2026-03-10 09:00)',
		],
		[
			'41 recipients',
			(p) => (email(p).customerEmails = emails(41)),
			'Email > Customer Emails (customer_emails): must list at most 40 addresses (got 41)',
		],
		[
			'6 CC',
			(p) => (email(p).customerEmailCc = emails(6)),
			'Email > CC Emails (customer_email_cc): must list at most 5 addresses (got 6)',
		],
		[
			'an invalid recipient',
			(p) => (email(p).customerEmails = 'a@example.com, <a@b.io>'),
			'Email > Customer Emails (customer_emails): must contain valid email addresses only',
		],
		[
			'recipients without a subject',
			(p) => delete email(p).subject,
			'Email > Subject (subject): is required when customer_emails is set',
		],
		[
			'CC without recipients',
			(p) => {
				delete email(p).customerEmails;
				delete email(p).subject;
			},
			'Email > CC Emails (customer_email_cc): must be empty when customer_emails is empty',
		],
		[
			'a subject without recipients',
			(p) => {
				delete email(p).customerEmails;
				delete email(p).customerEmailCc;
			},
			'Email > Subject (subject): must be empty when customer_emails is empty',
		],
	])('flags %s', (_, change, expected) => {
		expect(rulesOf(change)).toEqual([expected]);
	});

	it('shapes the body as the service wants it: fees 0, no discount term 0, no count when unlimited, addresses joined, dates in the zone', () => {
		const body = shapePlanBody(
			{
				terms: { unlimited: 'yes', value: 12, discount_term: 0 },
				start_date: '2026-03-10T05:30:00Z',
				customer_emails: ' a@example.com , ,b@example.com ',
			},
			'Asia/Dubai',
		);
		expect(body).toEqual({
			terms: { unlimited: 'yes' },
			start_date: '2026-03-10 09:30',
			customer_emails: 'a@example.com,b@example.com',
			shipping_fee: 0,
			convenience_fee: 0,
		});
	});

	it('names a parameter the table does not have as a defect of the node', () => {
		expect(() => nameOf('additionalFields.nope')).toThrow(
			'No parameter additionalFields.nope in the table',
		);
	});
});

describe('subscription plan dates', () => {
	it.each([
		[
			'the date picker value (wall time kept)',
			'2026-05-01T10:30:00',
			'Asia/Dubai',
			'2026-05-01 10:30',
		],
		[
			'an ISO text with Z, converted to the zone',
			'2026-05-01T10:30:00.000Z',
			'Asia/Dubai',
			'2026-05-01 14:30',
		],
		['an ISO text with an offset', '2026-05-01T23:30:00+04:00', 'UTC', '2026-05-01 19:30'],
		['an offset without colon', '2026-05-01T23:30:00+0400', 'UTC', '2026-05-01 19:30'],
		['a date only (midnight)', '2026-05-01', 'UTC', '2026-05-01 00:00'],
		['the service form', '2026-05-01 10:30', 'UTC', '2026-05-01 10:30'],
		['seconds dropped', '2026-05-01 10:30:59', 'UTC', '2026-05-01 10:30'],
		['a JS Date', new Date('2026-12-31T22:00:00Z'), 'Asia/Dubai', '2027-01-01 02:00'],
		[
			'a Luxon-like DateTime',
			{ toISO: () => '2026-05-01T08:00:00.000-05:00' },
			'UTC',
			'2026-05-01 13:00',
		],
		['a zone with daylight saving', '2026-07-01T12:00:00Z', 'Europe/Berlin', '2026-07-01 14:00'],
	] as Array<[string, unknown, string, string]>)('reads %s', (_, value, zone, expected) => {
		expect(toServiceDateTime(value, zone)).toBe(expected);
	});

	it.each([
		['01/05/2026 10:30'],
		['2026-02-30T10:00:00'],
		['tomorrow'],
		[''],
		[12345],
		[null],
		[new Date('x')],
	])('does not read %j', (value) => {
		expect(toServiceDateTime(value, 'UTC')).toBeUndefined();
	});

	it('knows the service form', () => {
		expect(isServiceDateTime('2026-05-01 10:30')).toBe(true);
		expect(isServiceDateTime('2026-05-01 24:00')).toBe(false);
		expect(isServiceDateTime('2026-05-01T10:30')).toBe(false);
	});

	it("says today's date in a time zone", () => {
		const instant = Date.parse('2026-03-09T22:30:00Z');
		expect(todayIn('UTC', instant)).toBe('2026-03-09');
		expect(todayIn('Asia/Dubai', instant)).toBe('2026-03-10');
	});

	it('splits comma-separated addresses, dropping blanks', () => {
		expect(splitEmails(' a@x.io , ,b@y.io,')).toEqual(['a@x.io', 'b@y.io']);
		expect(splitEmails('')).toEqual([]);
	});
});
