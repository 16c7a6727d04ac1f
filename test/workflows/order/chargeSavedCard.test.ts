import type { IDataObject } from 'n8n-workflow';

import { requestsTo } from '../support';
import { CREATE, orderSandbox } from './support';

const { box, runOrder, sentData } = orderSandbox(33);

describe('order.chargeSavedCard', () => {
	/** Saves a card for the customer through the hosted flow and returns its token. */
	async function savedToken(customerId: string, card?: string): Promise<string> {
		const result = await runOrder('saveCard', { amount: 1, currency: 'AED', customerId });
		const pOrderId = String(result.outputs.Gateway[0].json.p_order_id);
		box.sandbox.state.completeOrder(pOrderId, 'pay', card);
		const event = box.sandbox.state.events.filter((e) => String(e.p_order_id) === pOrderId).pop()!;
		return String(event.payload.m_payment_token);
	}

	const charge = (
		paymentToken: string,
		customerId: string,
		amount: number,
		transactionAction = 'SALE',
	) =>
		runOrder(
			'chargeSavedCard',
			{
				authentication: 's2s',
				paymentToken,
				customerId,
				amount,
				currency: 'AED',
				transactionAction,
			},
			{ credentialType: 'paymentGatewayS2sApi' },
		);

	it('uses the S2S keys chosen under Authentication and sends CAUTH with the token', async () => {
		const token = await savedToken('CUST-C1');
		box.sandbox.clearRequests();
		await runOrder(
			'chargeSavedCard',
			{
				authentication: 's2s',
				paymentToken: token,
				customerId: 'CUST-C1',
				amount: 5,
				currency: 'AED',
			},
			{ credentialType: 'paymentGatewayS2sApi' },
		);
		expect(requestsTo(box.sandbox, CREATE)[0].headers['merchant-key']).toBe(
			box.sandbox.keys.s2s.merchantKey,
		);
		expect(sentData()).toMatchObject({
			class: 'CAUTH',
			action: 'SALE',
			payment_token: token,
			customer_details: { m_customer_id: 'CUST-C1' },
		});
	});

	it('paid: SALE charged at once', async () => {
		const token = await savedToken('CUST-C2');
		const result = await charge(token, 'CUST-C2', 25);
		const [item] = result.outputs.Gateway;
		expect(item.json).toMatchObject({ outcome: 'paid', order_status: 'CAPTURED' });
		expect((item.json.payment as IDataObject).m_payment_token).toBe(token);
		expect((item.json.payment as IDataObject).transaction_time_iso).toBeDefined();
	});

	it('authorised: AUTH holds the funds', async () => {
		const token = await savedToken('CUST-C3');
		const result = await charge(token, 'CUST-C3', 25, 'AUTH');
		expect(result.outputs.Gateway[0].json).toMatchObject({
			outcome: 'authorised',
			order_status: 'AUTHORISED',
		});
	});

	it('declined: an outcome to route on, not a node error', async () => {
		const token = await savedToken('CUST-C4');
		const result = await charge(token, 'CUST-C4', 100.51);
		expect(result.error).toBeUndefined();
		const [item] = result.outputs.Gateway;
		expect(item.json).toMatchObject({ outcome: 'declined', order_status: 'FAILED' });
		expect(item.json.payment_link).toBeDefined();
	});

	it('customer_action_required: the card is not eligible yet, the customer pays by link', async () => {
		const token = await savedToken('CUST-C5', '4000000000000341');
		const result = await charge(token, 'CUST-C5', 25);
		const [item] = result.outputs.Gateway;
		expect(item.json.outcome).toBe('customer_action_required');
		expect(item.json.payment_link).toMatch(/\/checkout\//);
	});

	it("is a clear error with another customer's token", async () => {
		const token = await savedToken('CUST-C6');
		const result = await charge(token, 'SOMEONE-ELSE', 25);
		expect(result.error?.constructor.name).toBe('NodeApiError');
		expect(result.error?.message).toMatch(/customer/i);
		expect((result.error as { description?: string }).description).toMatch(/payment token/);
	});

	it('is a clear error after the configured PSP changed', async () => {
		const token = await savedToken('CUST-C7');
		const before = box.sandbox.state.settings.currentPsp;
		box.sandbox.state.settings.currentPsp = 'CYBERSOURCE';
		try {
			const result = await charge(token, 'CUST-C7', 25);
			expect(result.error?.message).toMatch(/PSP/i);
		} finally {
			box.sandbox.state.settings.currentPsp = before;
		}
	});

	it('requires the token and the customer ID before sending', async () => {
		const result = await charge('={{ $json.token }}', '={{ $json.customer }}', 25);
		expect(result.error?.message).toContain('customer_details.m_customer_id');
		expect(result.error?.message).toContain('payment_token');
		expect(box.sandbox.requests).toHaveLength(0);
	});

	it.each(['sale', 'CAPTURE', 'AUTH_REVERSAL', null])(
		'refuses Transaction Action %p from an expression before sending',
		async (action) => {
			const result = await runOrder(
				'chargeSavedCard',
				{
					authentication: 's2s',
					paymentToken: 'tok',
					customerId: 'C',
					amount: 5,
					currency: 'AED',
					transactionAction: `={{ ${JSON.stringify(action)} }}`,
				},
				{ credentialType: 'paymentGatewayS2sApi' },
			);
			expect(result.error?.message).toMatch(/^Invalid Transaction Action: action /);
			expect(box.sandbox.requests).toHaveLength(0);
		},
	);
});
