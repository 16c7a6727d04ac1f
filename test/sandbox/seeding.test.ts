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
