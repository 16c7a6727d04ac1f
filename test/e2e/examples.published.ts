// The published example workflows under `n8n start`, driven over HTTP: POST to /webhook/checkout →
// the payment link (422 for a refused order); paying / declining it in the sandbox → the
// payment-events execution ran Fulfil order / Notify customer; completing the save-card order → the
// charge workflow charged the delivered token and routed on outcome `paid`.
import { CHARGE, complete, EVENTS, ran, succeeded, type ExamplesEnv } from './examples.setup';

export function publishedCases(getEnv: () => ExamplesEnv): void {
	async function checkout(body: unknown) {
		const response = await fetch(getEnv().checkoutUrl, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
		});
		return { status: response.status, body: (await response.json()) as Record<string, any> };
	}

	it('checkout: POST an order to the webhook → the payment link; a paid order is routed to "Fulfil order"', async () => {
		const { n8n, sandbox, eventsUrl } = getEnv();
		const answer = await checkout({
			order_id: 'WEB-1001',
			amount: 25,
			currency: 'AED',
			customer: { name: 'Aisha Khan', email: 'aisha@example.com' },
		});
		expect(answer).toEqual({
			status: 200,
			body: {
				p_order_id: expect.any(Number),
				m_order_id: 'WEB-1001',
				payment_link: expect.stringContaining(sandbox.checkoutUrl),
			},
		});
		const paidOrder = String(answer.body.p_order_id);
		const stored = sandbox.state.orders.get(paidOrder)!;
		expect(stored.request.data.order_details).toMatchObject({
			m_order_id: 'WEB-1001',
			amount: 25,
			currency: 'AED',
		});
		expect(stored.request.data.urls.webhook_url).toBe(eventsUrl);

		await complete(sandbox, paidOrder, 'pay');
		await sandbox.webhooks.idle();
		const [event] = sandbox.state.eventsOf(paidOrder);
		expect(event.delivery).toBe('delivered');

		const executions = await n8n.waitForExecutions(EVENTS.id, (e) => succeeded(e).length >= 1);
		expect(executions).toHaveLength(1);
		const [fulfil] = ran(executions[0], 'Fulfil order');
		expect(fulfil.json).toMatchObject({
			order_id: 'WEB-1001',
			p_order_id: paidOrder,
			transaction_id: event.payload.transaction_id,
			amount: '25.00',
			currency: 'AED',
			customer_email: 'aisha@example.com',
			fulfilment: 'ready to ship',
		});
		expect(ran(executions[0], 'Notify customer')).toHaveLength(0);
	});

	it('checkout: a declined payment is routed to "Notify customer"', async () => {
		const { n8n, sandbox } = getEnv();
		const answer = await checkout({
			order_id: 'WEB-1002',
			amount: 40,
			customer: { name: 'Omar Said', email: 'omar@example.com' },
		});
		expect(answer.status).toBe(200);
		const pOrderId = String(answer.body.p_order_id);
		await complete(sandbox, pOrderId, 'decline');
		await sandbox.webhooks.idle();

		const executions = await n8n.waitForExecutions(EVENTS.id, (e) => succeeded(e).length >= 2);
		expect(executions).toHaveLength(2);
		const latest = executions.find(
			(e) => ran(e, 'Payment Gateway Trigger')[0]?.json.p_order_id === pOrderId,
		);
		expect(ran(latest, 'Fulfil order')).toHaveLength(0);
		const [notify] = ran(latest, 'Notify customer');
		expect(notify.json).toMatchObject({
			to: 'omar@example.com',
			order_id: 'WEB-1002',
			p_order_id: pOrderId,
		});
		expect(String(notify.json.subject)).toContain('WEB-1002');
	});

	it('checkout: an order the node refuses is answered 422 with the reason, nothing sent', async () => {
		const { sandbox } = getEnv();
		sandbox.clearRequests();
		const answer = await checkout({ order_id: 'WEB-1003', amount: 0.5, currency: 'AED' });
		expect(answer).toMatchObject({
			status: 422,
			body: { error: expect.stringMatching(/amount/i) },
		});
		expect(sandbox.requests.filter((r) => r.path === '/orders/v1/create')).toHaveLength(0);
	});

	it('save card then charge: the tokenisation webhook starts Charge Saved Card, routed on outcome "paid"', async () => {
		const { n8n, sandbox } = getEnv();
		const { saveCardOrder = '' } = getEnv();
		await complete(sandbox, saveCardOrder, 'pay');
		await sandbox.webhooks.idle();
		const [event] = sandbox.state.eventsOf(saveCardOrder);
		expect(event.payload).toMatchObject({ action: 'AUTH_REVERSAL', status: 'SUCCESS' });
		const token = String(event.payload.m_payment_token);
		expect(token).not.toBe('');
		expect(event.delivery).toBe('delivered');

		const executions = await n8n.waitForExecutions(CHARGE.id, (e) => succeeded(e).length >= 1);
		expect(executions).toHaveLength(1);
		const [execution] = executions;
		expect(execution).toMatchObject({ status: 'success', mode: 'webhook' });
		expect(ran(execution, 'Card saved')[0].json).toMatchObject({
			event: 'card_tokenised',
			m_payment_token: token,
		});
		const [charge] = ran(execution, 'Charge Saved Card');
		expect(charge.json).toMatchObject({
			outcome: 'paid',
			order_status: 'CAPTURED',
			m_order_id: `PLAN-${event.payload.transaction_id}`,
		});
		const [started] = ran(execution, 'Start subscription');
		expect(started.json).toMatchObject({
			customer_id: 'CUST-1001',
			p_order_id: charge.json.p_order_id,
			status: 'active',
		});
		for (const other of ['Capture later', 'Ask for another card', 'Send payment link'])
			expect(ran(execution, other)).toHaveLength(0);

		// The charge: a CAUTH SALE with the delivered token and customer, sent with the S2S keys.
		const chargeOrder = sandbox.state.orders.get(String(charge.json.p_order_id))!;
		expect(chargeOrder).toMatchObject({ class: 'CAUTH', action: 'SALE', channel: 'S2S' });
		expect(chargeOrder.request.data).toMatchObject({
			payment_token: token,
			customer_details: { m_customer_id: 'CUST-1001' },
			order_details: { amount: 49.9, currency: 'AED' },
		});
	});
}
