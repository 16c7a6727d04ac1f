import { startSandbox, type Sandbox } from '../..';
import { orderData, sandboxClient } from '../../testClient';

let sandbox: Sandbox;
let api: ReturnType<typeof sandboxClient>;

beforeAll(async () => {
	sandbox = await startSandbox({ transactionCount: 5 });
	api = sandboxClient(sandbox);
});
afterAll(() => sandbox.stop());

describe('pages for the addresses the sandbox and npm start print', () => {
	test('the root and /__sandbox/ list the controls as links that answer', async () => {
		for (const path of ['/', '/__sandbox/']) {
			const page = await api.call(path);
			expect(page.status).toBe(200);
			expect(page.headers.get('content-type')).toMatch(/^text\/html/);
			const links = [...page.text.matchAll(/href="([^"]+)"/g)].map((m) => m[1]);
			expect(links).toContain(`${sandbox.baseUrl}/__sandbox/orders`);
			for (const link of links)
				expect({ link, status: (await fetch(link)).status }).toEqual({ link, status: 200 });
		}
	});

	test('/__sandbox/orders lists the orders, an open one with its payment page', async () => {
		const created = await api.create(orderData());
		const id = String(created.body.p_order_id);
		const listed = await api.call('/__sandbox/orders');
		expect(listed.status).toBe(200);
		expect(listed.body.data[0]).toMatchObject({
			p_order_id: id,
			payment_link: `${sandbox.checkoutUrl}/pay/${id}`,
		});
	});

	test('/checkout links the open orders; /payout says what the payout URL is', async () => {
		const checkout = await api.call('/checkout');
		expect(checkout.status).toBe(200);
		expect(checkout.text).toContain(`${sandbox.checkoutUrl}/pay/`);
		const payout = await api.call('/payout');
		expect(payout.status).toBe(200);
		expect(payout.text).toContain('/payout/v1/bulk/payouts');
	});
});
