import CryptoJS from 'crypto-js';

import { generateRequestId, payoutChecksum } from '../../nodes/PaymentGateway/actions/payout/bulkCreate.operation';
import { paymentLinkSchema } from '../../nodes/PaymentGateway/spreadsheet/paymentLink';
import { payoutSchema } from '../../nodes/PaymentGateway/spreadsheet/payout';
import type { Row, SourcedRow } from '../../nodes/PaymentGateway/spreadsheet/schema';
import { normaliseCell, validateRows } from '../../nodes/PaymentGateway/spreadsheet/schema';
import { buildXlsx, readXlsx } from '../../nodes/PaymentGateway/spreadsheet/xlsx';
import { earliestToday } from '../../nodes/PaymentGateway/helpers/dates';

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

const rows = (...values: Row[]): SourcedRow[] => values.map((v, i) => ({ row: i + 2, item: i, values: v }));
const broken = (schema = payoutSchema, ...values: Row[]) =>
	validateRows(schema, rows(...values)).map((v) => `${v.column}: ${v.rule}`);

describe('payout rows', () => {
	it('accepts a complete NEFT row', () => expect(broken(payoutSchema, neft)).toEqual([]));

	it.each<[string, Row, string]>([
		['a 36-character reference', { 'Reference No': 'R'.repeat(36) }, 'Reference No: must be at most 35 characters'],
		['an unknown mode', { 'Payment Mode': 'SWIFT' }, 'Payment Mode: must be one of NEFT, RTGS, IFT, IMPSP2A, IMPSP2P'],
		['a 3-decimal amount', { Amount: 10.005 }, 'Amount: must have at most 2 decimal places'],
		['a zero amount', { Amount: 0 }, 'Amount: must be a number above 0'],
		['a short account number', { 'Beneficiary Account Number': '12345678' }, 'Beneficiary Account Number: must be 9 to 18 digits'],
		['a bad IFSC', { 'Beneficiary IFSC': 'HDFC1001234' }, 'Beneficiary IFSC: must have the form XXXX0XXXXXX'],
		['digits in the name', { 'Beneficiary Name': 'R2D2 Unit' }, 'Beneficiary Name: must be 3 to 35 letters and spaces'],
		['a bad email', { 'Beneficiary Email': 'ravi@' }, 'Beneficiary Email: must be a valid email address'],
		['a bad NRE flag', { 'Beneficiary NRE Flag': 'NR' }, 'Beneficiary NRE Flag: must be one of EX'],
		['a missing IFSC for NEFT', { 'Beneficiary IFSC': undefined }, 'Beneficiary IFSC: is required for NEFT'],
		['a missing remark', { Remark: undefined }, 'Remark: is required'],
		['NEFT above 50 crore without LEI', { Amount: 500000000.01 }, 'Beneficiary LEI Code: is required for NEFT above 50 crore rupees (500000000)'],
	])('refuses %s', (_label, change, rule) => {
		expect(broken(payoutSchema, { ...neft, ...change })).toEqual([rule]);
	});

	it('applies the per-mode requirements', () => {
		const base = { 'Reference No': 'R', Amount: 10, Remark: 'r', 'Beneficiary Name': 'Asha Rao' };
		expect(broken(payoutSchema, { ...base, 'Payment Mode': 'IFT', 'Beneficiary Account Number': '123456789' })).toEqual([
			'Beneficiary Branch: is required for IFT',
		]);
		expect(broken(payoutSchema, { ...base, 'Payment Mode': 'IMPSP2P', 'Beneficiary Mobile': '9876543210' })).toEqual([
			'Beneficiary MMID: is required for IMPSP2P',
		]);
		expect(
			broken(payoutSchema, { ...base, 'Payment Mode': 'IMPSP2P', 'Beneficiary Mobile': '9876543210', 'Beneficiary MMID': '1234567', 'Beneficiary NRE Flag': 'EX' }),
		).toEqual(['Beneficiary NRE Flag: may only be set for NEFT or RTGS']);
	});

	it('refuses a duplicate reference, naming both rows, and more than 500 rows', () => {
		expect(broken(payoutSchema, neft, neft)).toEqual(['Reference No: must be unique; row 2 has it too']);
		const many = Array.from({ length: 501 }, (_, i) => ({ ...neft, 'Reference No': `R${i}` }));
		expect(broken(payoutSchema, ...many)).toEqual(['(file): may have at most 500 data rows']);
	});
});

