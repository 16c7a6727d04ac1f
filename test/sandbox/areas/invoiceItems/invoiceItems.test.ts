import { startSandbox, type Sandbox } from '../..';
import { sandboxClient } from '../../testClient';

let sandbox: Sandbox;
let api: ReturnType<typeof sandboxClient>;

beforeAll(async () => {
	sandbox = await startSandbox({ transactionCount: 1 });
	api = sandboxClient(sandbox);
});
afterAll(() => sandbox.stop());
beforeEach(() => sandbox.state.invoiceItems.clear());

const post = (name: string, body: unknown) =>
	api.postJson(`/invoice/v1/items/${name}`, body, sandbox.keys.invoice);
const details = (dataId?: string) =>
	api.call(`/invoice/v1/items/details${dataId === undefined ? '' : `?data_id=${dataId}`}`, {
		keys: sandbox.keys.invoice,
	});
const list = (query = 'perpage=100&page=1') =>
	api.call(`/invoice/v1/items/list?${query}`, { keys: sandbox.keys.invoice });

const item = (extra: Record<string, unknown> = {}) => ({
	item_name: 'Consulting hour',
	item_rate_per_unit: 150,
	item_category: 'Services',
	item_description: 'One hour of consulting',
	...extra,
});
const ok = (message: string) => ({ message, status: 'success', code: '00' });
const bad = (message: string) => ({ message, status: 'fail', code: '400' });
const NOT_FOUND = { status: 'fail', code: '404', message: 'Item not found' };
const DATE_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

async function added(extra: Record<string, unknown> = {}): Promise<string> {
	const answer = await post('add', item(extra));
	expect(answer.status).toBe(200);
	return answer.body.data.data_id;
}

describe('invoice items: lifecycle', () => {
	test('add, details, list, update, deactivate, activate, delete', async () => {
		const answer = await post('add', item({ item_rate_per_unit: '150.50' }));
		expect(answer.status).toBe(200);
		expect(answer.body).toEqual({
			data: { item_id: expect.stringMatching(/^\d+$/), data_id: expect.any(String) },
			...ok('Item added successfully'),
		});
		const { item_id, data_id } = answer.body.data;
		expect(data_id).not.toBe(item_id);

		const shown = await details(data_id);
		expect(shown.body).toEqual({
			data: {
				item_id,
				data_id,
				item_name: 'Consulting hour',
				item_rate: 150.5,
				item_category: 'Services',
				item_description: 'One hour of consulting',
				submerchant_name: 'Sandbox Merchant',
				status: 'Active',
			},
			...ok('Item details fetched successfully'),
		});

		const listed = await list();
		expect(listed.body).toMatchObject({ total_records: 1, status: 'success', code: '00' });
		expect(listed.body.data[0]).toEqual({
			...shown.body.data,
			item_no: '1',
			created_date: expect.stringMatching(DATE_TIME),
			last_modified_date: expect.stringMatching(DATE_TIME),
		});

		const update = { data_id, ...item({ item_name: 'Advice hour', item_rate_per_unit: 99 }) };
		expect((await post('update', update)).body).toEqual(ok('Item updated successfully'));
		expect((await details(data_id)).body.data).toMatchObject({
			item_name: 'Advice hour',
			item_rate: 99,
			status: 'Active',
		});

		expect((await post('deactivate', { data_id })).body).toEqual(
			ok('Item deactivated successfully'),
		);
		expect((await details(data_id)).body.data.status).toBe('Deactivated');
		const again = await post('deactivate', { data_id });
		expect([again.status, again.body]).toEqual([400, bad('Item is already deactivated')]);
		expect((await list('perpage=10&page=1&status=Deactivated')).body.total_records).toBe(1);
		expect((await list('perpage=10&page=1&status=Active')).body.total_records).toBe(0);

		expect((await post('activate', { data_id })).body).toEqual(ok('Item activated successfully'));
		const active = await post('activate', { data_id });
		expect([active.status, active.body]).toEqual([400, bad('Item is already active')]);

		expect((await post('delete', { data_id })).body).toEqual(ok('Item deleted successfully'));
		for (const answer of [
			await details(data_id),
			await post('delete', { data_id }),
			await post('activate', { data_id }),
			await post('deactivate', { data_id }),
			await post('update', update),
		]) {
			expect([answer.status, answer.body]).toEqual([404, NOT_FOUND]);
		}
		expect((await list()).body).toMatchObject({ data: [], total_records: 0 });
	});

	test('update keeps the status and an unsent description; deactivated items delete', async () => {
		const dataId = await added();
		await post('deactivate', { data_id: dataId });
		const { item_description: _, ...noDescription } = item({ item_rate_per_unit: '5' });
		expect((await post('update', { data_id: dataId, ...noDescription })).status).toBe(200);
		expect((await details(dataId)).body.data).toMatchObject({
			status: 'Deactivated',
			item_rate: 5,
			item_description: 'One hour of consulting',
		});
		expect((await post('delete', { data_id: dataId })).status).toBe(200);
		expect(sandbox.state.invoiceItems.size).toBe(0);
	});

	test('item_id counts up; list is newest first with item_no and dates', async () => {
		const ids = [];
		for (const name of ['A', 'B', 'C']) {
			const answer = await post('add', item({ item_name: name }));
			ids.push(Number(answer.body.data.item_id));
		}
		expect(ids[1]).toBe(ids[0] + 1);
		expect(ids[2]).toBe(ids[1] + 1);
		const page = await list('perpage=2&page=1');
		expect(page.body.total_records).toBe(3);
		expect(page.body.data.map((i: any) => [i.item_no, i.item_name])).toEqual([
			['1', 'C'],
			['2', 'B'],
		]);
	});

	test('unknown or missing data_id', async () => {
		expect((await details('nope')).body).toEqual(NOT_FOUND);
		expect((await details('nope')).status).toBe(404);
		expect((await details()).body).toEqual(bad('data_id is required'));
		for (const name of ['update', 'deactivate', 'activate', 'delete']) {
			const answer = await post(name, {});
			expect([name, answer.status, answer.body]).toEqual([name, 400, bad('data_id is required')]);
		}
		const numeric = await post('delete', { data_id: 5 });
		expect(numeric.body).toEqual(bad('data_id must be a string, got "5"'));
	});

	test('only the Invoice channel keys', async () => {
		const answer = await api.postJson('/invoice/v1/items/add', item(), sandbox.keys.hosted);
		expect(answer.status).toBe(401);
		expect(sandbox.state.invoiceItems.size).toBe(0);
	});
});

