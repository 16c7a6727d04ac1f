import type { SubscriptionPlanInput } from '../../nodes/PaymentGateway/validation/subscription';
import { todayIn } from '../../nodes/PaymentGateway/helpers/dates';
import {
	isServiceDateTime,
	splitEmails,
	toServiceDateTime,
	validateSubscriptionPlan,
} from '../../nodes/PaymentGateway/validation/subscription';

const TODAY = '2026-03-10';

const valid = (): SubscriptionPlanInput => ({
	plan_name: 'Gold monthly',
	plan_description: 'Monthly box, two items. Cancel any time - no fee',
	billing_frequency: { frequency: 'monthly', interval: 1 },
	installment_amount: { currency: 'AED', value: 100 },
	terms: { unlimited: 'no', value: 12, discount_term: 1, discount_amount: 50 },
	initial_payment_amount: 100,
	final_payment_amount: 100,
	shipping_fee: 0,
	convenience_fee: 2.5,
	start_date: '2026-03-10 09:00',
	expiry_date: '2027-03-10 09:00',
	note: 'internal',
	customer_emails: 'a@example.com,b@example.com',
	customer_email_cc: 'boss@example.com',
	subject: 'Your plan',
	product_details: 'Box of two',
});

type Change = (plan: SubscriptionPlanInput) => void;
const rulesOf = (change: Change) => {
	const plan = valid();
	change(plan);
	return validateSubscriptionPlan(plan, TODAY).map((v) => `${v.field}: ${v.rule}`);
};
const emails = (n: number) => Array.from({ length: n }, (_, i) => `user${i}@example.com`).join(',');

