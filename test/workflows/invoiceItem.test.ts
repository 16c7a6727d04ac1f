import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Sandbox } from '../sandbox';
import { startSandbox } from '../sandbox';
import { addItem } from '../sandbox/invoiceItems';
import { requestsTo, runGateway } from './support';

const ITEMS = '/invoice/v1/items';

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ seed: 11 });
});
afterAll(async () => await sandbox.stop());
beforeEach(() => {
	sandbox.faults.clear();
	sandbox.clearRequests();
	sandbox.state.invoiceItems.clear();
});

const runItem = (
	operation: string,
	parameters: IDataObject,
	extra: { items?: object[]; continueOnFail?: boolean } = {},
) =>
	runGateway(sandbox, {
		...extra,
		credentialType: 'paymentGatewayInvoiceApi',
		parameters: { resource: 'invoiceItem', operation, ...(parameters as INodeParameters) },
	});

const bodyOf = (path: string, n = 0) =>
	JSON.parse(requestsTo(sandbox, `${ITEMS}/${path}`)[n].body.toString('utf8')) as IDataObject;

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

describe('invoiceItem: the full lifecycle through all seven operations', () => {
	it('create → get → update → deactivate → getMany (Deactivated) → activate → delete → get fails', async () => {
		// Create (the rate as numeric text from an expression, sent as a JSON number).
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
		const [createdItem] = created.outputs.Gateway;
		expect(createdItem).toEqual({
			json: { item_id: expect.any(String), data_id: expect.any(String), message: 'Item added successfully' },
			pairedItem: { item: 0 },
		});
		const dataId = createdItem.json.data_id as string;
		const itemId = createdItem.json.item_id as string;
		expect(requestsTo(sandbox, `${ITEMS}/add`)[0].headers['merchant-key']).toBe(sandbox.keys.invoice.merchantKey);

		// Get by data_id (the token), as a query parameter.
		const got = await runItem('get', { dataId });
		expect(got.error).toBeUndefined();
		expect(requestsTo(sandbox, `${ITEMS}/details`)[0].query).toEqual({ data_id: dataId });
		expect(got.outputs.Gateway).toEqual([
			{
				json: {
					item_id: itemId,
					data_id: dataId,
					item_name: 'Consulting hour',
					item_rate: 150.5,
					item_category: 'Services',
					item_description: 'One hour of consulting',
					submerchant_name: expect.any(String),
					status: 'Active',
				},
				pairedItem: { item: 0 },
			},
		]);

		// Update: every required field sent again with the data_id.
		const updated = await runItem('update', { dataId, itemName: 'Consulting hour (senior)', ratePerUnit: 200, category: 'Advisory' });
		expect(updated.error).toBeUndefined();
		expect(bodyOf('update')).toEqual({
			data_id: dataId,
			item_name: 'Consulting hour (senior)',
			item_rate_per_unit: 200,
			item_category: 'Advisory',
		});
		expect(updated.outputs.Gateway).toEqual([
			{ json: { data_id: dataId, success: true, message: 'Item updated successfully' }, pairedItem: { item: 0 } },
		]);

		// Deactivate, then find it with the status filter.
		const deactivated = await runItem('deactivate', { dataId });
		expect(deactivated.outputs.Gateway[0].json).toEqual({ data_id: dataId, success: true, message: 'Item deactivated successfully' });
		expect(bodyOf('deactivate')).toEqual({ data_id: dataId });
		addItem(sandbox.state, { item_name: 'Still active', item_rate_per_unit: 1, item_category: 'Misc' });

		const deactivatedList = await runItem('getMany', { returnAll: true, filters: { status: 'Deactivated' } });
		expect(deactivatedList.error).toBeUndefined();
		expect(requestsTo(sandbox, `${ITEMS}/list`)[0].query).toEqual({ perpage: '1000', page: '1', status: 'Deactivated' });
		expect(deactivatedList.outputs.Gateway).toHaveLength(1);
		const listed = deactivatedList.outputs.Gateway[0];
		expect(listed.pairedItem).toEqual({ item: 0 });
		expect(listed.json).toMatchObject({
			item_no: '1',
			item_id: itemId,
			data_id: dataId,
			item_name: 'Consulting hour (senior)',
			item_rate: 200,
			item_category: 'Advisory',
			item_description: 'One hour of consulting',
			status: 'Deactivated',
			created_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
			created_date_iso: expect.stringMatching(ISO),
			last_modified_date_iso: expect.stringMatching(ISO),
		});
		const { created_date, created_date_iso } = listed.json as Record<string, string>;
		expect(created_date_iso).toBe(`${created_date.replace(' ', 'T')}Z`);

		const activeList = await runItem('getMany', { returnAll: true, filters: { status: 'Active' } });
		expect(activeList.outputs.Gateway.map((i) => i.json.item_name)).toEqual(['Still active']);

		// Activate, then delete.
		const activated = await runItem('activate', { dataId });
		expect(activated.outputs.Gateway[0].json).toEqual({ data_id: dataId, success: true, message: 'Item activated successfully' });
		expect(sandbox.state.invoiceItems.get(dataId)?.status).toBe('Active');

		const deleted = await runItem('delete', { dataId });
		expect(deleted.error).toBeUndefined();
		expect(deleted.outputs.Gateway[0].json).toEqual({ data_id: dataId, success: true, message: 'Item deleted successfully' });
		expect(bodyOf('delete')).toEqual({ data_id: dataId });

		const gone = await runItem('get', { dataId });
		expect(gone.error?.constructor.name).toBe('NodeApiError');
		expect(gone.error?.message).toContain('Item not found');
		expect((gone.error as { httpCode?: string }).httpCode).toBe('404');

		const all = await runItem('getMany', { returnAll: true });
		expect(all.outputs.Gateway.map((i) => i.json.item_name)).toEqual(['Still active']);
	});

	it('sends the description on update only when given (the sandbox then keeps the old one)', async () => {
		const { data_id } = addItem(sandbox.state, {
			item_name: 'Mug',
			item_rate_per_unit: 9,
			item_category: 'Goods',
			item_description: 'Ceramic',
		});
		await runItem('update', { dataId: data_id, itemName: 'Mug', ratePerUnit: 10, category: 'Goods', additionalFields: { description: 'Stoneware' } });
		expect(bodyOf('update')).toMatchObject({ item_description: 'Stoneware' });
		expect(sandbox.state.invoiceItems.get(data_id)?.item_description).toBe('Stoneware');
	});
});