describe('invoice items: names are unique per merchant', () => {
	test('duplicates are refused in any case, deactivated items included', async () => {
		const first = await added({ item_name: 'Widget' });
		for (const name of ['Widget', 'WIDGET', ' widget ']) {
			const answer = await post('add', item({ item_name: name }));
			expect([answer.status, answer.body]).toEqual([400, bad('Item name already exists')]);
		}
		await post('deactivate', { data_id: first });
		expect((await post('add', item({ item_name: 'widget' }))).body).toEqual(
			bad('Item name already exists'),
		);
		// Deleting frees the name.
		await post('delete', { data_id: first });
		expect((await post('add', item({ item_name: 'widget' }))).status).toBe(200);
	});

	test('update may keep its own name but not take another item’s', async () => {
		const a = await added({ item_name: 'Alpha' });
		await added({ item_name: 'Beta' });
		expect((await post('update', { data_id: a, ...item({ item_name: 'ALPHA' }) })).status).toBe(
			200,
		);
		const taken = await post('update', { data_id: a, ...item({ item_name: 'beta' }) });
		expect([taken.status, taken.body]).toEqual([400, bad('Item name already exists')]);
	});
});

describe('invoice items: field rules (add and update)', () => {
	const rate = (v: unknown) =>
		'item_rate_per_unit must be a number above 0 and at most 9999999, got ' +
		JSON.stringify(String(v));
	const invalid: [string, Record<string, unknown>, string][] = [
		['name missing', { item_name: undefined }, 'item_name is required'],
		['name empty', { item_name: '' }, 'item_name is required'],
		['name blank', { item_name: '   ' }, 'item_name is required'],
		['name 51', { item_name: 'n'.repeat(51) }, 'item_name must be at most 50 characters, got 51'],
		['name not text', { item_name: 12 }, 'item_name must be a string, got "12"'],
		['rate missing', { item_rate_per_unit: undefined }, 'item_rate_per_unit is required'],
		['rate 0', { item_rate_per_unit: 0 }, rate(0)],
		['rate negative', { item_rate_per_unit: -1 }, rate(-1)],
		['rate above max', { item_rate_per_unit: 10_000_000 }, rate(10000000)],
		['rate text above max', { item_rate_per_unit: '9999999.01' }, rate('9999999.01')],
		['rate not numeric', { item_rate_per_unit: '12abc' }, rate('12abc')],
		['rate text 0', { item_rate_per_unit: '0' }, rate('0')],
		['rate boolean', { item_rate_per_unit: true }, rate(true)],
		['category missing', { item_category: undefined }, 'item_category is required'],
		['category empty', { item_category: '' }, 'item_category is required'],
		[
			'category 101',
			{ item_category: 'c'.repeat(101) },
			'item_category must be at most 100 characters, got 101',
		],
		[
			'description 201',
			{ item_description: 'd'.repeat(201) },
			'item_description must be at most 200 characters, got 201',
		],
		['description not text', { item_description: 5 }, 'item_description must be a string, got "5"'],
	];
	test.each(invalid)('%s → 400', async (_name, change, message) => {
		const dataId = await added({ item_name: 'Existing' });
		for (const [op, extra] of [
			['add', {}],
			['update', { data_id: dataId }],
		] as const) {
			const answer = await post(op, { ...item(change), ...extra });
			expect([op, answer.status, answer.body]).toEqual([op, 400, bad(message)]);
		}
		expect(sandbox.state.invoiceItems.size).toBe(1);
	});

	const valid: [string, Record<string, unknown>, number][] = [
		['rate just above 0', { item_rate_per_unit: 0.01 }, 0.01],
		['rate max', { item_rate_per_unit: 9_999_999 }, 9_999_999],
		['rate numeric text', { item_rate_per_unit: ' 42.5 ' }, 42.5],
		[
			'name 50, category 100, description 200',
			{
				item_name: 'n'.repeat(50),
				item_category: 'c'.repeat(100),
				item_description: 'd'.repeat(200),
			},
			150,
		],
		['no description', { item_description: undefined }, 150],
		['empty description', { item_description: '' }, 150],
	];
	test.each(valid)('%s → added', async (_name, change, itemRate) => {
		const answer = await post('add', item(change));
		expect(answer.status).toBe(200);
		const shown = await details(answer.body.data.data_id);
		expect(shown.body.data.item_rate).toBe(itemRate);
	});

	test('the body must be a JSON object', async () => {
		expect((await post('add', [1])).body).toEqual(bad('Request body must be a JSON object'));
		expect((await post('add', '')).body).toEqual(bad('Request body must be a JSON object'));
	});
});
