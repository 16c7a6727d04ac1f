import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../sandbox';
import { startSandbox } from '../sandbox';
import { workbookWithRows } from '../unit/PaymentGateway/spreadsheet/zip-fixtures';
import { requestsTo, runGateway } from './support';

let sandbox: Sandbox;
let counter = 0;

beforeAll(async () => {
	sandbox = await startSandbox({ seed: 12 });
});
afterAll(async () => await sandbox.stop());
beforeEach(() => {
	sandbox.faults.clear();
	sandbox.clearRequests();
});

const CREATE = '/orders/v1/create';
const UPLOAD = '/payout/v1/bulk/payouts';
const unique = (prefix: string) => `${prefix}-${process.pid}-${++counter}`;
const describeOf = (error: unknown) =>
	String((error as { description?: string }).description ?? '');

const order = (
	parameters: IDataObject,
	extra: { continueOnFail?: boolean; credentialType?: string } = {},
) =>
	runGateway(sandbox, {
		...extra,
		parameters: {
			resource: 'order',
			operation: 'createPayment',
			amount: 20,
			currency: 'AED',
			...parameters,
		} as never,
	});

const ordersWith = (mOrderId: string) =>
	[...sandbox.state.orders.values()].filter((o) => JSON.stringify(o).includes(`"${mOrderId}"`));

const PAYOUT_ROW = {
	'Reference No': 'PAY-1',
	'Payment Mode': 'NEFT',
	Amount: 100.25,
	Remark: 'Run 1',
	'Beneficiary Name': 'Asha Rao',
	'Beneficiary Email': 'asha@example.com',
	'Beneficiary Account Number': '123456789012',
	'Beneficiary Account Type': 'SA',
	'Beneficiary IFSC': 'HDFC0001234',
};

/** Version 2: one upload under the given Request ID (version 3 sends it as <ID>-1, in batches). */
const payout = (requestId: string, requestOptions: IDataObject = {}) =>
	runGateway(sandbox, {
		items: [PAYOUT_ROW],
		credentialType: 'paymentGatewayPayoutApi',
		typeVersion: 2,
		parameters: {
			resource: 'payout',
			operation: 'bulkCreate',
			currency: 'INR',
			requestId,
			requestOptions,
		} as never,
	});

describe('a 5xx on an order with the Merchant Order ID left empty', () => {
	it.each(['status500', 'html502'] as const)(
		'after %s: sent again with the ID the node made, and created once',
		async (kind) => {
			sandbox.faults.inject({ kind, path: CREATE });
			const before = sandbox.state.orders.size;
			const result = await order({});
			expect(result.error).toBeUndefined();
			const sent = requestsTo(sandbox, CREATE).map(
				(r) => JSON.parse(r.body.toString()).data.order_details.m_order_id as string,
			);
			expect(sent).toHaveLength(2);
			expect(sent[0]).toMatch(/^n8n-[A-Za-z0-9]+-0-[0-9a-f]{8}$/);
			expect(sent[1]).toBe(sent[0]);
			expect(sandbox.state.orders.size).toBe(before + 1);
			expect(result.outputs.Gateway[0].json.m_order_id).toBe(sent[0]);
		},
	);
});

