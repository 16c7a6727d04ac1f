import type { IExecuteFunctions } from 'n8n-workflow';

import {
	fieldNames,
	readTable,
	setPath,
	toWire,
} from '../../../../nodes/PaymentGateway/fields/read';
import type { FieldTable } from '../../../../nodes/PaymentGateway/fields/types';

/** A small table of every shape: top-level fields, a collection, a list. */
const TABLE: FieldTable = [
	{
		name: 'amount',
		displayName: 'Amount',
		type: 'number',
		wire: 'order.amount',
		required: true,
		min: 1,
		minorUnitsOf: 'currency',
	},
	{
		name: 'currency',
		displayName: 'Currency',
		type: 'currency',
		currencies: 'supported',
		wire: 'order.currency',
		required: true,
	},
	{
		group: 'collection',
		name: 'details',
		displayName: 'Details',
		fields: [
			{
				name: 'fee',
				displayName: 'Fee',
				type: 'number',
				wire: 'order.fee',
				min: 0,
				minorUnitsOf: 'currency',
			},
			{
				name: 'note',
				displayName: 'Note',
				type: 'text',
				wire: 'note',
				maxLength: 5,
				emptyAsBlank: true,
			},
		],
	},
	{
		group: 'list',
		name: 'lines',
		displayName: 'Line',
		entry: 'line',
		entryDisplayName: 'Line',
		buttonText: 'Add Line',
		label: 'lines',
		wire: 'lines',
		fields: [{ name: 'title', displayName: 'Title', type: 'text', wire: 'title', required: true }],
	},
];

const ctxWith = (parameters: Record<string, unknown>) =>
	({
		getNodeParameter: (name: string, _item: number, fallback: unknown) =>
			parameters[name] ?? fallback,
		getInputData: () => [{ json: {} }],
	}) as unknown as IExecuteFunctions;

const read = (parameters: Record<string, unknown>) => readTable(ctxWith(parameters), 0, TABLE);

describe('readTable', () => {
	it('types every value and builds the wire body at the declared paths', () => {
		const { values, violations } = read({
			amount: '10.5',
			currency: 'aed',
			details: { fee: 1, note: '' },
			lines: { line: [{ title: ' Mug ' }] },
		});
		expect(violations).toEqual([]);
		expect(values).toEqual({
			amount: 10.5,
			currency: 'AED',
			details: { fee: 1 },
			lines: [{ title: 'Mug' }],
		});
		expect(toWire(TABLE, values)).toEqual({
			order: { amount: 10.5, currency: 'AED', fee: 1 },
			note: '',
			lines: [{ title: 'Mug' }],
		});
	});

	it('names each broken rule as the service and as the panel name the field', () => {
		const { violations } = read({
			amount: 0,
			details: { note: 'too long' },
			lines: { line: [{ title: 'ok' }, { title: '' }] },
		});
		expect(violations).toEqual([
			{ field: 'order.amount', displayName: 'Amount', rule: 'must be at least 1', value: 0 },
			{ field: 'order.currency', displayName: 'Currency', rule: 'is required', value: '' },
			{
				field: 'note',
				displayName: 'Details > Note',
				rule: 'must be at most 5 characters',
				value: 'too long',
			},
			{ field: 'lines[1].title', displayName: 'Line 2 > Title', rule: 'is required', value: '' },
		]);
	});

	it('refuses a collection or a list of the wrong shape', () => {
		const { violations } = read({ amount: 5, currency: 'AED', details: 'x', lines: { line: 'y' } });
		expect(violations).toEqual([
			{ field: 'Details', rule: 'must be a set of fields', value: 'x' },
			{ field: 'lines', rule: 'must be a list of entries', value: 'y' },
		]);
	});

	it.each([
		['AED', 10.123, 'must have at most 2 decimal places in AED'],
		['KWD', 10.1234, 'must have at most 3 decimal places in KWD'],
	])(
		'refuses more decimals than %s has, in the amount and in the collection',
		(currency, amount, rule) => {
			const { violations } = read({ amount, currency, details: { fee: amount } });
			expect(violations).toEqual([
				{ field: 'order.amount', displayName: 'Amount', rule, value: amount },
				{ field: 'order.fee', displayName: 'Details > Fee', rule, value: amount },
			]);
		},
	);

	it('takes three decimals in KWD and two in AED', () => {
		expect(read({ amount: 10.125, currency: 'KWD' }).violations).toEqual([]);
		expect(read({ amount: 10.12, currency: 'AED' }).violations).toEqual([]);
	});
});

describe('readTable: whatever arrives for a collection, a list or a JSON field', () => {
	/** As n8n answers: a parameter that is set gives its value, null included; a missing one the fallback. */
	const given = (parameters: Record<string, unknown>) =>
		readTable(
			{
				getNodeParameter: (name: string, _item: number, fallback: unknown) =>
					name in parameters ? parameters[name] : fallback,
				getInputData: () => [{ json: {} }],
			} as unknown as IExecuteFunctions,
			0,
			[
				...TABLE,
				{
					group: 'collection',
					name: 'options',
					displayName: 'Options',
					fields: [{ name: 'more', displayName: 'More (JSON)', label: 'more', type: 'json' }],
				},
			],
		).violations;
	const valid = { amount: 5, currency: 'AED' };

	it.each([
		['text', 'Dubai'],
		['null', null],
		['a list', []],
		['a number', 7],
	])('refuses a collection given as %s, by name', (_, details) => {
		expect(given({ ...valid, details })).toEqual([
			{ field: 'Details', rule: 'must be a set of fields', value: details },
		]);
	});

	it.each([
		['text', 'x', 'must be a list of entries'],
		['an object', { title: 'x' }, 'must be a list of entries'],
	])('refuses list entries given as %s, by name', (_, line, rule) => {
		expect(given({ ...valid, lines: { line } })).toEqual([{ field: 'lines', rule, value: line }]);
	});

	it('refuses a list entry that is no object', () => {
		expect(given({ ...valid, lines: { line: ['Mug'] } })).toEqual([
			{ field: 'lines[0]', rule: 'must be an object', value: 'Mug' },
		]);
	});

	it('refuses a JSON field whose expression gave undefined; leaves a missing one out', () => {
		expect(given({ ...valid, options: { more: undefined } })).toEqual([
			{
				field: 'more',
				displayName: 'Options > More (JSON)',
				rule: 'must be JSON (the expression gave undefined)',
				value: undefined,
			},
		]);
		expect(given({ ...valid, options: {} })).toEqual([]);
	});
});

describe('fieldNames and setPath', () => {
	it('names a parameter by its path as readTable does', () => {
		expect(fieldNames(TABLE, 'amount')).toEqual({ field: 'order.amount', displayName: 'Amount' });
		expect(fieldNames(TABLE, 'details.fee')).toEqual({
			field: 'order.fee',
			displayName: 'Details > Fee',
		});
		expect(() => fieldNames(TABLE, 'details.nope')).toThrow(
			'No parameter details.nope in the table',
		);
	});

	it('creates the objects on the way, replacing a non-object', () => {
		const target: Record<string, unknown> = { a: 'text' };
		setPath(target as never, 'a.b.c', 1);
		expect(target).toEqual({ a: { b: { c: 1 } } });
	});
});