describe('payment link rows', () => {
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

	it('accepts a complete row', () => expect(broken(schema, link)).toEqual([]));

	it.each<[string, Row, string]>([
		['an amount above the maximum', { Amount: 100000000 }, 'Amount: must be from 1 to 99999999'],
		['a fractional quantity', { 'Qty Per Transaction': 1.5 }, 'Qty Per Transaction: must be a whole number'],
		['an unknown frequency', { 'Total Collection': 'weekly' }, 'Total Collection: must be one of per_day, per_month, till_expiry'],
		['an end date in the past', { 'End Date': '2026-11-20' }, 'End Date: must be today (2026-11-21) or later'],
		['no end date with expiry on', { 'End Date': undefined }, 'End Date: is required when Is Expiry is 1'],
		['a one-word customer name', { 'Customer Name': 'Layla' }, 'Customer Name: must have the form Firstname Lastname'],
		['a flag of 2', { 'Split Payment': '2' }, 'Split Payment: must be one of 0, 1'],
	])('refuses %s', (_label, change, rule) => {
		expect(broken(schema, { ...link, ...change })).toEqual([rule]);
	});

	it('writes Tip as 0 unless Split Payment is 1', () => {
		expect(schema.adjust!({ ...link, Tip: '1' }).Tip).toBe('0');
		expect(schema.adjust!({ ...link, Tip: '1', 'Split Payment': '1' }).Tip).toBe('1');
	});
});

describe('xlsx files and checksums', () => {
	it('reads back what it wrote, header first, values typed', async () => {
		const headers = payoutSchema.columns.map((c) => c.header);
		const file = await buildXlsx('Payouts', headers, [headers.map((h) => neft[h])]);
		const sheet = await readXlsx(file);
		expect(sheet.headers).toEqual(headers);
		expect(sheet.rows).toHaveLength(1);
		const back = Object.fromEntries(payoutSchema.columns.map((c, i) => [c.header, normaliseCell(c.kind, sheet.rows[0].values[i])]));
		expect(back).toEqual(Object.fromEntries(headers.map((h) => [h, neft[h]])));
	});

	it('computes the checksum crypto-js computes for request_id|callback_url|remark', () => {
		const expected = CryptoJS.SHA256('BATCH-7|https://hooks.example.com/p|Nov run').toString(CryptoJS.enc.Hex);
		expect(payoutChecksum('BATCH-7', 'https://hooks.example.com/p', 'Nov run')).toBe(expected);
		expect(payoutChecksum('BATCH-7', '', '')).toBe(CryptoJS.SHA256('BATCH-7||').toString(CryptoJS.enc.Hex));
	});

	it('generates request IDs of at most 30 characters that differ', () => {
		const a = generateRequestId(new Date('2026-11-21T10:11:12Z'));
		expect(a).toMatch(/^n8n-20261121101112-[0-9a-f]{6}$/);
		expect(a.length).toBeLessThanOrEqual(30);
		expect(generateRequestId()).not.toBe(generateRequestId());
	});
});

describe('today for "today or later"', () => {
	it('takes the later of the workflow zone and UTC', () => {
		const lateEvening = new Date('2026-11-21T22:30:00Z');
		expect(earliestToday('Asia/Dubai', lateEvening.getTime())).toBe('2026-11-22');
		expect(earliestToday('America/New_York', lateEvening.getTime())).toBe('2026-11-21');
		expect(earliestToday('America/New_York', Date.parse('2026-11-22T02:00:00Z'))).toBe('2026-11-22');
	});
});