describe('a lost answer after the node repeated a request', () => {
	it('order with a Merchant Order ID: the repeat refused as a duplicate reports the order as created', async () => {
		const mOrderId = unique('LOST');
		sandbox.faults.inject({ kind: 'dropAnswer', path: CREATE });
		const result = await order({ merchantOrderId: mOrderId });
		expect(result.error).toBeUndefined();
		expect(requestsTo(sandbox, CREATE)).toHaveLength(2);
		expect(ordersWith(mOrderId)).toHaveLength(1);
		expect(result.outputs.Gateway[0].json).toMatchObject({
			confirmedByDuplicate: true,
			m_order_id: mOrderId,
			order_state: 'created',
			paid: false,
		});
		// The answer with the payment link was lost, so the item does not send the user looking for it.
		expect(result.outputs.Gateway[0].json.payment_link).toBeUndefined();
		expect(result.outputs.Gateway[0].json.next).toMatch(
			/^Not paid yet\. Its payment_link was in the answer that was lost/,
		);
	});

	it('charge saved card: the card was charged once, the item says so, never a plain failure', async () => {
		const card = await runGateway(sandbox, {
			parameters: {
				resource: 'order',
				operation: 'saveCard',
				amount: 1,
				currency: 'AED',
				customerId: 'CUST-L1',
			} as never,
		});
		const pOrderId = String(card.outputs.Gateway[0].json.p_order_id);
		sandbox.state.completeOrder(pOrderId, 'pay');
		const event = sandbox.state.events.filter((e) => String(e.p_order_id) === pOrderId).pop()!;
		const mOrderId = unique('CHG');
		sandbox.clearRequests();
		sandbox.faults.inject({ kind: 'dropAnswer', path: CREATE });
		const result = await runGateway(sandbox, {
			credentialType: 'paymentGatewayS2sApi',
			parameters: {
				resource: 'order',
				operation: 'chargeSavedCard',
				authentication: 's2s',
				paymentToken: String(event.payload.m_payment_token),
				customerId: 'CUST-L1',
				amount: 5,
				currency: 'AED',
				merchantOrderId: mOrderId,
			} as never,
		});
		expect(result.error).toBeUndefined();
		expect(requestsTo(sandbox, CREATE)).toHaveLength(2);
		expect(ordersWith(mOrderId)).toHaveLength(1);
		expect(result.outputs.Gateway[0].json).toMatchObject({
			confirmedByDuplicate: true,
			m_order_id: mOrderId,
		});
	});

	it('a genuine duplicate (no lost answer) stays a failure', async () => {
		const mOrderId = unique('DUP');
		expect((await order({ merchantOrderId: mOrderId })).error).toBeUndefined();
		const again = await order({ merchantOrderId: mOrderId });
		expect(again.error?.message).toBe(
			`The Merchant Order ID "${mOrderId}" was already used for another order [code 400]`,
		);
		expect(describeOf(again.error)).toMatch(
			/^The service answered "Duplicate m_order_id .*No new order was created/,
		);
		expect(again.outputs.Gateway ?? []).toHaveLength(0);
	});

	it('payout batch: the repeat refused as already submitted reports the batch as queued', async () => {
		const id = unique('B');
		sandbox.faults.inject({ kind: 'dropAnswer', path: UPLOAD });
		const result = await payout(id);
		expect(result.error).toBeUndefined();
		expect(requestsTo(sandbox, UPLOAD)).toHaveLength(2);
		expect(sandbox.state.payoutBatches.has(id)).toBe(true);
		expect(result.outputs.Gateway[0].json).toMatchObject({
			request_id: id,
			confirmedByDuplicate: true,
		});
	});

	it('a payout 429 then "already submitted" is a real duplicate: the service had not acted', async () => {
		const id = unique('B');
		expect((await payout(id)).error).toBeUndefined();
		sandbox.clearRequests();
		sandbox.faults.inject({ kind: 'status429', path: UPLOAD, retryAfter: 0 });
		const again = await payout(id);
		expect(requestsTo(sandbox, UPLOAD)).toHaveLength(2);
		expect(again.error?.message).toMatch(/already submitted.*E0021/);
	});
});

