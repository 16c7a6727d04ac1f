import type { INodeProperties } from 'n8n-workflow';

import { PaymentGateway } from '../../../../nodes/PaymentGateway/PaymentGateway.node';
import { fieldProperty, tableProperties } from '../../../../nodes/PaymentGateway/fields/properties';
import type { FieldTable } from '../../../../nodes/PaymentGateway/fields/types';

const TABLE: FieldTable = [
	{
		name: 'amount',
		displayName: 'Amount',
		type: 'number',
		required: true,
		min: 1,
		max: 100,
		decimals: 2,
		ui: { default: null, placeholder: 'e.g. 100.00' },
		uiVersion1: { default: 0 },
	},
	{
		name: 'mode',
		displayName: 'Mode',
		type: 'options',
		options: [
			{ name: 'Fast', value: 'fast' },
			{ name: 'Slow', value: 'slow' },
		],
	},
	{ name: 'flag', displayName: 'Flag', type: 'boolean' },
	{
		group: 'collection',
		name: 'more',
		displayName: 'More',
		fields: [{ name: 'note', displayName: 'Note', type: 'text', description: 'A note' }],
	},
	{
		group: 'list',
		name: 'lines',
		displayName: 'Lines',
		entry: 'line',
		entryDisplayName: 'Line',
		buttonText: 'Add Line',
		label: 'lines',
		required: true,
		fields: [{ name: 'title', displayName: 'Title', type: 'text' }],
	},
];

describe('tableProperties', () => {
	const properties = tableProperties(TABLE);

	it('gives the editor no limits or precision, so it never clamps or rounds what is typed', () => {
		const amount = properties.filter((p) => p.name === 'amount');
		for (const property of amount) {
			expect(property.typeOptions ?? {}).toEqual({});
			expect(property).toMatchObject({ type: 'number', required: true });
		}
	});

	it('shows version 1 its old default and newer versions the field as declared', () => {
		const [v1, v2] = properties.filter((p) => p.name === 'amount');
		expect(v1).toMatchObject({ default: 0, displayOptions: { show: { '@version': [1] } } });
		expect(v2).toMatchObject({
			default: null,
			placeholder: 'e.g. 100.00',
			displayOptions: { show: { '@version': [{ _cnd: { gte: 2 } }] } },
		});
	});

	it('defaults options to the first option and booleans to false', () => {
		expect(properties.find((p) => p.name === 'mode')).toMatchObject({
			type: 'options',
			default: 'fast',
		});
		expect(properties.find((p) => p.name === 'flag')).toMatchObject({
			type: 'boolean',
			default: false,
		});
	});

	it('makes a collection and a repeatable fixed collection', () => {
		expect(properties.find((p) => p.name === 'more')).toEqual({
			displayName: 'More',
			name: 'more',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [
				{ displayName: 'Note', name: 'note', type: 'string', default: '', description: 'A note' },
			],
		});
		expect(properties.find((p) => p.name === 'lines')).toMatchObject({
			type: 'fixedCollection',
			typeOptions: { multipleValues: true, multipleValueButtonText: 'Add Line' },
			required: true,
			options: [
				{
					displayName: 'Line',
					name: 'line',
					values: [{ name: 'title', type: 'string', default: '' }],
				},
			],
		});
	});
});

describe('every table of the node', () => {
	const all = (list: INodeProperties[]): INodeProperties[] =>
		list.flatMap((p) => [
			p,
			...all(
				((p.options ?? []) as INodeProperties[]).flatMap((o) =>
					'values' in o ? (o.values as INodeProperties[]) : 'type' in o ? [o] : [],
				),
			),
		]);

	it('gives no number field a minimum, maximum or precision in the editor', () => {
		const numbers = all(new PaymentGateway().description.properties).filter(
			(p) => p.type === 'number',
		);
		expect(numbers.length).toBeGreaterThan(10);
		const limited = numbers.filter((p) =>
			['minValue', 'maxValue', 'numberPrecision'].some((k) => k in (p.typeOptions ?? {})),
		);
		expect(limited.map((p) => p.name)).toEqual([]);
	});

	it('keeps a field property plain when nothing in ui overrides it', () => {
		expect(fieldProperty({ name: 'x', displayName: 'X', type: 'email' })).toEqual({
			displayName: 'X',
			name: 'x',
			type: 'string',
			default: '',
		});
	});
});
