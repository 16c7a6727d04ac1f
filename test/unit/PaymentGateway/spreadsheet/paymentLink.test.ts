import { paymentLinkSchema } from '../../../../nodes/PaymentGateway/spreadsheet/paymentLink';
import type { Row } from '../../../../nodes/PaymentGateway/spreadsheet/schema';
import { checkRows } from '../../../../nodes/PaymentGateway/spreadsheet/schema';

const schema = paymentLinkSchema('2026-11-21');
const link: Row = {
	Currency: 'AED',
	Amount: 250,
	'Shipping Fee': 0,
	'Convenience Fee': 5,
	'Qty Per Transaction': 1,
	'No Of Transactions': 3,
	'Total Collection': 'per_month',
	'Overall Qty Allowed': 100,
	'Qty Frequency': 'till_expiry',
	'Is Expiry': 1,
	'End Date': '2026-12-31',
	'Customer Name': 'Layla Haddad',
};

const broken = (values: Record<string, unknown>) =>
	checkRows(schema, [{ row: 2, item: 0, values }]).violations.map((v) => `${v.column}: ${v.rule}`);

describe('payment link columns', () => {
	it('accepts a complete row', () => expect(broken(link)).toEqual([]));

	it.each(['José García', 'Zoë Ægir', 'Ахмед Салем'])('accepts the customer name %s', (name) =>
		expect(broken({ ...link, 'Customer Name': name })).toEqual([]),
	);

	it.each<[string, Record<string, unknown>, string]>([
		['an amount above the maximum', { Amount: 100000000 }, 'Amount: must be at most 99999999'],
		[
			'a fractional quantity',
			{ 'Qty Per Transaction': 1.5 },
			'Qty Per Transaction: must be a whole number',
		],
		[
			'an unknown frequency',
			{ 'Total Collection': 'weekly' },
			'Total Collection: must be one of per_day, per_month, till_expiry',
		],
		[
			'an end date in the past',
			{ 'End Date': '2026-11-20' },
			'End Date: must be today (2026-11-21) or later',
		],
		[
			'an end date that does not exist (2031-02-30)',
			{ 'End Date': '2031-02-30' },
			'End Date: must be a calendar date YYYY-MM-DD that exists',
		],
		[
			'no end date with expiry on',
			{ 'End Date': undefined },
			'End Date: is required when Is Expiry is 1',
		],
		[
			'a one-word customer name',
			{ 'Customer Name': 'Layla' },
			'Customer Name: must have the form Firstname Lastname',
		],
		['a flag of 2', { 'Split Payment': '2' }, 'Split Payment: must be one of 0, 1'],
		[
			'a currency that is no ISO 4217 code',
			{ Currency: 'XYZ' },
			'Currency: must be an ISO 4217 currency code such as USD',
		],
		[
			'an email of 51 characters',
			{ 'Customer Email': `${'a'.repeat(39)}@example.com` },
			'Customer Email: must be at most 50 characters',
		],
	])('refuses %s', (_label, change, rule) => {
		expect(broken({ ...link, ...change })).toEqual([rule]);
	});

	it('takes numbers and flags as text from expressions and writes them typed', () => {
		const { rows, violations } = checkRows(schema, [
			{ row: 2, values: { ...link, Amount: '250.5', 'Split Payment': 1, Currency: 'aed' } },
		]);
		expect(violations).toEqual([]);
		expect(rows[0].values).toMatchObject({ Amount: 250.5, 'Split Payment': '1', Currency: 'AED' });
	});

	it('writes Tip as 0 unless Split Payment is 1', () => {
		expect(schema.adjust!({ ...link, Tip: '1' }).Tip).toBe('0');
		expect(schema.adjust!({ ...link, Tip: '1', 'Split Payment': '1' }).Tip).toBe('1');
	});
});
