import { addItem } from '../../sandbox/areas/invoiceItems/model';
import { BAD_ITEM_VALUES, itemSandbox, VALID_ITEM } from './support';

const { box, runItem, bodyOf, expectRefused } = itemSandbox(12);

describe('invoiceItem.update', () => {
	const mug = () =>
		addItem(box.sandbox.state, {
			item_name: 'Mug',
			item_rate_per_unit: 9,
			item_category: 'Goods',
			item_description: 'Ceramic',
		});

	it('sends every required field again with the data_id', async () => {
		const { data_id } = mug();
		const updated = await runItem('update', {
			dataId: data_id,
			itemName: 'Mug (large)',
			ratePerUnit: '={{ 12 }}',
			category: 'Kitchen',
		});
		expect(updated.error).toBeUndefined();
		expect(bodyOf('update')).toEqual({
			data_id,
			item_name: 'Mug (large)',
			item_rate_per_unit: 12,
			item_category: 'Kitchen',
		});
		expect(updated.outputs.Gateway).toEqual([
			{
				json: { data_id, success: true, message: 'Item updated successfully' },
				pairedItem: { item: 0 },
			},
		]);
		expect(box.sandbox.state.invoiceItems.get(data_id)).toMatchObject({
			item_name: 'Mug (large)',
			item_rate: 12,
			item_description: 'Ceramic',
		});
	});

	it('sends the description only when given', async () => {
		const { data_id } = mug();
		await runItem('update', {
			dataId: data_id,
			itemName: 'Mug',
			ratePerUnit: 10,
			category: 'Goods',
			additionalFields: { description: 'Stoneware' },
		});
		expect(bodyOf('update')).toMatchObject({ item_description: 'Stoneware' });
		expect(box.sandbox.state.invoiceItems.get(data_id)?.item_description).toBe('Stoneware');
	});

	it.each([
		['no data_id', { dataId: '={{ $json.missing }}' }, 'data_id is required'],
		[
			'a data_id from an object',
			{ dataId: '={{ { id: 1 } }}' },
			'data_id must be text, not a object',
		],
		...BAD_ITEM_VALUES.map(([why, change, message]): [string, object, string] => [
			why,
			{ dataId: 'tok', ...change },
			message,
		]),
	])('refuses %s before sending', async (_, change, message) => {
		await expectRefused('update', { dataId: 'tok', ...VALID_ITEM, ...change }, message);
	});

	it('is retried after HTTP 500: the same update gives the same item', async () => {
		const { data_id } = mug();
		box.sandbox.faults.inject({ kind: 'status500', count: 1 });
		const result = await runItem('update', { dataId: data_id, ...VALID_ITEM });
		expect(result.error).toBeUndefined();
		expect(box.sandbox.requests).toHaveLength(2);
		expect(box.sandbox.state.invoiceItems.get(data_id)?.item_name).toBe('Widget');
	});
});
