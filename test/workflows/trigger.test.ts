import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import type {
	HarnessCredential,
	HarnessWorkflow,
	WebhookDelivery,
	WebhookHarness,
	WebhookRequest,
} from '../harness';
import { startWebhookWorkflow, testCredential } from '../harness';

const TRIGGER = 'n8n-nodes-payment-gateway.paymentGatewayTrigger';
const SECRET = 's3cret-value';
const CREDENTIALS: HarnessCredential[] = [
	{
		id: 'webhook-credential',
		name: 'Payment Gateway Webhook',
		type: 'paymentGatewayWebhookApi',
		data: { notificationSecret: SECRET },
	},
];

function triggerWorkflow(parameters: INodeParameters = {}): HarnessWorkflow {
	return {
		nodes: [
			{
				name: 'Trigger',
				type: TRIGGER,
				parameters,
				credentials: { paymentGatewayWebhookApi: { id: 'webhook-credential' } },
			},
			{ name: 'After', type: 'harness.noOp', parameters: {} },
		],
		connections: { Trigger: { main: [[{ node: 'After', type: 'main', index: 0 }]] } },
	};
}

let transactionCounter = 0;

/** A delivery shaped like the spec's Webhook payload table (every field). */
function payload(overrides: IDataObject = {}): IDataObject {
	transactionCounter += 1;
	const address = {
		address_line_1: '12 Harbour Road',
		address_line_2: 'Unit 4',
		city: 'Dubai',
		state: 'Dubai',
		country: 'AE',
		pincode: '00000',
	};
	return {
		action: 'SALE',
		status: 'SUCCESS',
		order_status: 'CAPTURED',
		m_order_id: `order-${transactionCounter}`,
		p_order_id: String(880000 + transactionCounter),
		p_request_id: String(770000 + transactionCounter),
		psp_ref_id: `psp-${transactionCounter}`,
		transaction_id: String(990000 + transactionCounter),
		is_live: false,
		terminal_label: 'PSP-SBX-TERM-01',
		remark: '',
		reason: '',
		currency: 'AED',
		amount: '100.00',
		shipping_fee: '0.00',
		convenience_fee: '0.00',
		channel: 'api',
		channel_id: 'hosted',
		customer_details: {
			name: 'Test Customer',
			email: 'customer@example.com',
			code: '971',
			mobile: '500000000',
			m_customer_id: 'customer-1',
		},
		billing_address: address,
		shipping_address: address,
		ip_country: 'AE',
		psp: 'PSP',
		payment_method: 'Debit Card',
		m_payment_token: 'tok_4c3f9a',
		transaction_time: '21-05-2025 14:03:07',
		payment_method_data: {
			scheme: 'VISA',
			card_country: 'AE',
			card_type: 'DEBIT',
			mask_card_number: '411111XXXXXX1111',
			expiry_month: '12',
			expiry_year: '2030',
		},
		apm_name: '',
		apm_identifier: '',
		sub_merchant_identifier: '',
		parameters: [],
		custom_data: [{ key: 'cart', value: 'c-1' }],
		...overrides,
	};
}

const running: WebhookHarness[] = [];

async function start(parameters: INodeParameters = {}, timezone?: string) {
	const harness = await startWebhookWorkflow(triggerWorkflow(parameters), {
		credentials: CREDENTIALS,
		timezone,
	});
	running.push(harness);
	return harness;
}

afterEach(async () => {
	await Promise.all(running.splice(0).map(async (harness) => await harness.stop()));
});

type Via = WebhookDelivery['via'];

/** Sends a delivery in-process or over real HTTP; both answer { status, body }. */
async function send(harness: WebhookHarness, via: Via, request: WebhookRequest) {
	if (via === 'deliver') {
		const { status, body } = await harness.deliver(request);
		return { status, body };
	}
	const { body } = request;
	const isRaw = typeof body === 'string' || Buffer.isBuffer(body);
	const headers: Record<string, string> = {
		...(body !== undefined && !isRaw ? { 'content-type': 'application/json' } : {}),
		...request.headers,
	};
	const response = await fetch(harness.url, {
		method: request.method ?? 'POST',
		headers,
		body: body === undefined ? undefined : isRaw ? (body as string) : JSON.stringify(body),
	});
	const text = await response.text();
	const isJson = response.headers.get('content-type')?.includes('json') ?? false;
	return { status: response.status, body: isJson ? (JSON.parse(text) as unknown) : text };
}

const withSecret = (body: unknown, headers: Record<string, string> = {}): WebhookRequest => ({
	headers: { 'notification-secret': SECRET, ...headers },
	body,
});

