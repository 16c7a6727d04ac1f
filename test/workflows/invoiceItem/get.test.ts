import { addItem } from '../../sandbox/areas/invoiceItems/model';
import { requestsTo } from '../support';
import { ITEMS, itemSandbox } from './support';

const { box, runItem, expectRefused } = itemSandbox(13);

describe('invoiceItem.get', () => {
	it('asks for the item by its data_id (the token) as a query parameter', async () => {
		const item = addItem(box.sandbox.state, {
			item_name: 'Tea',
			item_rate_per_unit: 2.5,
			item_category: 'Food',
			item_description: 'Green',
		});
		const got = await runItem('get', { dataId: ` ${item.data_id} ` });
		expect(got.error).toBeUndefined();
		expect(requestsTo(box.sandbox, `${ITEMS}/details`)[0].query).toEqual({ data_id: item.data_id });
		expect(got.outputs.Gateway).toEqual([
			{
				json: {
					item_id: item.item_id,
					data_id: item.data_id,
					item_name: 'Tea',
					item_rate: 2.5,
					item_category: 'Food',
					item_description: 'Green',
					submerchant_name: expect.any(String),
					status: 'Active',
				},
				pairedItem: { item: 0 },
			},
		]);
	});

	it('an unknown data_id is the service 404', async () => {
		const gone = await runItem('get', { dataId: 'no-such-token' });
		expect(gone.error?.constructor.name).toBe('NodeApiError');
		expect(gone.error?.message).toContain('Item not found');
		expect((gone.error as { httpCode?: string }).httpCode).toBe('404');
	});

	it.each([
		['a blank data_id', { dataId: ' ' }, 'data_id is required'],
		['a data_id from a list', { dataId: '={{ ["a"] }}' }, 'data_id must be text, not a list'],
		[
			'a data_id with a lone surrogate',
			{ dataId: '={{ "a\\uDC00" }}' },
			'data_id must not contain a broken Unicode character',
		],
	])('refuses %s before sending', async (_, change, message) => {
		await expectRefused('get', change, message);
	});

	it('is retried after HTTP 500 (a read)', async () => {
		const { data_id } = addItem(box.sandbox.state, {
			item_name: 'Tea',
			item_rate_per_unit: 2,
			item_category: 'Food',
		});
		box.sandbox.faults.inject({ kind: 'status500', count: 1 });
		const result = await runItem('get', { dataId: data_id });
		expect(result.error).toBeUndefined();
		expect(requestsTo(box.sandbox, `${ITEMS}/details`)).toHaveLength(2);
	});
});
