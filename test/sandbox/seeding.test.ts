// Start options for measurements: seeded invoice items and latency on every service request.
import { startSandbox, type Sandbox } from './index';
import { sandboxClient } from './testClient';

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ transactionCount: 1, invoiceItemCount: 25, latencyMs: 150 });
});
afterAll(() => sandbox.stop());

describe('sandbox start options', () => {
	it('seeds active invoice items with unique names that the list pages through', async () => {
		const api = sandboxClient(sandbox);
		const page = async (n: number) =>
			(
				await api.call(`/invoice/v1/items/list?perpage=10&page=${n}`, {
					keys: sandbox.keys.invoice,
				})
			).body as {
				data: Array<{ item_name: string; status: string }>;
				total_records: number;
			};
		const pages = [await page(1), await page(2), await page(3)];
		const names = pages.flatMap((p) => p.data.map((i) => i.item_name));
		expect(pages[0].total_records).toBe(25);
		expect(names).toHaveLength(25);
		expect(new Set(names).size).toBe(25);
		expect(pages.flatMap((p) => p.data).every((i) => i.status === 'Active')).toBe(true);
	});

	it('holds service requests for the latency given at start', async () => {
		expect(sandbox.latencyMs).toBe(150);
		const api = sandboxClient(sandbox);
		const started = Date.now();
		await api.call('/invoice/v1/items/list?perpage=1&page=1', { keys: sandbox.keys.invoice });
		// A lower bound only, with margin for clock rounding: never fails for being slow.
		expect(Date.now() - started).toBeGreaterThanOrEqual(100);
	});
});

describe('seeded transactions, as the transaction list gives them', () => {
	let seeded: Sandbox;
	beforeAll(async () => {
		seeded = await startSandbox({ seed: 1, transactionCount: 250 });
	});
	afterAll(() => seeded.stop());

	// n8n shows an empty text as "empty", which reads like a value: a field is data or absent.
	it('carry no empty text in customer ID, token, parameters or custom data', async () => {
		const api = sandboxClient(seeded);
		const page = async (n: number) =>
			(
				(
					await api.call(`/orders/v1/transaction-list?perpage=100&page=${n}`, {
						keys: seeded.keys.hosted,
					})
				).body as { data: Array<Record<string, unknown>> }
			).data;
		const records = [...(await page(1)), ...(await page(2)), ...(await page(3))];
		expect(records).toHaveLength(250);
		const blanks = records.flatMap((record) => {
			const lists = [...(record.parameters as object[]), ...(record.custom_data as object[])];
			const values = [
				record.m_customer_id,
				record.m_payment_token,
				...lists.flatMap(Object.values),
			];
			return values.filter((value) => value === '').map(() => record.transaction_id);
		});
		expect(blanks).toEqual([]);
		// Still guests (no customer) and some parameters and custom data with values.
		expect(records.some((r) => !('m_customer_id' in r))).toBe(true);
		expect(records.some((r) => (r.parameters as object[]).length > 0)).toBe(true);
		expect(records.some((r) => (r.custom_data as object[]).length > 0)).toBe(true);
	});
});