const STARTED = { message: 'Workflow was started' };
const UNAUTHORISED = { message: 'Invalid or missing notification-secret header' };
const NOT_AN_OBJECT = { message: 'Expected a JSON object body' };

/** The item that reached the node after the trigger in the given execution. */
const itemAfter = (harness: WebhookHarness, index = 0) =>
	harness.executions[index].outputs.After[0].json;

describe.each<Via>(['deliver', 'http'])('Payment Gateway Trigger via %s', (via) => {
	describe('a valid delivery starts one execution with the event it reports', () => {
		test.each([
			['SALE', 'SUCCESS', 'CAPTURED', 'payment_captured'],
			['CAPTURE', 'SUCCESS', 'CAPTURED', 'payment_captured'],
			['AUTH_REVERSAL', 'SUCCESS', 'AUTHORISED', 'card_tokenised'],
			['AUTH', 'FAILED', 'FAILED', 'payment_failed'],
			['SALE', 'FAILED', 'FAILED', 'payment_failed'],
			['REFUND', 'SUCCESS', 'REFUNDED', 'payment_refunded'],
			['REFUND', 'SUCCESS', 'PARTIALLY_REFUNDED', 'payment_partially_refunded'],
			['VOID', 'SUCCESS', 'VOID', 'payment_voided'],
			['AUTH', 'SUCCESS', 'AUTHORISED', 'payment_authorised'],
		])('%s %s %s → %s', async (action, status, orderStatus, event) => {
			const harness = await start();
			const sent = payload({ action, status, order_status: orderStatus });

			const answer = await send(harness, via, withSecret(sent));

			expect(answer).toEqual({ status: 200, body: STARTED });
			expect(harness.executions).toHaveLength(1);
			const [execution] = harness.executions;
			expect(execution.error).toBeUndefined();
			expect(execution.outputs.Trigger).toHaveLength(1);
			expect(execution.outputs.Trigger[0].json).toEqual(execution.outputs.After[0].json);
			expect(itemAfter(harness)).toEqual({
				...sent,
				event,
				transaction_time_iso: '2025-05-21T14:03:07Z',
				deliveryKey: `${sent.transaction_id}|${action}|${status}|${orderStatus}|21-05-2025 14:03:07`,
			});
			expect(harness.deliveries).toEqual([
				expect.objectContaining({ status: 200, executed: true, result: execution, via }),
			]);
		});

		test('AUTH_REVERSAL without a payment token is not a card tokenisation', async () => {
			const harness = await start();
			const sent = payload({ action: 'AUTH_REVERSAL', order_status: 'AUTHORISED' });
			delete sent.m_payment_token;

			expect((await send(harness, via, withSecret(sent))).status).toBe(200);
			expect(itemAfter(harness).event).toBe('other');
		});

		test.each([
			['DD-MM-YYYY', '21-05-2025 14:03:07'],
			['DD/MM/YYYY', '21/05/2025 14:03:07'],
		])('transaction_time in %s form gets an ISO copy', async (_form, time) => {
			const harness = await start();
			await send(harness, via, withSecret(payload({ transaction_time: time })));
			expect(itemAfter(harness)).toMatchObject({
				transaction_time: time,
				transaction_time_iso: '2025-05-21T14:03:07Z',
			});
		});

		test('transaction_time is read in the workflow time zone', async () => {
			const harness = await start({}, 'Asia/Dubai');
			await send(harness, via, withSecret(payload({ transaction_time: '21/05/2025 14:03:07' })));
			expect(itemAfter(harness).transaction_time_iso).toBe('2025-05-21T14:03:07+04:00');
		});
	});

	describe('the notification secret', () => {
		test.each([
			['a wrong secret', { 'notification-secret': 'not-the-secret' }],
			['no secret', {}],
			// (HTTP trims header values, so a space-padded secret cannot be told apart there.)
			['the secret with a suffix', { 'notification-secret': `${SECRET}x` }],
			['the secret in another case', { 'notification-secret': SECRET.toUpperCase() }],
			['an empty secret', { 'notification-secret': '' }],
		])('%s → 401 and no execution', async (_case, headers: Record<string, string>) => {
			const harness = await start();

			const answer = await send(harness, via, { headers, body: payload() });

			expect(answer).toEqual({ status: 401, body: UNAUTHORISED });
			expect(harness.executions).toHaveLength(0);
			expect(harness.deliveries).toEqual([
				expect.objectContaining({ status: 401, executed: false }),
			]);
			// Refused deliveries are not remembered, so a correct retry is not a duplicate.
			expect(harness.staticData).toEqual({});
		});

		test('a secret stored as an expression is resolved as n8n resolves credentials', async () => {
			const stored = `={{ "${SECRET}" + "-resolved" }}`;
			const harness = await startWebhookWorkflow(triggerWorkflow(), {
				credentials: [{ ...CREDENTIALS[0], data: { notificationSecret: stored } }],
			});
			running.push(harness);
			const answer = (secret: string) =>
				send(harness, via, { headers: { 'notification-secret': secret }, body: payload() });
			expect((await answer(stored)).status).toBe(401);
			expect((await answer(`${SECRET}-resolved`)).status).toBe(200);
			expect(harness.executions).toHaveLength(1);
		});

		test('the header name is case-insensitive, as HTTP headers are', async () => {
			const harness = await start();
			const answer = await send(harness, via, {
				headers: { 'Notification-Secret': SECRET },
				body: payload(),
			});
			expect(answer.status).toBe(200);
			expect(harness.executions).toHaveLength(1);
		});

		test('the secret never reaches the output, responses or static data', async () => {
			const harness = await start({ options: { includeHeaders: true } });
			await send(harness, via, withSecret(payload()));
			await send(harness, via, withSecret(payload(), { 'notification-secret': `x${SECRET}` }));

			expect(harness.executions).toHaveLength(1);
			expect(JSON.stringify(harness.executions[0].runData)).not.toContain(SECRET);
			expect(JSON.stringify(harness.deliveries.map(({ body }) => body))).not.toContain(SECRET);
			expect(JSON.stringify(harness.staticData)).not.toContain(SECRET);
		});
	});

	describe('bodies that are not a JSON object → 400 and no execution', () => {
		test.each<[string, unknown, Record<string, string>]>([
			['an empty object', {}, {}],
			['no body at all', undefined, {}],
			['a JSON array', [payload()], {}],
			['a JSON string', '"not an object"', { 'content-type': 'application/json' }],
			['JSON null', 'null', { 'content-type': 'application/json' }],
			['plain text', 'action=SALE', { 'content-type': 'text/plain' }],
			['XML', '<payload><action>SALE</action></payload>', { 'content-type': 'application/xml' }],
			['an empty JSON body', '', { 'content-type': 'application/json' }],
			[
				'a form body (n8n parses it into an object)',
				'action=SALE&status=SUCCESS&order_status=CAPTURED&transaction_id=1',
				{ 'content-type': 'application/x-www-form-urlencoded' },
			],
		])('%s', async (_case, body, headers) => {
			const harness = await start();
			const answer = await send(harness, via, withSecret(body, headers));

			expect(answer).toEqual({ status: 400, body: NOT_AN_OBJECT });
			expect(harness.executions).toHaveLength(0);
		});

		test('malformed JSON is refused before the node runs (422, as n8n does)', async () => {
			const harness = await start();
			// A wrong secret too: had the node run, it would have answered 401.
			const answer = await send(harness, via, {
				headers: { 'notification-secret': 'wrong', 'content-type': 'application/json' },
				body: '{"action": "SALE", ',
			});

			expect(answer).toEqual({
				status: 422,
				body: expect.objectContaining({ code: 422, message: 'Failed to parse request body' }),
			});
			expect(harness.executions).toHaveLength(0);
		});

		test('the secret is checked before the body', async () => {
			const harness = await start();
			const answer = await send(harness, via, { headers: {}, body: {} });
			expect(answer).toEqual({ status: 401, body: UNAUTHORISED });
		});
	});

	describe('event filter', () => {
		test('unselected events are acknowledged with 200 and start nothing', async () => {
			const harness = await start({ events: ['payment_refunded', 'payment_voided'] });
			const transaction = payload();

			const captured = await send(harness, via, withSecret(transaction));
			expect(captured).toEqual({
				status: 200,
				body: { received: true, processed: false, reason: 'event not selected' },
			});
			expect(harness.executions).toHaveLength(0);

			const refunded = { ...transaction, action: 'REFUND', order_status: 'REFUNDED' };
			const started = { status: 200, body: STARTED };
			expect(await send(harness, via, withSecret(refunded))).toEqual(started);
			const voided = payload({ action: 'VOID', order_status: 'VOID' });
			expect(await send(harness, via, withSecret(voided))).toEqual(started);

			expect(harness.executions.map((_, index) => itemAfter(harness, index).event)).toEqual([
				'payment_refunded',
				'payment_voided',
			]);
		});

		test('a filtered-out event is not remembered as seen', async () => {
			const harness = await start({ events: ['payment_refunded'] });
			await send(harness, via, withSecret(payload()));
			expect(harness.staticData).toEqual({});
		});

		test('"Any Event" next to specific events still lets everything through', async () => {
			const harness = await start({ events: ['*', 'payment_voided'] });
			await send(harness, via, withSecret(payload()));
			expect(harness.executions).toHaveLength(1);
		});
	});

	describe('duplicate deliveries', () => {
		test('a redelivery within the window → 200 and no execution', async () => {
			const harness = await start();
			const captured = payload();

			const first = await send(harness, via, withSecret(captured));
			expect(first).toEqual({ status: 200, body: STARTED });
			const again = await send(harness, via, withSecret({ ...captured }));

			expect(again).toEqual({
				status: 200,
				body: { received: true, processed: false, reason: 'duplicate delivery' },
			});
			expect(harness.executions).toHaveLength(1);
			expect(harness.deliveries.map(({ executed }) => executed)).toEqual([true, false]);
		});

		test('another status change of the same transaction executes', async () => {
			const harness = await start();
			const authorised = payload({ action: 'AUTH', order_status: 'AUTHORISED' });
			const captured = { ...authorised, action: 'CAPTURE', order_status: 'CAPTURED' };
			const refunded = { ...authorised, action: 'REFUND', order_status: 'REFUNDED' };

			for (const delivery of [authorised, captured, captured, refunded, authorised]) {
				expect((await send(harness, via, withSecret(delivery))).status).toBe(200);
			}

			expect(harness.executions.map((_, index) => itemAfter(harness, index).event)).toEqual([
				'payment_authorised',
				'payment_captured',
				'payment_refunded',
			]);
			const id = authorised.transaction_id as string;
			const time = authorised.transaction_time as string;
			// Each item carries the key it was judged by; nothing is kept in static data.
			expect(harness.executions.map((_, index) => itemAfter(harness, index).deliveryKey)).toEqual([
				`${id}|AUTH|SUCCESS|AUTHORISED|${time}`,
				`${id}|CAPTURE|SUCCESS|CAPTURED|${time}`,
				`${id}|REFUND|SUCCESS|REFUNDED|${time}`,
			]);
			expect(harness.staticData).toEqual({});
		});

		test('two partial refunds of one transaction both execute; a retry of either does not', async () => {
			const harness = await start();
			const base = { action: 'REFUND', order_status: 'PARTIALLY_REFUNDED' };
			const first = payload({ ...base, transaction_time: '21-05-2025 14:03:07' });
			const second = payload({
				...base,
				transaction_id: first.transaction_id,
				transaction_time: '21-05-2025 15:10:00',
			});
			for (const delivery of [first, second, first, second]) {
				expect((await send(harness, via, withSecret(delivery))).status).toBe(200);
			}
			expect(harness.executions).toHaveLength(2);
		});

		test('a failed delivery and a successful one of the same change are different', async () => {
			const harness = await start();
			const failed = payload({ action: 'SALE', status: 'FAILED', order_status: 'FAILED' });
			const succeeded = { ...failed, status: 'SUCCESS', order_status: 'CAPTURED' };

			await send(harness, via, withSecret(failed));
			await send(harness, via, withSecret(succeeded));

			expect(harness.executions).toHaveLength(2);
		});

		test('a redelivery after the window executes again', async () => {
			const harness = await start({ options: { duplicateWindowMinutes: 5 } });
			const captured = payload();
			await send(harness, via, withSecret(captured));
			expect(harness.executions).toHaveLength(1);
			// The clock moved on (the first delivery stays where it was remembered).
			const realNow = Date.now.bind(Date);
			const later = (ms: number) =>
				jest.spyOn(Date, 'now').mockImplementation(() => realNow() + ms);
			try {
				// Four minutes later: still inside the window.
				later(4 * 60_000);
				await send(harness, via, withSecret(captured));
				expect(harness.executions).toHaveLength(1);

				// Six minutes later: outside it, so this counts as a new delivery.
				later(6 * 60_000);
				await send(harness, via, withSecret(captured));
				expect(harness.executions).toHaveLength(2);
			} finally {
				jest.restoreAllMocks();
			}
		});

		test('with dropDuplicates off both deliveries execute', async () => {
			const harness = await start({ options: { dropDuplicates: false } });
			const captured = payload();

			await send(harness, via, withSecret(captured));
			await send(harness, via, withSecret(captured));

			expect(harness.executions).toHaveLength(2);
			expect(harness.staticData).toEqual({});
		});
	});

	describe('include headers', () => {
		test('adds the request headers without notification-secret', async () => {
			const harness = await start({ options: { includeHeaders: true } });

			await send(harness, via, withSecret(payload(), { 'X-Delivery-Id': 'delivery-42' }));

			const { headers } = itemAfter(harness) as { headers: IDataObject };
			expect(headers).toMatchObject({
				'x-delivery-id': 'delivery-42',
				'content-type': 'application/json',
			});
			expect(Object.keys(headers).map((name) => name.toLowerCase())).not.toContain(
				'notification-secret',
			);
		});

		test('leaves out every credential header a proxy or client may add', async () => {
			const harness = await start({ options: { includeHeaders: true } });
			const credentials: Record<string, string> = {
				Authorization: 'Bearer hdr-secret-1',
				'Proxy-Authorization': 'Basic hdr-secret-2',
				Cookie: 'session=hdr-secret-3',
				'Set-Cookie': 'sid=hdr-secret-4',
				'X-Api-Key': 'hdr-secret-5',
				'Merchant-Secret': 'hdr-secret-6',
				'X-Auth-Token': 'hdr-secret-7',
				'X-Upstream-Session': 'hdr-secret-8',
			};

			await send(harness, via, withSecret(payload(), { ...credentials, 'X-Request-Id': 'req-7' }));

			const { headers } = itemAfter(harness) as { headers: IDataObject };
			expect(headers['x-request-id']).toBe('req-7');
			for (const name of [...Object.keys(credentials), 'notification-secret']) {
				expect(Object.keys(headers)).not.toContain(name.toLowerCase());
			}
			expect(JSON.stringify(harness.executions[0].runData)).not.toMatch(/hdr-secret|s3cret/);
		});

		test('leaves headers out by default', async () => {
			const harness = await start();
			await send(harness, via, withSecret(payload(), { 'X-Delivery-Id': 'delivery-43' }));
			expect(itemAfter(harness)).not.toHaveProperty('headers');
		});
	});
});

