import { orderSandbox } from './support';

const { box, runOrder, sentData } = orderSandbox(23);

describe('order.saveCard', () => {
	it('requires the customer ID', async () => {
		// From an expression that comes out empty (n8n itself refuses a literal empty value).
		const result = await runOrder('saveCard', {
			amount: 1,
			currency: 'AED',
			customerId: '={{ $json.customer }}',
		});
		expect(result.error?.message).toContain('customer_details.m_customer_id');
		expect(box.sandbox.requests).toHaveLength(0);
	});

	it('tokenizes: AUTH_REVERSAL, reported AUTHORISED, token delivered in the webhook event', async () => {
		const result = await runOrder('saveCard', {
			amount: 1,
			currency: 'AED',
			customerId: 'CUST-SAVE-1',
			webhookUrl: 'https://hooks.example.com/tokens',
		});
		expect(sentData()).toMatchObject({
			class: 'ECOM',
			action: 'AUTH_REVERSAL',
			customer_details: { m_customer_id: 'CUST-SAVE-1' },
			urls: { webhook_url: 'https://hooks.example.com/tokens' },
		});
		expect(sentData()).not.toHaveProperty('capture_method');
		const pOrderId = String(result.outputs.Gateway[0].json.p_order_id);
		box.sandbox.state.completeOrder(pOrderId, 'pay');
		const event = box.sandbox.state.events.filter((e) => String(e.p_order_id) === pOrderId).pop()!;
		expect(event.url).toBe('https://hooks.example.com/tokens');
		expect(event.payload).toMatchObject({
			action: 'AUTH_REVERSAL',
			status: 'SUCCESS',
			order_status: 'AUTHORISED',
		});
		expect(event.payload.m_payment_token).toBeTruthy();
		expect(box.sandbox.state.tokens.get(String(event.payload.m_payment_token))?.m_customer_id).toBe(
			'CUST-SAVE-1',
		);
	});
});