describe('invoiceItem: refusals', () => {
	it('a duplicate name is refused by the service (NodeApiError), sent once', async () => {
		addItem(sandbox.state, { item_name: 'Gift wrap', item_rate_per_unit: 5, item_category: 'Extras' });
		const result = await runItem('create', { itemName: 'Gift wrap', ratePerUnit: 7, category: 'Extras' });
		expect(result.error?.constructor.name).toBe('NodeApiError');
		expect(result.error?.message).toContain('Item name already exists');
		expect((result.error as { httpCode?: string }).httpCode).toBe('400');
		expect(requestsTo(sandbox, `${ITEMS}/add`)).toHaveLength(1);
		expect(sandbox.state.invoiceItems.size).toBe(1);
	});

	it.each([
		['a rate of 0', 'create', { ratePerUnit: 0 }, 'item_rate_per_unit', 'must be above 0 and at most 9999999', 0],
		['a rate above the maximum', 'create', { ratePerUnit: 10000000 }, 'item_rate_per_unit', 'must be above 0 and at most 9999999', 10000000],
		['a rate with a currency symbol', 'create', { ratePerUnit: '={{ "AED 5" }}' }, 'item_rate_per_unit', 'must be a plain number (no currency symbol, commas or spaces)', 'AED 5'],
		['a name of 51 characters', 'create', { itemName: 'n'.repeat(51) }, 'item_name', 'must be 1-50 characters long', 'n'.repeat(51)],
		['an empty name from an expression', 'create', { itemName: '={{ "" }}' }, 'item_name', 'is required', ''],
		['an empty category', 'create', { category: ' ' }, 'item_category', 'is required', ''],
		['a category of 101 characters', 'create', { category: 'c'.repeat(101) }, 'item_category', 'must be at most 100 characters long', 'c'.repeat(101)],
		['a description of 201 characters', 'create', { additionalFields: { description: 'd'.repeat(201) } }, 'item_description', 'must be at most 200 characters long', 'd'.repeat(201)],
		['an update without data_id', 'update', { dataId: '={{ $json.missing }}' }, 'data_id', 'is required', ''],
		['an update with a bad rate', 'update', { dataId: 'tok', ratePerUnit: -1 }, 'item_rate_per_unit', 'must be above 0 and at most 9999999', -1],
		['a get without data_id', 'get', { dataId: ' ' }, 'data_id', 'is required', ''],
		['a delete without data_id', 'delete', { dataId: '={{ "" }}' }, 'data_id', 'is required', ''],
		['a list limit of 0', 'getMany', { returnAll: false, limit: 0 }, 'limit', 'must be a whole number from 1 to 1000000 (1000 pages of 1000)', 0],
		['a status filter from an expression', 'getMany', { returnAll: true, filters: { status: '={{ "Deleted" }}' } }, 'status', 'must be Active or Deactivated', 'Deleted'],
	] as const)('refuses %s before sending, naming field, rule and value', async (_, operation, change, field, rule, value) => {
		const result = await runItem(operation, {
			itemName: 'Widget',
			ratePerUnit: 3,
			category: 'Goods',
			...(change as IDataObject),
		});
		expect(result.error?.constructor.name).toBe('NodeOperationError');
		expect(result.error?.message).toContain(`${field} ${rule} (received ${JSON.stringify(value)})`);
		expect((result.error as { description?: string }).description).toMatch(/^Nothing was sent to the service/);
		expect(sandbox.requests).toHaveLength(0);
	});

	it('an unknown data_id is the service 404', async () => {
		const result = await runItem('deactivate', { dataId: 'no-such-token' });
		expect(result.error?.constructor.name).toBe('NodeApiError');
		expect(result.error?.message).toContain('Item not found');
	});
});

