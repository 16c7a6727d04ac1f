import type { IDataObject } from 'n8n-workflow';

import { todayIn } from '../../../../nodes/PaymentGateway/helpers/dates';
import {
	isServiceDateTime,
	planRules,
	splitEmails,
	toServiceDateTime,
} from '../../../../nodes/PaymentGateway/actions/subscriptionPlan/rules';

const TODAY = '2026-03-10';

/** A plan body as the field table builds it: every field already typed and checked on its own. */
const valid = (): IDataObject => ({
	plan_name: 'Gold monthly',
	billing_frequency: { frequency: 'monthly', interval: 1 },
	installment_amount: { currency: 'AED', value: 100 },
	terms: { unlimited: 'no', value: 12, discount_term: 1, discount_amount: 50 },
	initial_payment_amount: 100,
	final_payment_amount: 100,
	start_date: '2026-03-10 09:00',
	expiry_date: '2027-03-10 09:00',
	customer_emails: 'a@example.com, b@example.com',
	customer_email_cc: 'boss@example.com',
	subject: 'Your plan',
	product_details: 'Box of two',
});

type Change = (plan: IDataObject) => void;
const terms = (plan: IDataObject) => plan.terms as IDataObject;
const rulesOf = (change: Change) => {
	const plan = valid();
	change(plan);
	return planRules(plan, TODAY, 'UTC').map((v) => `${v.field}: ${v.rule}`);
};
const emails = (n: number) => Array.from({ length: n }, (_, i) => `user${i}@example.com`).join(',');

describe('subscription plan rules across fields (seed: Subscription plan (create input))', () => {
	it.each<[string, Change]>([
		['the full example', () => {}],
		['unlimited terms (the count is dropped)', (p) => (terms(p).unlimited = 'yes')],
		['no discount', (p) => {
			delete terms(p).discount_term;
			delete terms(p).discount_amount;
		}],
		['a plan without email', (p) => (p.customer_emails = p.customer_email_cc = p.subject = p.product_details = '')],
		['40 recipients and 5 CC', (p) => {
			p.customer_emails = emails(40);
			p.customer_email_cc = emails(5);
		}],
	])('accepts %s', (_, change) => {
		expect(rulesOf(change)).toEqual([]);
	});

	it.each<[string, Change, string]>([
		['fixed terms without a count', (p) => delete terms(p).value, 'terms.value: is required when terms.unlimited is no'],
		['a discount term after the last', (p) => (terms(p).discount_term = 13), 'terms.discount_term: must be at most terms.value (12) when terms are not unlimited'],
		['a discount term without an amount', (p) => delete terms(p).discount_amount, 'terms.discount_amount: is required when terms.discount_term is above 0'],
		['a discount above the installment', (p) => (terms(p).discount_amount = 101), 'terms.discount_amount: must not be above installment_amount.value (100)'],
		['an initial payment above the installment', (p) => (p.initial_payment_amount = 500), 'initial_payment_amount: must not be above installment_amount.value (100)'],
		['a final payment above the installment', (p) => (p.final_payment_amount = 100.01), 'final_payment_amount: must not be above installment_amount.value (100)'],
		['a start yesterday', (p) => (p.start_date = '2026-03-09 23:59'), 'start_date: must be today (2026-03-10) or later'],
		['an expiry at the start', (p) => (p.expiry_date = p.start_date), 'expiry_date: must be after start_date (2026-03-10 09:00)'],
		['41 recipients', (p) => (p.customer_emails = emails(41)), 'customer_emails: must list at most 40 addresses (got 41)'],
		['6 CC', (p) => (p.customer_email_cc = emails(6)), 'customer_email_cc: must list at most 5 addresses (got 6)'],
		['an invalid recipient', (p) => (p.customer_emails = 'a@example.com, <a@b.io>'), 'customer_emails: must contain valid email addresses only'],
		['recipients without a subject', (p) => (p.subject = ''), 'subject: is required when customer_emails is set'],
		['CC without recipients', (p) => (p.customer_emails = p.subject = ''), 'customer_email_cc: must be empty when customer_emails is empty'],
		['a subject without recipients', (p) => (p.customer_emails = p.customer_email_cc = ''), 'subject: must be empty when customer_emails is empty'],
	])('flags %s', (_, change, expected) => {
		expect(rulesOf(change)).toEqual([expected]);
	});

	it('adjusts the body as the service wants it: fees 0, no discount term 0, addresses joined, dates in the zone', () => {
		const plan = valid();
		terms(plan).discount_term = 0;
		delete terms(plan).discount_amount;
		plan.start_date = '2026-03-10T05:30:00Z';
		delete plan.expiry_date;
		expect(planRules(plan, TODAY, 'Asia/Dubai')).toEqual([]);
		expect(plan).toMatchObject({ shipping_fee: 0, convenience_fee: 0, customer_emails: 'a@example.com,b@example.com', start_date: '2026-03-10 09:30' });
		expect(terms(plan)).toEqual({ unlimited: 'no', value: 12 });
	});
});

describe('subscription plan dates', () => {
	it.each([
		['the date picker value (wall time kept)', '2026-05-01T10:30:00', 'Asia/Dubai', '2026-05-01 10:30'],
		['an ISO text with Z, converted to the zone', '2026-05-01T10:30:00.000Z', 'Asia/Dubai', '2026-05-01 14:30'],
		['an ISO text with an offset', '2026-05-01T23:30:00+04:00', 'UTC', '2026-05-01 19:30'],
		['an offset without colon', '2026-05-01T23:30:00+0400', 'UTC', '2026-05-01 19:30'],
		['a date only (midnight)', '2026-05-01', 'UTC', '2026-05-01 00:00'],
		['the service form', '2026-05-01 10:30', 'UTC', '2026-05-01 10:30'],
		['seconds dropped', '2026-05-01 10:30:59', 'UTC', '2026-05-01 10:30'],
		['a JS Date', new Date('2026-12-31T22:00:00Z'), 'Asia/Dubai', '2027-01-01 02:00'],
		['a Luxon-like DateTime', { toISO: () => '2026-05-01T08:00:00.000-05:00' }, 'UTC', '2026-05-01 13:00'],
		['a zone with daylight saving', '2026-07-01T12:00:00Z', 'Europe/Berlin', '2026-07-01 14:00'],
	] as Array<[string, unknown, string, string]>)('reads %s', (_, value, zone, expected) => {
		expect(toServiceDateTime(value, zone)).toBe(expected);
	});

	it.each([['01/05/2026 10:30'], ['2026-02-30T10:00:00'], ['tomorrow'], [''], [12345], [null], [new Date('x')]])(
		'does not read %j',
		(value) => {
			expect(toServiceDateTime(value, 'UTC')).toBeUndefined();
		},
	);

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
