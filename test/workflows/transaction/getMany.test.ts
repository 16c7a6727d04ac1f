import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { Sandbox, TransactionRecord } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import { FILTERS } from '../../../nodes/PaymentGateway/actions/transaction/getMany.operation';
import { requestsTo, runGateway } from '../support';

const LIST = '/orders/v1/transaction-list';

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ seed: 7, transactionCount: 250 });
});
afterAll(async () => await sandbox.stop());
beforeEach(() => {
	sandbox.faults.clear();
	sandbox.clearRequests();
});

const listAll = (filters: IDataObject = {}, extra: IDataObject = {}) =>
	runGateway(sandbox, {
		parameters: {
			resource: 'transaction',
			operation: 'getMany',
			returnAll: true,
			filters: filters as INodeParameters,
			simplify: false,
			...(extra as INodeParameters),
		},
	});

const listSome = (limit: number, extra: INodeParameters = {}) =>
	runGateway(sandbox, {
		parameters: {
			resource: 'transaction',
			operation: 'getMany',
			returnAll: false,
			limit,
			...extra,
		},
	});

const ids = (items: Array<{ json: IDataObject }>) => items.map((i) => i.json.transaction_id).sort();

/** YYYY-MM-DD of a DD-MM-YYYY HH:mm:ss text. */
const isoDay = (text: string) => `${text.slice(6, 10)}-${text.slice(3, 5)}-${text.slice(0, 2)}`;

describe('transaction.getMany filters', () => {
	const records = () => sandbox.state.transactions as TransactionRecord[];
	// A customer's card payment (guest payments have no customer ID or token).
	const pick = () => records().filter((r) => r.m_customer_id && r.m_payment_token)[17];

	// Each row: the node's filter, its value (from one known record), and an independent predicate.
	const cases: Array<[string, () => unknown, (r: TransactionRecord, v: never) => boolean]> = [
		['pOrderId', () => pick().p_order_id, (r, v) => r.p_order_id === v],
		['transactionId', () => pick().transaction_id, (r, v) => r.transaction_id === v],
		['status', () => 'REFUNDED', (r, v) => r.status === v],
		['paymentMethod', () => pick().payment_method, (r, v) => r.payment_method === v],
		[
			'paymentMethodId',
			() => pick().internal.card_pan,
			(r, v) => r.internal.card_pan === v || r.internal.payment_method_id === v,
		],
		['paymentToken', () => pick().m_payment_token, (r, v) => r.m_payment_token === v],
		[
			'cardBin',
			() => pick().internal.card_pan.slice(0, 6),
			(r, v: string) => r.internal.card_pan.startsWith(v),
		],
		['processor', () => pick().psp, (r, v) => r.psp === v],
		['currencyCode', () => 'KWD', (r, v) => r.currency === v],
		['fromDate', () => '2026-10-01', (r, v: string) => isoDay(r.transaction_date) >= v],
		['toDate', () => '2026-02-15T00:00:00', (r) => isoDay(r.transaction_date) <= '2026-02-15'],
		['minAmount', () => 900, (r, v: number) => Number(r.amount) >= v],
		['maxAmount', () => 50, (r, v: number) => Number(r.amount) <= v],
		['customerId', () => pick().m_customer_id, (r, v) => r.m_customer_id === v],
		[
			'customerEmail',
			() => pick().internal.customer_email,
			(r, v) => r.internal.customer_email === v,
		],
		[
			'customerMobile',
			() => pick().internal.customer_mobile,
			(r, v) => r.internal.customer_mobile === v,
		],
		[
			'customerCountry',
			() => pick().internal.billing_country,
			(r, v) => r.internal.billing_country === v,
		],
	];

	it('covers the 17 filters of the service, each in the node and in this table', () => {
		const seedFilters = [
			'p_order_id',
			'transaction_id',
			'status',
			'payment_method',
			'payment_method_id',
			'm_payment_token',
			'card_bin',
			'processor',
			'currency_code',
			'from_date',
			'to_date',
			'min_amount',
			'max_amount',
			'm_customer_id',
			'customer_email',
			'customer_mobile',
			'customer_country',
		];
		expect(FILTERS.map((f) => f.wire).sort()).toEqual([...seedFilters].sort());
		expect(cases.map(([name]) => name).sort()).toEqual(FILTERS.map((f) => f.name).sort());
	});

	it.each(cases)(
		'%s returns exactly the matching transactions',
		async (filter, value, predicate) => {
			const v = value();
			const expected = records()
				.filter((r) => predicate(r, v as never))
				.map((r) => r.transaction_id)
				.sort();
			expect(expected.length).toBeGreaterThan(0);
			expect(expected.length).toBeLessThan(records().length);

			const result = await listAll({ [filter]: v as string });
			expect(result.error).toBeUndefined();
			expect(ids(result.outputs.Gateway)).toEqual(expected);
		},
	);

	it('combines filters', async () => {
		const expected = records()
			.filter((r) => r.currency === 'AED' && r.status === 'CAPTURED')
			.map((r) => r.transaction_id)
			.sort();
		const result = await listAll({ currencyCode: 'AED', status: 'CAPTURED' });
		expect(ids(result.outputs.Gateway)).toEqual(expected);
		expect(requestsTo(sandbox, LIST)[0].query).toMatchObject({
			currency_code: 'AED',
			status: 'CAPTURED',
		});
	});
});

