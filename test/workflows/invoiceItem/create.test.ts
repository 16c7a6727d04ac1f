import { addItem } from '../../sandbox/areas/invoiceItems/model';
import { requestsTo } from '../support';
import { BAD_ITEM_VALUES, ITEMS, itemSandbox, VALID_ITEM } from './support';

const { box, runItem, bodyOf, expectRefused } = itemSandbox(11);

describe('invoiceItem.create', () => {
	it('trims the text and sends the rate given as numeric text as a JSON number', async () => {
		const created = await runItem('create', {
			itemName: '  Consulting hour ',
			ratePerUnit: '={{ "150.50" }}',
			category: 'Services',
			additionalFields: { description: 'One hour of consulting' },
		});
		expect(created.error).toBeUndefined();
		expect(bodyOf('add')).toEqual({
			item_name: 'Consulting hour',
			item_rate_per_unit: 150.5,
			item_category: 'Services',
			item_description: 'One hour of consulting',
		});
		expect(created.outputs.Gateway).toEqual([
			{
				json: {
					item_id: expect.any(String),
					data_id: expect.any(String),
					message: 'Item added successfully',
				},
				pairedItem: { item: 0 },
			},
		]);
		const dataId = created.outputs.Gateway[0].json.data_id as string;
		expect(box.sandbox.state.invoiceItems.get(dataId)).toMatchObject({
			item_name: 'Consulting hour',
			status: 'Active',
		});
		expect(requestsTo(box.sandbox, `${ITEMS}/add`)[0].headers['merchant-key']).toBe(
			box.sandbox.keys.invoice.merchantKey,
		);
	});

	it.each([
		['a name of 50 characters', { itemName: 'n'.repeat(50) }],
		['a name of 25 emoji (50 UTF-16 units)', { itemName: '😀'.repeat(25) }],
		['the smallest rate above 0', { ratePerUnit: 0.01 }],
		['a rate as padded numeric text', { ratePerUnit: '={{ " 12.5 " }}' }],
		['the highest rate', { ratePerUnit: 9999999 }],
		['a category of 100 characters', { category: 'c'.repeat(100) }],
		[
			'a description of 200 characters over two lines',
			{ additionalFields: { description: `${'d'.repeat(99)}\n${'d'.repeat(100)}` } },
		],
	])('accepts %s', async (_, change) => {
		const result = await runItem('create', { ...VALID_ITEM, ...change });
		expect(result.error).toBeUndefined();
		expect(requestsTo(box.sandbox, `${ITEMS}/add`)).toHaveLength(1);
	});

	it.each(BAD_ITEM_VALUES)(
		'refuses %s before sending, naming field, rule and value',
		async (_, change, message) => {
			await expectRefused('create', { ...VALID_ITEM, ...change }, message);
		},
	);

	it('names every broken rule at once', async () => {
		const result = await runItem(
			'create',
			{ itemName: '={{ "" }}', ratePerUnit: '={{ "0" }}', category: '={{ " " }}' },
			{ continueOnFail: true },
		);
		expect(result.outputs.Gateway[0].json.violations).toEqual([
			{ field: 'item_name', displayName: 'Item Name', rule: 'is required', value: '' },
			{
				field: 'item_rate_per_unit',
				displayName: 'Rate Per Unit',
				rule: 'must be above 0',
				value: '0',
			},
			{ field: 'item_category', displayName: 'Category', rule: 'is required', value: ' ' },
		]);
	});

	it('a duplicate name is refused by the service (NodeApiError), sent once', async () => {
		addItem(box.sandbox.state, {
			item_name: 'Gift wrap',
			item_rate_per_unit: 5,
			item_category: 'Extras',
		});
		const result = await runItem('create', {
			itemName: 'Gift wrap',
			ratePerUnit: 7,
			category: 'Extras',
		});
		expect(result.error?.constructor.name).toBe('NodeApiError');
		expect(result.error?.message).toContain('Item name already exists');
		expect((result.error as { httpCode?: string }).httpCode).toBe('400');
		expect(requestsTo(box.sandbox, `${ITEMS}/add`)).toHaveLength(1);
		expect(box.sandbox.state.invoiceItems.size).toBe(1);
	});

	it('is not retried after HTTP 500', async () => {
		box.sandbox.faults.inject({ kind: 'status500', count: 3 });
		const result = await runItem('create', { itemName: 'Tea', ratePerUnit: 2, category: 'Food' });
		expect(result.error?.constructor.name).toBe('NodeApiError');
		expect(requestsTo(box.sandbox, `${ITEMS}/add`)).toHaveLength(1);
	});

	it('under Continue On Fail pairs every result with its input item while the others go on', async () => {
		const result = await runItem(
			'create',
			{ itemName: '={{ $json.name }}', ratePerUnit: '={{ $json.rate }}', category: 'Goods' },
			{
				continueOnFail: true,
				items: [
					{ name: 'Pen', rate: 1.2 },
					{ name: 'Pencil', rate: 0 },
					{ name: 'Pen', rate: 3 },
					{ name: 'Paper', rate: '4' },
				],
			},
		);
		expect(result.error).toBeUndefined();
		const out = result.outputs.Gateway;
		expect(out.map((i) => i.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
			{ item: 3 },
		]);
		expect(out[0].json).toMatchObject({
			data_id: expect.any(String),
			message: 'Item added successfully',
		});
		expect(out[1].json).toMatchObject({
			violations: [{ field: 'item_rate_per_unit', rule: 'must be above 0', value: 0 }],
		});
		expect(out[2].json).toMatchObject({ code: '400', httpCode: 400 });
		expect(out[2].json.error).toContain('Item name already exists');
		expect(out[3].json).toMatchObject({ data_id: expect.any(String) });
		expect(bodyOf('add', 2)).toMatchObject({ item_rate_per_unit: 4 });
		expect(requestsTo(box.sandbox, `${ITEMS}/add`)).toHaveLength(3);
	});
});
