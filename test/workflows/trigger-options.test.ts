import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { HarnessCredential, WebhookHarness } from '../harness';
import { startWebhookWorkflow } from '../harness';

/**
 * The trigger's options given as text by an expression ("false", "true"), as a mapping or a
 * generator of parameter sets gives them: read as the yes/no they say, like every other boolean.
 */

const SECRET = 'options-secret';
const CREDENTIALS: HarnessCredential[] = [
	{
		id: 'webhook-credential',
		name: 'Payment Gateway Webhook',
		type: 'paymentGatewayWebhookApi',
		data: { notificationSecret: SECRET },
	},
];

const running: WebhookHarness[] = [];
afterEach(async () => {
	await Promise.all(running.splice(0).map(async (harness) => await harness.stop()));
});

async function start(options: INodeParameters) {
	const harness = await startWebhookWorkflow(
		{
			nodes: [
				{
					name: 'Trigger',
					type: 'n8n-nodes-payment-gateway.paymentGatewayTrigger',
					parameters: { options },
					credentials: { paymentGatewayWebhookApi: { id: 'webhook-credential' } },
				},
				{ name: 'After', type: 'harness.noOp', parameters: {} },
			],
			connections: { Trigger: { main: [[{ node: 'After', type: 'main', index: 0 }]] } },
		},
		{ credentials: CREDENTIALS },
	);
	running.push(harness);
	return harness;
}

const delivery = (body: IDataObject) => ({
	headers: { 'notification-secret': SECRET, 'x-delivery-id': 'd-1' },
	body,
});

// A new transaction per delivery pair: the trigger remembers deliveries across harnesses.
let counter = 0;
const captured = (): IDataObject => ({
	action: 'SALE',
	status: 'SUCCESS',
	order_status: 'CAPTURED',
	m_order_id: 'order-options-1',
	p_order_id: '880001',
	transaction_id: String(990000 + ++counter),
	currency: 'AED',
	amount: '100.00',
	transaction_time: '21-05-2025 14:03:07',
});

describe('Payment Gateway Trigger options given as text by an expression', () => {
	test.each(['={{ "false" }}', '={{ "False" }}', 'false'])(
		'Drop Duplicate Deliveries %s: both deliveries run',
		async (value) => {
			const harness = await start({ dropDuplicates: value });
			const body = captured();
			await harness.deliver(delivery(body));
			await harness.deliver(delivery(body));
			expect(harness.executions).toHaveLength(2);
		},
	);

	test('Drop Duplicate Deliveries "true": the repeat is dropped', async () => {
		const harness = await start({ dropDuplicates: '={{ "true" }}' });
		const body = captured();
		await harness.deliver(delivery(body));
		await harness.deliver(delivery(body));
		expect(harness.executions).toHaveLength(1);
	});

	test.each([
		['={{ "true" }}', true],
		['={{ "false" }}', false],
	])('Include Headers %s', async (value, included) => {
		const harness = await start({ includeHeaders: value });
		await harness.deliver(delivery(captured()));
		const item = harness.executions[0].outputs.After[0].json;
		expect('headers' in item).toBe(included);
	});

	test('a value that is neither true nor false starts nothing and names the option', async () => {
		const harness = await start({ includeHeaders: '={{ "maybe" }}' });
		const answer = await harness.deliver(delivery(captured()));
		expect(harness.executions).toHaveLength(0);
		expect(answer).toMatchObject({
			status: 500,
			body: {
				message: 'Invalid Options > Include Headers must be true or false (received "maybe")',
			},
		});
	});
});