describe('transaction.getMany pagination', () => {
	it('walks every page with Return All: 250 records in 3 requests of 100', async () => {
		const result = await listAll();
		expect(result.outputs.Gateway).toHaveLength(250);
		expect(new Set(ids(result.outputs.Gateway)).size).toBe(250);
		const pages = requestsTo(sandbox, LIST).map((r) => [r.query.page, r.query.perpage]);
		expect(pages).toEqual([
			['1', '100'],
			['2', '100'],
			['3', '100'],
		]);
	});

	it('respects Limit with one request when it fits a page', async () => {
		const result = await listSome(30);
		expect(result.outputs.Gateway).toHaveLength(30);
		expect(requestsTo(sandbox, LIST).map((r) => r.query.perpage)).toEqual(['30']);
	});

	it('respects a Limit above the page size, capping perpage at 100', async () => {
		const result = await listSome(150);
		expect(result.outputs.Gateway).toHaveLength(150);
		expect(requestsTo(sandbox, LIST).map((r) => [r.query.page, r.query.perpage])).toEqual([
			['1', '100'],
			['2', '100'],
		]);
	});

	it('ends on an exact multiple of the page size without an extra request', async () => {
		const exact = await startSandbox({ seed: 2, transactionCount: 200 });
		try {
			const result = await runGateway(exact, {
				parameters: { resource: 'transaction', operation: 'getMany', returnAll: true },
			});
			expect(result.outputs.Gateway).toHaveLength(200);
			expect(requestsTo(exact, LIST)).toHaveLength(2);
		} finally {
			await exact.stop();
		}
	});

	it('returns nothing, in one request, when nothing matches', async () => {
		const result = await listAll({ pOrderId: 'no-such-order' });
		expect(result.outputs.Gateway).toEqual([]);
		expect(requestsTo(sandbox, LIST)).toHaveLength(1);
	});

	it('returns everything when Limit is above the total', async () => {
		const result = await listSome(1000, { filters: { currencyCode: 'OMR' } });
		const expected = (sandbox.state.transactions as TransactionRecord[]).filter(
			(r) => r.currency === 'OMR',
		);
		expect(result.outputs.Gateway).toHaveLength(expected.length);
		expect(requestsTo(sandbox, LIST)).toHaveLength(1);
	});

	it('simplifies by default and adds an ISO copy of the transaction date', async () => {
		const result = await listSome(1);
		const [item] = result.outputs.Gateway;
		const record = (sandbox.state.transactions as TransactionRecord[]).find(
			(r) => r.transaction_id === item.json.transaction_id,
		)!;
		expect(Object.keys(item.json)).not.toContain('payment_method_data');
		expect(item.json.transaction_date).toBe(record.transaction_date);
		// The harness workflow runs in UTC, so the copy is the same wall time with Z.
		expect(new Date(item.json.transaction_date_iso as string).getTime()).toBe(record.internal.time);
	});

	it('pairs every output item with the input item it came from', async () => {
		const result = await runGateway(sandbox, {
			items: [{ status: 'VOID' }, { status: 'FAILED' }],
			parameters: {
				resource: 'transaction',
				operation: 'getMany',
				returnAll: true,
				filters: { status: '={{ $json.status }}' },
			},
		});
		const out = result.outputs.Gateway;
		const voids = out.filter((i) => i.json.status === 'VOID');
		const failed = out.filter((i) => i.json.status === 'FAILED');
		expect(voids.length + failed.length).toBe(out.length);
		expect(voids.every((i) => (i.pairedItem as { item: number }).item === 0)).toBe(true);
		expect(failed.every((i) => (i.pairedItem as { item: number }).item === 1)).toBe(true);
	});
});

