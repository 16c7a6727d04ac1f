import { payoutSchema } from '../../../../nodes/PaymentGateway/spreadsheet/payout';
import type { Row } from '../../../../nodes/PaymentGateway/spreadsheet/schema';
import { checkRows } from '../../../../nodes/PaymentGateway/spreadsheet/schema';

const neft: Row = {
	'Reference No': 'REF-1',
	'Payment Mode': 'NEFT',
	Amount: 1500.5,
	Remark: 'November salary',
	'Beneficiary Account Number': '123456789012',
	'Beneficiary Account Type': 'SA',
	'Beneficiary IFSC': 'HDFC0001234',
	'Beneficiary Name': 'Ravi Patel',
	'Beneficiary Email': 'ravi@example.com',
};

const broken = (...values: Array<Record<string, unknown>>) =>
	checkRows(
		payoutSchema,
		values.map((v, i) => ({ row: i + 2, item: i, values: v })),
	).violations.map((v) => `${v.column}: ${v.rule}`);

describe('payout columns', () => {
	it('accepts a complete NEFT row, typed as the file holds it', () => {
		const { rows, violations } = checkRows(payoutSchema, [
			{
				row: 2,
				values: { ...neft, Amount: ' 1500.50 ', 'Beneficiary Account Number': 123456789012 },
			},
		]);
		expect(violations).toEqual([]);
		expect(rows[0].values).toEqual({ ...neft, Amount: 1500.5 });
	});

	it.each<[string, Record<string, unknown>, string]>([
		[
			'a 36-character reference',
			{ 'Reference No': 'R'.repeat(36) },
			'Reference No: must be at most 35 characters',
		],
		[
			'an unknown mode',
			{ 'Payment Mode': 'SWIFT' },
			'Payment Mode: must be one of NEFT, RTGS, IFT, IMPSP2A, IMPSP2P',
		],
		['a 3-decimal amount', { Amount: 10.005 }, 'Amount: must have at most 2 decimal places'],
		['a zero amount', { Amount: 0 }, 'Amount: must be above 0'],
		['an amount of 1e-7', { Amount: 1e-7 }, 'Amount: must have at most 2 decimal places'],
		['an amount of NaN', { Amount: NaN }, 'Amount: must be a finite number'],
		['an amount of Infinity', { Amount: Infinity }, 'Amount: must be a finite number'],
		['an amount as an object', { Amount: { value: 5 } }, 'Amount: must be a number, not a object'],
		[
			'a short account number',
			{ 'Beneficiary Account Number': '12345678' },
			'Beneficiary Account Number: must be 9 to 18 digits',
		],
		[
			'a bad IFSC',
			{ 'Beneficiary IFSC': 'HDFC1001234' },
			'Beneficiary IFSC: must have the form XXXX0XXXXXX',
		],
		[
			'digits in the name',
			{ 'Beneficiary Name': 'R2D2 Unit' },
			'Beneficiary Name: must be 3 to 35 letters and spaces',
		],
		[
			'a bad email',
			{ 'Beneficiary Email': 'ravi@' },
			'Beneficiary Email: must be a valid email address',
		],
		['a bad NRE flag', { 'Beneficiary NRE Flag': 'NR' }, 'Beneficiary NRE Flag: must be one of EX'],
		[
			'a missing IFSC for NEFT',
			{ 'Beneficiary IFSC': undefined },
			'Beneficiary IFSC: is required for NEFT',
		],
		['a missing remark', { Remark: undefined }, 'Remark: is required'],
		[
			'a remark on two lines',
			{ Remark: 'a\nb' },
			'Remark: must be one line without control characters',
		],
		[
			'NEFT above 50 crore without LEI',
			{ Amount: 500000000.01 },
			'Beneficiary LEI Code: is required for NEFT above 50 crore rupees (500000000)',
		],
	])('refuses %s, naming its own column only', (_label, change, rule) => {
		expect(broken({ ...neft, ...change })).toEqual([rule]);
	});

	it('reports a broken IFSC once, not again as missing for NEFT', () => {
		expect(broken({ ...neft, 'Beneficiary IFSC': ['x'] })).toEqual([
			'Beneficiary IFSC: must be text, not a list',
		]);
	});

	it('applies the per-mode requirements', () => {
		const base = { 'Reference No': 'R', Amount: 10, Remark: 'r', 'Beneficiary Name': 'Asha Rao' };
		expect(
			broken({ ...base, 'Payment Mode': 'IFT', 'Beneficiary Account Number': '123456789' }),
		).toEqual(['Beneficiary Branch: is required for IFT']);
		expect(
			broken({ ...base, 'Payment Mode': 'IMPSP2P', 'Beneficiary Mobile': '9876543210' }),
		).toEqual(['Beneficiary MMID: is required for IMPSP2P']);
		expect(
			broken({
				...base,
				'Payment Mode': 'IMPSP2P',
				'Beneficiary Mobile': '9876543210',
				'Beneficiary MMID': '1234567',
				'Beneficiary NRE Flag': 'EX',
			}),
		).toEqual(['Beneficiary NRE Flag: may only be set for NEFT or RTGS']);
	});

	it('refuses a duplicate reference, naming both rows, and more than 500 rows', () => {
		expect(broken(neft, neft)).toEqual(['Reference No: must be unique; row 2 has it too']);
		const many = Array.from({ length: 501 }, (_, i) => ({ ...neft, 'Reference No': `R${i}` }));
		expect(broken(...many)).toEqual(['(file): may have at most 500 data rows']);
	});
});