describe('subscription plan rules (seed: Subscription plan (create input), Limits)', () => {
	it.each<[string, Change]>([
		['the full example', () => {}],
		['a plan name of 50 characters', (p) => (p.plan_name = 'n'.repeat(50))],
		['no description', (p) => delete p.plan_description],
		['a description of 250 allowed characters', (p) => (p.plan_description = 'a.b-c,1 '.repeat(31) + 'ab')],
		['a description with letters of another script', (p) => (p.plan_description = 'Café Ürün, 2 adet')],
		...(['daily', 'weekly', 'yearly'] as const).map(
			(frequency): [string, Change] => [`frequency ${frequency}`, (p) => (p.billing_frequency.frequency = frequency)],
		),
		['interval 2 (every other cycle)', (p) => (p.billing_frequency.interval = 2)],
		['an installment of exactly 1', (p) => {
			p.installment_amount.value = 1;
			p.initial_payment_amount = 1;
			p.final_payment_amount = 1;
			p.terms.discount_amount = 1;
		}],
		['amounts as numeric text', (p) => {
			p.installment_amount.value = '100.00';
			p.initial_payment_amount = '10';
		}],
		['every supported currency (OMR)', (p) => (p.installment_amount.currency = 'OMR')],
		['unlimited terms without a value', (p) => (p.terms = { unlimited: 'yes' })],
		['unlimited terms with any discount term', (p) => (p.terms = { unlimited: 'yes', discount_term: 500, discount_amount: 1 })],
		['1999 terms', (p) => (p.terms.value = 1999)],
		['1 term', (p) => (p.terms = { unlimited: 'no', value: 1 })],
		['a discount on the last term', (p) => (p.terms.discount_term = 12)],
		['a discount amount of 0', (p) => (p.terms.discount_amount = 0)],
		['a discount amount without a term', (p) => (p.terms = { unlimited: 'no', value: 3, discount_amount: 5 })],
		['initial and final equal to the installment', (p) => (p.initial_payment_amount = p.final_payment_amount = 100)],
		['fees of 0', (p) => (p.shipping_fee = p.convenience_fee = 0)],
		['a start later today', (p) => (p.start_date = `${TODAY} 23:59`)],
		['a start earlier today', (p) => (p.start_date = `${TODAY} 00:00`)],
		['no expiry', (p) => delete p.expiry_date],
		['an expiry one minute after the start', (p) => (p.expiry_date = '2026-03-10 09:01')],
		['a note of 250 characters', (p) => (p.note = 'n'.repeat(250))],
		['no email at all (four empty keys)', (p) => {
			p.customer_emails = '';
			p.customer_email_cc = '';
			p.subject = '';
			p.product_details = '';
		}],
		['product details without recipients', (p) => {
			p.customer_emails = p.customer_email_cc = p.subject = '';
		}],
		['40 recipients and 5 CC', (p) => {
			p.customer_emails = emails(40);
			p.customer_email_cc = emails(5);
		}],
		['a subject of 200 characters', (p) => (p.subject = 's'.repeat(200))],
		['product details of 200 characters', (p) => (p.product_details = 'p'.repeat(200))],
	])('accepts %s', (_, change) => {
		expect(rulesOf(change)).toEqual([]);
	});

	it.each<[string, Change, string]>([
		['an empty plan name', (p) => (p.plan_name = ''), 'plan_name: is required'],
		['a plan name of 51 characters', (p) => (p.plan_name = 'n'.repeat(51)), 'plan_name: must be at most 50 characters long'],
		['a description of 251 characters', (p) => (p.plan_description = 'd'.repeat(251)), 'plan_description: must be at most 250 characters long'],
		...['!', '&', '_', '/', "'", '\n'].map((char): [string, Change, string] => [
			`a description with ${JSON.stringify(char)}`,
			(p) => (p.plan_description = `Gold${char}plan`),
			'plan_description: may contain only letters, numbers, spaces, full stops, hyphens and commas',
		]),
		['frequency hourly', (p) => (p.billing_frequency.frequency = 'hourly'), 'billing_frequency.frequency: must be one of daily, weekly, monthly, yearly'],
		['frequency Monthly (case)', (p) => (p.billing_frequency.frequency = 'Monthly'), 'billing_frequency.frequency: must be one of daily, weekly, monthly, yearly'],
		['interval 0', (p) => (p.billing_frequency.interval = 0), 'billing_frequency.interval: must be a whole number of at least 1'],
		['interval 1.5', (p) => (p.billing_frequency.interval = 1.5), 'billing_frequency.interval: must be a whole number of at least 1'],
		['currency JPY', (p) => (p.installment_amount.currency = 'JPY'), 'installment_amount.currency: must be one of AED, USD, EUR, GBP, INR, SAR, QAR, KWD, BHD, OMR'],
		['an installment of 0.5', (p) => {
			p.installment_amount.value = 0.5;
			p.initial_payment_amount = p.final_payment_amount = 1;
			delete p.terms.discount_term;
			delete p.terms.discount_amount;
		}, 'installment_amount.value: must be at least 1'],
		['an installment with a symbol', (p) => (p.installment_amount.value = 'AED 100'), 'installment_amount.value: must be a plain number (no currency symbol, commas or spaces)'],
		['terms.unlimited maybe', (p) => (p.terms = { unlimited: 'maybe' }), 'terms.unlimited: must be yes or no'],
		['fixed terms without a value', (p) => (p.terms = { unlimited: 'no' }), 'terms.value: is required when terms.unlimited is no'],
		['0 terms', (p) => (p.terms = { unlimited: 'no', value: 0 }), 'terms.value: must be a whole number from 1 to 1999'],
		['2000 terms', (p) => (p.terms = { unlimited: 'no', value: 2000 }), 'terms.value: must be a whole number from 1 to 1999'],
		['unlimited terms with a value', (p) => (p.terms = { unlimited: 'yes', value: 12 }), 'terms.value: must be omitted when terms.unlimited is yes'],
		['a discount term after the last term', (p) => (p.terms.discount_term = 13), 'terms.discount_term: must be at most terms.value (12) when terms are not unlimited'],
		['a discount term of 0', (p) => (p.terms.discount_term = 0), 'terms.discount_term: must be a whole number of at least 1'],
		['a discount term without an amount', (p) => delete p.terms.discount_amount, 'terms.discount_amount: is required when terms.discount_term is above 0'],
		['a discount amount above the installment', (p) => (p.terms.discount_amount = 100.01), 'terms.discount_amount: must not be above installment_amount.value (100)'],
		['a negative discount amount', (p) => (p.terms.discount_amount = -1), 'terms.discount_amount: must be at least 0'],
		['an initial payment of 0', (p) => (p.initial_payment_amount = 0), 'initial_payment_amount: must be at least 1'],
		['an initial payment above the installment', (p) => (p.initial_payment_amount = 101), 'initial_payment_amount: must not be above installment_amount.value (100)'],
		['a final payment of 0.99', (p) => (p.final_payment_amount = 0.99), 'final_payment_amount: must be at least 1'],
		['a final payment above the installment', (p) => (p.final_payment_amount = '150'), 'final_payment_amount: must not be above installment_amount.value (100)'],
		['a negative shipping fee', (p) => (p.shipping_fee = -1), 'shipping_fee: must be at least 0'],
		['a convenience fee with a comma', (p) => (p.convenience_fee = '1,5'), 'convenience_fee: must be a plain number (no currency symbol, commas or spaces)'],
		['no start date', (p) => (p.start_date = ''), 'start_date: is required'],
		['a start date yesterday', (p) => (p.start_date = '2026-03-09 23:59'), 'start_date: must be today (2026-03-10) or later'],
		['a start date with seconds', (p) => (p.start_date = '2026-03-10 09:00:00'), 'start_date: must be a date and time (YYYY-MM-DD HH:mm)'],
		['a start date that does not exist', (p) => (p.start_date = '2026-02-30 09:00'), 'start_date: must be a date and time (YYYY-MM-DD HH:mm)'],
		['an expiry equal to the start', (p) => (p.expiry_date = '2026-03-10 09:00'), 'expiry_date: must be after start_date (2026-03-10 09:00)'],
		['an expiry before the start', (p) => (p.expiry_date = '2026-03-10 08:59'), 'expiry_date: must be after start_date (2026-03-10 09:00)'],
		['an expiry in another format', (p) => (p.expiry_date = '10-03-2027 09:00'), 'expiry_date: must be a date and time (YYYY-MM-DD HH:mm)'],
		['a note of 251 characters', (p) => (p.note = 'n'.repeat(251)), 'note: must be at most 250 characters long'],
		['41 recipients', (p) => (p.customer_emails = emails(41)), 'customer_emails: must list at most 40 addresses (got 41)'],
		['6 CC', (p) => (p.customer_email_cc = emails(6)), 'customer_email_cc: must list at most 5 addresses (got 6)'],
		['an invalid recipient', (p) => (p.customer_emails = 'a@example.com,not-an-email'), 'customer_emails: must contain valid email addresses only'],
		['an invalid CC', (p) => (p.customer_email_cc = 'boss@example'), 'customer_email_cc: must contain valid email addresses only'],
		['CC without recipients', (p) => {
			p.customer_emails = '';
			p.subject = '';
		}, 'customer_email_cc: must be empty when customer_emails is empty'],
		['a subject without recipients', (p) => {
			p.customer_emails = '';
			p.customer_email_cc = '';
		}, 'subject: must be empty when customer_emails is empty'],
		['recipients without a subject', (p) => (p.subject = ' '), 'subject: is required when customer_emails is set'],
		['a subject of 201 characters', (p) => (p.subject = 's'.repeat(201)), 'subject: must be at most 200 characters long'],
		['product details of 201 characters', (p) => (p.product_details = 'p'.repeat(201)), 'product_details: must be at most 200 characters long'],
	])('flags %s', (_, change, expected) => {
		expect(rulesOf(change)).toEqual([expected]);
	});

	it('names field, rule and value, every broken rule at once', () => {
		const plan = valid();
		plan.plan_name = '';
		plan.initial_payment_amount = 500;
		plan.customer_emails = '';
		expect(validateSubscriptionPlan(plan, TODAY)).toEqual([
			{ field: 'plan_name', rule: 'is required', value: '' },
			{ field: 'initial_payment_amount', rule: 'must not be above installment_amount.value (100)', value: 500 },
			{ field: 'customer_email_cc', rule: 'must be empty when customer_emails is empty', value: 'boss@example.com' },
			{ field: 'subject', rule: 'must be empty when customer_emails is empty', value: 'Your plan' },
		]);
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