describe('invoiceItem.getMany pagination', () => {
	const seed = (count: number) => {
		for (let i = 0; i < count; i++) {
			addItem(sandbox.state, { item_name: `Item ${i}`, item_rate_per_unit: i + 1, item_category: 'Bulk' });
		}
	};
	const pages = () => requestsTo(sandbox, `${ITEMS}/list`).map((r) => r.query);

	it('Return All walks pages of 1000 until total_records', async () => {
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
		// Newest first, numbered across pages.
		expect(out[0].json).toMatchObject({ item_no: '1', item_name: 'Item 2344' });
		expect(out[1000].json).toMatchObject({ item_no: '1001' });
		expect(out.every((i) => i.pairedItem && (i.pairedItem as { item: number }).item === 0)).toBe(true);
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
	});

	it('an empty list is no items', async () => {
		const result = await runItem('getMany', { returnAll: true });
		expect(result.error).toBeUndefined();
		expect(result.outputs.Gateway ?? []).toEqual([]);
	});
});

describe('invoiceItem: retries', () => {
	it('reads are retried after HTTP 500', async () => {
		const { data_id } = addItem(sandbox.state, { item_name: 'Tea', item_rate_per_unit: 2, item_category: 'Food' });
		sandbox.faults.inject({ kind: 'status500', count: 1 });
		const result = await runItem('get', { dataId: data_id });
		expect(result.error).toBeUndefined();
		expect(requestsTo(sandbox, `${ITEMS}/details`)).toHaveLength(2);
	});

	it('state changes are retried after HTTP 429 (same end state however often they arrive)', async () => {
		const { data_id } = addItem(sandbox.state, { item_name: 'Tea', item_rate_per_unit: 2, item_category: 'Food' });
		sandbox.faults.inject({ kind: 'status429', count: 1, retryAfter: 0 });
		const result = await runItem('deactivate', { dataId: data_id });
		expect(result.error).toBeUndefined();
		expect(requestsTo(sandbox, `${ITEMS}/deactivate`)).toHaveLength(2);
		expect(sandbox.state.invoiceItems.get(data_id)?.status).toBe('Deactivated');
	});

	it('create is not retried after HTTP 500', async () => {
		sandbox.faults.inject({ kind: 'status500', count: 3 });
		const result = await runItem('create', { itemName: 'Tea', ratePerUnit: 2, category: 'Food' });
		expect(result.error?.constructor.name).toBe('NodeApiError');
		expect(requestsTo(sandbox, `${ITEMS}/add`)).toHaveLength(1);
	});
});

describe('invoiceItem: Continue On Fail', () => {
	it('pairs every result with its input item while the others go on', async () => {
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
		expect(out.map((i) => i.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
		expect(out[0].json).toMatchObject({ data_id: expect.any(String), message: 'Item added successfully' });
		expect(out[1].json).toMatchObject({
			violations: [{ field: 'item_rate_per_unit', rule: 'must be above 0 and at most 9999999', value: 0 }],
		});
		expect(out[2].json).toMatchObject({ code: '400', httpCode: 400 });
		expect(out[2].json.error).toContain('Item name already exists');
		expect(out[3].json).toMatchObject({ data_id: expect.any(String) });
		expect(requestsTo(sandbox, `${ITEMS}/add`)).toHaveLength(3);
	});
});
