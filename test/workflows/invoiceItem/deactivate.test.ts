import { addItem } from '../../sandbox/areas/invoiceItems/model';
import { requestsTo } from '../support';
import { ITEMS, itemSandbox } from './support';

const { box, runItem, bodyOf, expectRefused } = itemSandbox(30);

describe('invoiceItem.deactivate', () => {
	const tea = () =>
		addItem(box.sandbox.state, { item_name: 'Tea', item_rate_per_unit: 2, item_category: 'Food' });

	it('posts the data_id and reports success', async () => {
		const { data_id } = tea();

		const result = await runItem('deactivate', { dataId: data_id });
		expect(result.error).toBeUndefined();
		expect(bodyOf('deactivate')).toEqual({ data_id });
		expect(result.outputs.Gateway).toEqual([
			{
				json: { data_id, success: true, message: 'Item deactivated successfully' },
				pairedItem: { item: 0 },
			},
		]);
		expect(box.sandbox.state.invoiceItems.get(data_id)?.status).toBe('Deactivated');
	});

	it('an unknown data_id is the service 404', async () => {
		const result = await runItem('deactivate', { dataId: 'no-such-token' });
		expect(result.error?.constructor.name).toBe('NodeApiError');
		expect(result.error?.message).toContain('Item not found');
	});

	it.each([
		[
			'an empty data_id from an expression',
			{ dataId: '={{ "" }}' },
			'data_id is required (received "")',
		],
		[
			'a data_id from an object',
			{ dataId: '={{ { id: 1 } }}' },
			'data_id must be text, not a object',
		],
		[
			'a data_id of two lines',
			{ dataId: '={{ "a\\nb" }}' },
			'data_id must be one line without control characters',
		],
	])('refuses %s before sending', async (_, change, message) => {
		await expectRefused('deactivate', change, message);
	});

	it('is retried after HTTP 429: it ends in the same state however often it arrives', async () => {
		const { data_id } = tea();

		box.sandbox.faults.inject({ kind: 'status429', count: 1, retryAfter: 0 });
		const result = await runItem('deactivate', { dataId: data_id });
		expect(result.error).toBeUndefined();
		expect(requestsTo(box.sandbox, `${ITEMS}/deactivate`)).toHaveLength(2);
		expect(box.sandbox.state.invoiceItems.get(data_id)?.status).toBe('Deactivated');
	});
});
