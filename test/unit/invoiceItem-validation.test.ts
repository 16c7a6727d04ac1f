import type { InvoiceItemInput } from '../../nodes/PaymentGateway/validation/invoiceItem';
import {
	validateDataId,
	validateInvoiceItem,
	validateItemListQuery,
} from '../../nodes/PaymentGateway/validation/invoiceItem';

describe('invoice item rules (seed: Invoice item, Limits)', () => {
	const valid: InvoiceItemInput = {
		item_name: 'Consulting hour',
		item_rate_per_unit: 150,
		item_category: 'Services',
		item_description: '',
	};
	const rulesOf = (change: Partial<InvoiceItemInput>) =>
		validateInvoiceItem({ ...valid, ...change }).map((v) => `${v.field}: ${v.rule}`);

	it.each([
		['a name of 1 character', { item_name: 'A' }],
		['a name of 50 characters', { item_name: 'n'.repeat(50) }],
		['a name of 50 characters outside the BMP', { item_name: '😀'.repeat(50) }],
		['the smallest rate above 0', { item_rate_per_unit: 0.01 }],
		['the highest rate', { item_rate_per_unit: 9999999 }],
		['a numeric text rate', { item_rate_per_unit: '12.50' }],
		['a category of 100 characters', { item_category: 'c'.repeat(100) }],
		['a description of 200 characters', { item_description: 'd'.repeat(200) }],
	] as Array<[string, Partial<InvoiceItemInput>]>)('accepts %s', (_, change) => {
		expect(rulesOf(change)).toEqual([]);
	});

	const RATE_RANGE = 'item_rate_per_unit: must be above 0 and at most 9999999';
	const PLAIN = 'item_rate_per_unit: must be a plain number (no currency symbol, commas or spaces)';
	it.each([
		['an empty name', { item_name: '' }, 'item_name: is required'],
		['a blank name', { item_name: '   ' }, 'item_name: is required'],
		['a name of 51 characters', { item_name: 'n'.repeat(51) }, 'item_name: must be 1-50 characters long'],
		['a rate of 0', { item_rate_per_unit: 0 }, RATE_RANGE],
		['a negative rate', { item_rate_per_unit: -5 }, RATE_RANGE],
		['a rate above the maximum', { item_rate_per_unit: 10000000 }, RATE_RANGE],
		['a rate text above the maximum', { item_rate_per_unit: '9999999.01' }, RATE_RANGE],
		['a rate with a symbol', { item_rate_per_unit: '$12' }, PLAIN],
		['a rate with commas', { item_rate_per_unit: '1,000' }, PLAIN],
		['no rate', { item_rate_per_unit: undefined }, PLAIN],
		['an empty category', { item_category: '' }, 'item_category: is required'],
		['a category of 101 characters', { item_category: 'c'.repeat(101) }, 'item_category: must be at most 100 characters long'],
		['a description of 201 characters', { item_description: 'd'.repeat(201) }, 'item_description: must be at most 200 characters long'],
	] as Array<[string, Partial<InvoiceItemInput>, string]>)('flags %s', (_, change, expected) => {
		expect(rulesOf(change)).toEqual([expected]);
	});

	it('names field, rule and value of every broken rule at once', () => {
		expect(validateInvoiceItem({ item_name: '', item_rate_per_unit: '0', item_category: '', item_description: '' })).toEqual([
			{ field: 'item_name', rule: 'is required', value: '' },
			{ field: 'item_rate_per_unit', rule: 'must be above 0 and at most 9999999', value: '0' },
			{ field: 'item_category', rule: 'is required', value: '' },
		]);
	});

	it('requires a data_id', () => {
		expect(validateDataId('tok_abc')).toEqual([]);
		expect(validateDataId(' ')).toEqual([{ field: 'data_id', rule: 'is required', value: ' ' }]);
	});
});

describe('invoice item list query rules (seed: Invoice items list, Limits)', () => {
	const rulesOf = (qs: Record<string, unknown>) => validateItemListQuery(qs).map((v) => `${v.field}: ${v.rule}`);

	it.each([
		[{ page: 1, perpage: 1 }],
		[{ page: 1000, perpage: 1000 }],
		[{ page: 3, perpage: 50, status: 'Active' }],
		[{ page: 3, perpage: 50, status: 'Deactivated' }],
	])('accepts %j', (qs) => {
		expect(rulesOf(qs)).toEqual([]);
	});

	it.each([
		[{ page: 0, perpage: 10 }, 'page: must be an integer from 1 to 1000'],
		[{ page: 1001, perpage: 10 }, 'page: must be an integer from 1 to 1000'],
		[{ page: 1.5, perpage: 10 }, 'page: must be an integer from 1 to 1000'],
		[{ page: 1, perpage: 0 }, 'perpage: must be an integer from 1 to 1000'],
		[{ page: 1, perpage: 1001 }, 'perpage: must be an integer from 1 to 1000'],
		[{ page: 1, perpage: 10, status: 'active' }, 'status: must be Active or Deactivated'],
		[{ page: 1, perpage: 10, status: 'Deleted' }, 'status: must be Active or Deactivated'],
	])('flags %j', (qs, expected) => {
		expect(rulesOf(qs)).toEqual([expected]);
	});
});