describe('429 is retried on every request', () => {
	it('an order without a Merchant Order ID is sent again after 429 and created once', async () => {
		sandbox.faults.inject({ kind: 'status429', path: CREATE, retryAfter: 0 });
		const before = sandbox.state.orders.size;
		const result = await order({});
		expect(result.error).toBeUndefined();
		expect(requestsTo(sandbox, CREATE)).toHaveLength(2);
		expect(sandbox.state.orders.size).toBe(before + 1);
	});

	it('honours Max Retries', async () => {
		sandbox.faults.inject({ kind: 'status429', path: CREATE, retryAfter: 0, count: 5 });
		const result = await order({ requestOptions: { maxRetries: 2 } });
		expect(requestsTo(sandbox, CREATE)).toHaveLength(3);
		expect(result.error?.message).toMatch(/Too many requests \[code 429\]/);
		expect(describeOf(result.error)).toContain('The node tried 3 times with backoff.');
	});

	it('stops at Max Total Retry Wait instead of waiting past it', async () => {
		sandbox.faults.inject({ kind: 'status429', path: CREATE, retryAfter: 2, count: 5 });
		const result = await order({ requestOptions: { maxTotalRetryWaitSeconds: 1 } });
		expect(requestsTo(sandbox, CREATE)).toHaveLength(1);
		expect(describeOf(result.error)).toContain(
			'Waiting 2 s more would pass Max Total Retry Wait (1 s; 0 s already spent waiting).',
		);
	});

	it('refuses a Retry-After longer than Max Retry Wait', async () => {
		sandbox.faults.inject({ kind: 'status429', path: CREATE, retryAfter: 120 });
		const result = await order({});
		expect(requestsTo(sandbox, CREATE)).toHaveLength(1);
		expect(describeOf(result.error)).toContain(
			'The service asked to wait 120 s, longer than Max Retry Wait (60 s).',
		);
	});
});

describe('messages say what applies to the operation', () => {
	it('a 400 on an invoice item does not mention m_order_id; on an order it does', async () => {
		const name = unique('Item');
		const create = () =>
			runGateway(sandbox, {
				credentialType: 'paymentGatewayInvoiceApi',
				parameters: {
					resource: 'invoiceItem',
					operation: 'create',
					itemName: name,
					ratePerUnit: 10,
					category: 'Services',
				} as never,
			});
		expect((await create()).error).toBeUndefined();
		const refused = await create();
		expect(refused.error?.message).toMatch(/Item name already exists/);
		expect(describeOf(refused.error)).toBe('Bad request: a parameter is missing or invalid.');

		const mOrderId = unique('M');
		await order({ merchantOrderId: mOrderId });
		const duplicate = await order({ merchantOrderId: mOrderId });
		expect(describeOf(duplicate.error)).toContain(
			'each order needs its own Merchant Order ID (m_order_id)',
		);
	});

	it("a rejected payout file shows the service's row errors", async () => {
		sandbox.faults.inject({
			kind: 'bodyFail',
			path: UPLOAD,
			body: {
				status: 'fail',
				code: '400',
				message: 'Validation failed: 1 row(s) have errors',
				errors: [
					{
						row: 2,
						column: 'Beneficiary IFSC',
						rule: 'must be a valid IFSC',
						value: 'HDFC0001234',
					},
				],
			},
		});
		const result = await payout(unique('B'));
		expect(result.error?.message).toBe('Validation failed: 1 row(s) have errors [code 400]');
		expect(describeOf(result.error)).toContain(
			'Rows the service rejected: row 2, Beneficiary IFSC: must be a valid IFSC (value "HDFC0001234").',
		);
	});
});

describe('spreadsheet bombs', () => {
	it('Payout > Bulk Create from a 100 kB file that unpacks to 29 MB: refused before parsing, nothing sent', async () => {
		const file = await workbookWithRows(1000, 'A'.repeat(30000));
		expect(file.length).toBeLessThan(200 * 1024);
		const result = await runGateway(sandbox, {
			credentialType: 'paymentGatewayPayoutApi',
			binary: [{ property: 'data', fileName: 'payouts.xlsx', base64: file.toString('base64') }],
			parameters: {
				resource: 'payout',
				operation: 'bulkCreate',
				inputMode: 'binary',
				currency: 'INR',
			} as never,
		});
		expect(JSON.stringify(result.error?.message)).toMatch(
			/The spreadsheet is refused before reading: it unpacks to 2\d\.\d MB, more than the 24\.0 MB allowed/,
		);
		expect(sandbox.requests).toHaveLength(0);
	});
});