describe('transaction.getMany values from expressions', () => {
	it.each([
		['an object', '={{ { id: 7 } }}', 'must be text, not a object'],
		['a list', '={{ ["a", "b"] }}', 'must be text, not a list'],
	])('refuses %s as a filter, naming it; nothing is sent', async (_, expression, rule) => {
		const result = await listAll({ transactionId: expression });
		expect(result.error?.constructor.name).toBe('NodeOperationError');
		expect(result.error?.message).toContain(`transaction_id ${rule}`);
		expect(sandbox.requests).toHaveLength(0);
	});

	it('takes Return All "false" from an expression as false: one page of Limit', async () => {
		const result = await listSome(4, { returnAll: '={{ "false" }}' });
		expect(result.error).toBeUndefined();
		expect(result.outputs.Gateway).toHaveLength(4);
		expect(requestsTo(sandbox, LIST).map((r) => r.query.perpage)).toEqual(['4']);
	});

	it('takes Return All "true" from an expression as true', async () => {
		const result = await listSome(4, { returnAll: '={{ "true" }}' });
		expect(result.outputs.Gateway).toHaveLength(250);
	});

	it('takes Simplify "false" from an expression as false: the full record', async () => {
		const result = await listSome(1, { simplify: '={{ "false" }}' });
		expect(Object.keys(result.outputs.Gateway[0].json)).toContain('payment_method_data');
	});

	it.each([
		['returnAll', 'Return All'],
		['simplify', 'Simplify'],
	])('refuses %s that is neither true nor false, naming it', async (name, label) => {
		const result = await listSome(1, { [name]: '={{ "maybe" }}' });
		expect(result.error?.message).toBe(`Invalid ${label} must be true or false (received "maybe")`);
		expect(sandbox.requests).toHaveLength(0);
	});

	it.each([
		['a limit of 0', { limit: 0 }, 'limit must be at least 1'],
		['a limit of 2.5', { limit: 2.5 }, 'limit must be a whole number'],
		['an empty limit', { limit: '={{ "" }}' }, 'limit is required'],
	])('refuses %s while Return All is off', async (_, change, rule) => {
		const result = await listSome(1, change as INodeParameters);
		expect(result.error?.message).toContain(rule);
		expect(sandbox.requests).toHaveLength(0);
	});

	it('ignores Limit while Return All is on', async () => {
		const result = await listAll({}, { limit: '={{ "nonsense" }}' });
		expect(result.error).toBeUndefined();
		expect(result.outputs.Gateway).toHaveLength(250);
	});

	it('sends numeric text from an expression as the number, and a status in capitals', async () => {
		const result = await listSome(1, {
			filters: { minAmount: '={{ " 900 " }}', status: '={{ "captured" }}' },
		});
		expect(result.error).toBeUndefined();
		expect(requestsTo(sandbox, LIST)[0].query).toMatchObject({
			min_amount: '900',
			status: 'CAPTURED',
		});
	});

	it.each([
		['status', { status: 'settled!' }],
		['currency_code', { currencyCode: 'DIRHAM' }],
		['currency_code', { currencyCode: '={{ "XYZ" }}' }],
		['customer_country', { customerCountry: 'ARE' }],
		['card_bin', { cardBin: '4111' }],
		['customer_mobile', { customerMobile: '+971 50' }],
		['customer_email', { customerEmail: 'a@' }],
		['from_date', { fromDate: '2026-02-30' }],
		['to_date', { toDate: '01-02-2026' }],
		['min_amount', { minAmount: '={{ "1,000" }}' }],
		['max_amount', { maxAmount: -5 }],
		['min_amount', { minAmount: 10, maxAmount: 5 }],
		['from_date', { fromDate: '2026-02-01', toDate: '2026-01-01' }],
	])('refuses a bad %s in %j before sending', async (field, filters) => {
		const result = await listAll(filters);
		expect(
			(
				result.error as { context?: { violations?: Array<{ field: string }> } }
			).context?.violations?.map((v) => v.field),
		).toEqual([field]);
		expect(sandbox.requests).toHaveLength(0);
	});
});

