import { addItem } from '../../sandbox/areas/invoiceItems/model';
import { requestsTo } from '../support';
import { ITEMS, itemSandbox } from './support';

const { box, runItem, expectRefused } = itemSandbox(14);

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

const seed = (count: number) => {
	for (let i = 0; i < count; i++) {
		addItem(box.sandbox.state, {
			item_name: `Item ${i}`,
			item_rate_per_unit: i + 1,
			item_category: 'Bulk',
		});
	}
};
const pages = () => requestsTo(box.sandbox, `${ITEMS}/list`).map((r) => r.query);

describe('invoiceItem.getMany: filters and output', () => {
	it('lists only the items of the status asked for, each with ISO copies of its dates', async () => {
		const gone = addItem(box.sandbox.state, {
			item_name: 'Old',
			item_rate_per_unit: 1,
			item_category: 'Misc',
		});
		box.sandbox.state.invoiceItems.get(gone.data_id)!.status = 'Deactivated';
		addItem(box.sandbox.state, {
			item_name: 'Still active',
			item_rate_per_unit: 1,
			item_category: 'Misc',
		});

		const deactivated = await runItem('getMany', {
			returnAll: true,
			filters: { status: 'Deactivated' },
		});
		expect(deactivated.error).toBeUndefined();
		expect(pages()).toEqual([{ perpage: '1000', page: '1', status: 'Deactivated' }]);
		expect(deactivated.outputs.Gateway).toHaveLength(1);
		const [listed] = deactivated.outputs.Gateway;
		expect(listed.pairedItem).toEqual({ item: 0 });
		expect(listed.json).toMatchObject({
			data_id: gone.data_id,
			item_name: 'Old',
			status: 'Deactivated',
			created_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
			created_date_iso: expect.stringMatching(ISO),
			last_modified_date_iso: expect.stringMatching(ISO),
		});
		const { created_date, created_date_iso } = listed.json as Record<string, string>;
		expect(created_date_iso).toBe(`${created_date.replace(' ', 'T')}Z`);

		const active = await runItem('getMany', {
			returnAll: true,
			filters: { status: '={{ "active" }}' },
		});
		expect(active.outputs.Gateway.map((i) => i.json.item_name)).toEqual(['Still active']);
		expect(pages()[1]).toMatchObject({ status: 'Active' });
	});

	it('takes Return All "false" from an expression as false', async () => {
		seed(12);
		const result = await runItem('getMany', { returnAll: '={{ "false" }}', limit: 5 });
		expect(result.outputs.Gateway).toHaveLength(5);
		expect(pages()).toEqual([{ perpage: '5', page: '1' }]);
	});

	it.each([
		['a limit of 0', { returnAll: false, limit: 0 }, 'limit must be at least 1 (received 0)'],
		[
			'a limit above a million',
			{ returnAll: false, limit: 1000001 },
			'limit must be at most 1000000',
		],
		[
			'a limit as words',
			{ returnAll: false, limit: '={{ "ten" }}' },
			'limit must be a plain number',
		],
		[
			'Return All as a word',
			{ returnAll: '={{ "maybe" }}' },
			'Return All must be true or false (received "maybe")',
		],
		[
			'a status from an expression',
			{ returnAll: true, filters: { status: '={{ "Deleted" }}' } },
			'Filters > Status must be one of Active, Deactivated (received "Deleted")',
		],
		[
			'a status from an object',
			{ returnAll: true, filters: { status: '={{ { s: 1 } }}' } },
			'Filters > Status must be text, not a object',
		],
	])('refuses %s before sending', async (_, parameters, message) => {
		await expectRefused('getMany', parameters, message);
	});
});

describe('invoiceItem.getMany: pages', () => {
	it('Return All walks pages of 1000 until total_records, newest first, numbered across pages', async () => {
		seed(2345);
		const result = await runItem('getMany', { returnAll: true });
		expect(result.error).toBeUndefined();
		expect(pages()).toEqual([
			{ perpage: '1000', page: '1' },
			{ perpage: '1000', page: '2' },
			{ perpage: '1000', page: '3' },
		]);
		const out = result.outputs.Gateway;
		expect(out).toHaveLength(2345);
		expect(new Set(out.map((i) => i.json.data_id)).size).toBe(2345);
		expect(out[0].json).toMatchObject({ item_no: '1', item_name: 'Item 2344' });
		expect(out[1000].json).toMatchObject({
			item_no: '1001',
			created_date_iso: expect.stringMatching(ISO),
		});
		expect(out.every((i) => (i.pairedItem as { item: number }).item === 0)).toBe(true);
	});

	it('stops on total_records when the last page is full', async () => {
		seed(2000);
		const result = await runItem('getMany', { returnAll: true });
		expect(result.outputs.Gateway).toHaveLength(2000);
		expect(pages()).toHaveLength(2);
	});

	it('Limit asks for one page of that size', async () => {
		seed(30);
		const result = await runItem('getMany', { returnAll: false, limit: 7 });
		expect(pages()).toEqual([{ perpage: '7', page: '1' }]);
		expect(result.outputs.Gateway.map((i) => i.json.item_name)).toEqual(
			Array.from({ length: 7 }, (_, i) => `Item ${29 - i}`),
		);
	});

	it('a Limit above 1000 walks pages of 1000 and cuts at the limit', async () => {
		seed(1600);
		const result = await runItem('getMany', { returnAll: false, limit: 1500 });
		expect(pages()).toEqual([
			{ perpage: '1000', page: '1' },
			{ perpage: '1000', page: '2' },
		]);
		expect(result.outputs.Gateway).toHaveLength(1500);
		expect(result.outputs.Gateway[1499].json).toMatchObject({ item_no: '1500' });
	});

	it('an empty list is no items', async () => {
		const result = await runItem('getMany', { returnAll: true });
		expect(result.error).toBeUndefined();
		expect(result.outputs.Gateway ?? []).toEqual([]);
	});

	it('pairs each input item with its own list', async () => {
		seed(3);
		const result = await runItem(
			'getMany',
			{ returnAll: false, limit: '={{ $json.n }}' },
			{ items: [{ n: 1 }, { n: 2 }] },
		);
		expect(result.outputs.Gateway.map((i) => i.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 1 },
		]);
	});
});
