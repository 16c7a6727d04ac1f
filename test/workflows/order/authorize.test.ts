import { orderSandbox } from './support';

const { box, runOrder, sentData } = orderSandbox(13);

describe('order.authorize', () => {
	it.each([
		['MANUAL', 'AUTHORISED'],
		['AUTOMATIC', 'CAPTURED'],
	])('capture method %s ends %s after the customer pays', async (captureMethod, status) => {
		const result = await runOrder('authorize', { amount: 40, currency: 'EUR', captureMethod });
		expect(sentData()).toMatchObject({
			class: 'ECOM',
			action: 'AUTH',
			capture_method: captureMethod,
		});
		const pOrderId = String(result.outputs.Gateway[0].json.p_order_id);
		box.sandbox.state.completeOrder(pOrderId, 'pay');
		expect(box.sandbox.state.transactionsByPOrderId.get(pOrderId)?.status).toBe(status);
	});

	it.each([
		['empty', '={{ "" }}'],
		['null', '={{ null }}'],
		['undefined', '={{ $json.nothing }}'],
		['lower case', '={{ "manual" }}'],
		['unknown', '={{ "CAPTURE" }}'],
	])(
		'refuses a capture method that is %s: never left to the service default AUTOMATIC',
		async (_label, captureMethod) => {
			const result = await runOrder('authorize', { amount: 40, currency: 'EUR', captureMethod });
			expect(result.error?.constructor.name).toBe('NodeOperationError');
			expect(result.error?.message).toContain('capture_method');
			expect(box.sandbox.requests).toHaveLength(0);
		},
	);
});