describe('transaction.getMany rules and failures', () => {
	it('refuses a malformed filter before sending anything, naming field, rule and value', async () => {
		const result = await listAll({ customerCountry: 'UAE' });
		expect(result.error?.message).toContain('customer_country');
		expect(result.error?.message).toContain('2-letter');
		expect(result.error?.message).toContain('"UAE"');
		expect(result.error?.constructor.name).toBe('NodeOperationError');
		expect(sandbox.requests).toHaveLength(0);
	});

	it('reports a rule violation as an item under Continue On Fail', async () => {
		const result = await runGateway(sandbox, {
			continueOnFail: true,
			items: [{ from: '2026-13-01' }, { from: '2026-01-01' }],
			parameters: {
				resource: 'transaction',
				operation: 'getMany',
				returnAll: false,
				limit: 2,
				filters: { fromDate: '={{ $json.from }}' },
			},
		});
		const out = result.outputs.Gateway;
		expect(out[0].json.error).toContain('from_date');
		expect(out[0].json.violations).toEqual([
			{
				field: 'from_date',
				displayName: 'Filters > From Date',
				rule: 'must be a calendar date YYYY-MM-DD that exists',
				value: '2026-13-01',
			},
		]);
		expect(out[0].pairedItem).toEqual({ item: 0 });
		expect(out.slice(1)).toHaveLength(2);
		expect(out.slice(1).every((i) => (i.pairedItem as { item: number }).item === 1)).toBe(true);
	});

	it('turns an HTTP 200 body with status fail into an API error with the service code', async () => {
		sandbox.faults.inject({
			kind: 'bodyFail',
			body: { status: 'fail', code: 'E0044', message: 'Transaction is not in a refundable state' },
		});
		const result = await listAll();
		expect(result.error?.constructor.name).toBe('NodeApiError');
		expect(result.error?.message).toContain('E0044');
		expect(result.error?.message).toContain('Transaction is not in a refundable state');
		expect((result.error as { description?: string }).description).toMatch(/not in a state/);
	});

	it('gives the service code in the error item under Continue On Fail', async () => {
		sandbox.faults.inject({
			kind: 'bodyFail',
			body: { success: false, code: 'PSP_DECLINED', message: 'No' },
		});
		const result = await runGateway(sandbox, {
			continueOnFail: true,
			parameters: { resource: 'transaction', operation: 'getMany', returnAll: false, limit: 1 },
		});
		expect(result.outputs.Gateway).toEqual([
			expect.objectContaining({
				json: expect.objectContaining({
					code: 'PSP_DECLINED',
					httpCode: 200,
					error: 'No [code PSP_DECLINED]',
				}),
				pairedItem: { item: 0 },
			}),
		]);
	});

	it('retries a 429 after its Retry-After and succeeds', async () => {
		sandbox.faults.inject({ kind: 'status429', retryAfter: 1 });
		const result = await listSome(5);
		expect(result.error).toBeUndefined();
		expect(result.outputs.Gateway).toHaveLength(5);
		const [first, second] = requestsTo(sandbox, LIST);
		expect(requestsTo(sandbox, LIST)).toHaveLength(2);
		expect(second.time - first.time).toBeGreaterThanOrEqual(1000);
	});

	it.each(['status500', 'html502', 'reset'] as const)('retries a read after %s', async (kind) => {
		sandbox.faults.inject({ kind, count: 2 });
		const result = await listSome(3);
		expect(result.error).toBeUndefined();
		expect(result.outputs.Gateway).toHaveLength(3);
		expect(requestsTo(sandbox, LIST)).toHaveLength(3);
	});

	it('gives up waiting after Timeout and retries the read', async () => {
		// The sandbox would hold the request far longer than the test: only the client time-out ends it.
		sandbox.faults.inject({ kind: 'timeout', delayMs: 60000 });
		const started = Date.now();
		const result = await listSome(3, { requestOptions: { timeoutMs: 300 } });
		expect(result.error).toBeUndefined();
		expect(Date.now() - started).toBeLessThan(5000);
		expect(requestsTo(sandbox, LIST)).toHaveLength(2);
	});

	it('says how often it tried when it gives up', async () => {
		sandbox.faults.inject({ kind: 'timeout', delayMs: 60000, count: 2 });
		const result = await listSome(3, { requestOptions: { timeoutMs: 200, maxRetries: 1 } });
		expect(result.error?.message).toBe('The service did not answer within 200 ms');
		expect((result.error as { description?: string }).description).toBe(
			'The node tried 2 times with backoff.',
		);
	});

	it('gives up after Max Retries and reports the last failure', async () => {
		sandbox.faults.inject({ kind: 'status500', count: 5 });
		const result = await listSome(3, { requestOptions: { maxRetries: 1 } });
		expect(result.error?.constructor.name).toBe('NodeApiError');
		expect(result.error?.message).toContain('code 500');
		expect(requestsTo(sandbox, LIST)).toHaveLength(2);
	});

	it('does not wait for a Retry-After longer than Max Retry Wait', async () => {
		sandbox.faults.inject({ kind: 'status429', retryAfter: 120 });
		const result = await listSome(3);
		expect(result.error?.message).toContain('code 429');
		expect(requestsTo(sandbox, LIST)).toHaveLength(1);
	});

	it('refuses plain http:// to a host that is not loopback before any request', async () => {
		const result = await runGateway(sandbox, {
			parameters: { resource: 'transaction', operation: 'getMany', returnAll: true },
			credentials: [
				{
					id: 'paymentGatewayHostedApi',
					name: 'remote',
					type: 'paymentGatewayHostedApi',
					data: { baseUrl: 'http://payments.example.com', merchantKey: 'k', merchantSecret: 's' },
				},
			],
		});
		expect(result.error?.constructor.name).toBe('NodeOperationError');
		expect(result.error?.message).toMatch(/plain http:\/\/.*only allowed for localhost/);
		expect(sandbox.requests).toHaveLength(0);
	});

	it('uses the keys of the channel chosen under Authentication', async () => {
		const result = await runGateway(sandbox, {
			credentialType: 'paymentGatewayS2sApi',
			parameters: {
				resource: 'transaction',
				operation: 'getMany',
				authentication: 's2s',
				returnAll: false,
				limit: 1,
			},
		});
		expect(result.error).toBeUndefined();
		expect(requestsTo(sandbox, LIST)[0].headers['merchant-key']).toBe(sandbox.keys.s2s.merchantKey);
	});

	it('reports wrong keys as a 401 API error without the secret', async () => {
		const result = await runGateway(sandbox, {
			parameters: { resource: 'transaction', operation: 'getMany', returnAll: false, limit: 1 },
			credentials: [
				{
					id: 'paymentGatewayHostedApi',
					name: 'wrong',
					type: 'paymentGatewayHostedApi',
					data: {
						baseUrl: sandbox.baseUrl,
						merchantKey: 'nope',
						merchantSecret: 'very-secret-value',
					},
				},
			],
		});
		expect(result.error?.constructor.name).toBe('NodeApiError');
		expect(result.error?.message).toContain('Invalid merchant key and secret');
		expect((result.error as { description?: string }).description).toMatch(/Invalid key or secret/);
		const error = result.error as Error & { description?: string; context?: object };
		for (const text of [
			error.message,
			error.description,
			error.stack,
			JSON.stringify(error.context),
			JSON.stringify(error),
			JSON.stringify(result.runData),
		]) {
			expect(String(text)).not.toContain('very-secret-value');
		}
	});

	it('keeps the secret out of the Continue On Fail item too', async () => {
		const result = await runGateway(sandbox, {
			continueOnFail: true,
			parameters: { resource: 'transaction', operation: 'getMany', returnAll: false, limit: 1 },
			credentials: [
				{
					id: 'paymentGatewayHostedApi',
					name: 'wrong',
					type: 'paymentGatewayHostedApi',
					data: {
						baseUrl: sandbox.baseUrl,
						merchantKey: 'nope',
						merchantSecret: 'very-secret-value',
					},
				},
			],
		});
		expect(result.outputs.Gateway[0].json).toMatchObject({ code: '401', httpCode: 401 });
		expect(JSON.stringify(result.outputs.Gateway)).not.toContain('very-secret-value');
	});
});