describe('Payment Gateway Trigger over HTTP only', () => {
	test('deliveries in-process and over HTTP share the static data', async () => {
		const harness = await start();
		const captured = payload();

		expect((await harness.deliver(withSecret(captured))).executed).toBe(true);
		const redelivered = await send(harness, 'http', withSecret(captured));

		expect(redelivered.body).toMatchObject({ reason: 'duplicate delivery' });
		expect(harness.executions).toHaveLength(1);
		expect(harness.deliveries.map(({ via }) => via)).toEqual(['deliver', 'http']);
	});

	test('a sender retrying after a 500 gets the event processed exactly once', async () => {
		const harness = await start();
		const captured = payload();
		harness.setResponseFailure(1);

		const statuses: number[] = [];
		// Like the service: retry on non-2xx, then once more as a stray redelivery.
		for (let attempt = 0; attempt < 3; attempt += 1) {
			statuses.push((await send(harness, 'http', withSecret(captured))).status);
		}

		expect(statuses).toEqual([500, 200, 200]);
		expect(harness.executions).toHaveLength(1);
		expect(harness.deliveries.map(({ executed }) => executed)).toEqual([false, true, false]);
	});

	test('the trigger answers only its own POST route', async () => {
		const harness = await start();
		const wrongMethod = await fetch(harness.url, { method: 'GET' });
		const wrongPath = await fetch(`${harness.url}-other`, {
			method: 'POST',
			headers: { 'notification-secret': SECRET, 'content-type': 'application/json' },
			body: JSON.stringify(payload()),
		});

		expect([wrongMethod.status, wrongPath.status]).toEqual([404, 404]);
		expect(harness.deliveries).toHaveLength(0);
		// Production URL shape: <webhookId>/<path>, the id a UUID as the editor assigns.
		const production = /^http:\/\/127\.0\.0\.1:\d+\/webhook\/[0-9a-f-]{36}\/payment-gateway$/;
		expect(harness.url).toMatch(production);
	});
});

describe('checkNotificationSecret credential test', () => {
	test('passes for a set secret', async () => {
		const result = await testCredential('paymentGatewayWebhookApi', { notificationSecret: SECRET });
		expect(result.status).toBe('OK');
	});

	test.each([
		['empty', ''],
		['missing', undefined],
		['space-padded', ` ${SECRET} `],
		['with a trailing space', `${SECRET} `],
	])('fails when the secret is %s', async (_case, notificationSecret) => {
		const data: ICredentialDataDecryptedObject =
			notificationSecret === undefined ? {} : { notificationSecret };
		const result = await testCredential('paymentGatewayWebhookApi', data);
		expect(result.status).toBe('Error');
	});
});
