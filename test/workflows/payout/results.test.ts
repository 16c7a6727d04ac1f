// Payment Gateway Payout Results Trigger: the service's results posts applied to the account's
// payout ledger (the harness's in-memory n8n data tables), one item per row that changed it; the
// token of the results address and the notification secret checked first; Bulk Create with an
// empty Callback URL uses the results address once a results workflow is published.
import type { IDataObject } from 'n8n-workflow';

import { payoutAccount } from '../../../nodes/PaymentGateway/actions/payout/ledger/account';
import type { Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import type { HarnessCredential, RunResult, WebhookHarness } from '../../harness';
import { dataTables, startWebhookWorkflow } from '../../harness';
import { runGateway, sandboxCredentials } from '../support';

const TRIGGER = 'n8n-nodes-payment-gateway.paymentGatewayPayoutTrigger';
const RESULTS_WORKFLOW = 'results-wf';

let sandbox: Sandbox;
let hook: WebhookHarness;
let credentials: HarnessCredential[];
let ledgerName: string;
let resultsName: string;
let token: string;
let runs = 0;

beforeAll(async () => {
	sandbox = await startSandbox();
	credentials = [
		...sandboxCredentials(sandbox),
		{
			id: 'webhook',
			name: 'webhook',
			type: 'paymentGatewayWebhookApi',
			data: { notificationSecret: sandbox.keys.webhook.notificationSecret },
		},
	];
	const account = payoutAccount(
		credentials.find((c) => c.type === 'paymentGatewayPayoutApi')!.data,
	);
	ledgerName = account.tableName;
	resultsName = account.resultsTableName;
	hook = await startWebhookWorkflow(
		{
			id: RESULTS_WORKFLOW,
			nodes: [
				{
					name: 'Results',
					type: TRIGGER,
					parameters: { path: 'payout-results' },
					credentials: {
						paymentGatewayPayoutApi: { id: 'paymentGatewayPayoutApi' },
						paymentGatewayWebhookApi: { id: 'webhook' },
					},
				},
				{ name: 'After', type: 'harness.noOp', parameters: {} },
			],
			connections: { Results: { main: [[{ node: 'After', type: 'main', index: 0 }]] } },
		},
		{ credentials, mode: 'webhook' },
	);
	// The editor's test URL: the account's token is made, no address is recorded.
	await hook.publish('manual');
	token = String(dataTables.store.rowsOf(resultsName).find((row) => row.token)?.token);
});
afterAll(async () => {
	await hook.stop();
	await sandbox.stop();
});
afterEach(() => {
	sandbox.faults.clear();
	dataTables.enabled = true;
});

const tagOf = () => `R${process.pid % 10000}N${++runs}`;

function rows(tag: string, count: number): IDataObject[] {
	return Array.from({ length: count }, (_, i) => ({
		'Reference No': `${tag}-${i}`,
		'Payment Mode': 'NEFT',
		Amount: 300 + i,
		Remark: 'Salary',
		'Beneficiary Name': 'Meera Iyer',
		'Beneficiary Account Number': '123456789012',
		'Beneficiary IFSC': 'HDFC0001234',
	}));
}

/** Bulk Create v3 of `count` rows; its batch item. */
async function pay(tag: string, count: number): Promise<{ result: RunResult; batch: IDataObject }> {
	const result = await runGateway(sandbox, {
		items: rows(tag, count),
		workflowId: `${tag}-payroll`,
		credentialType: 'paymentGatewayPayoutApi',
		credentials,
		parameters: { resource: 'payout', operation: 'bulkCreate', currency: 'INR' } as never,
	});
	expect(result.error).toBeUndefined();
	return { result, batch: result.outputs.Gateway[0].json };
}

const ledger = (tag: string) =>
	dataTables.store
		.rowsOf(ledgerName)
		.filter((row) => String(row.reference_no).startsWith(`${tag}-`))
		.map((row) => ({ ...row }));
const states = (tag: string): Record<string, unknown[]> =>
	Object.fromEntries(
		ledger(tag).map((row) => [String(row.reference_no), [row.state, row.utr, row.reason]]),
	);

const body = (requestId: string, results: IDataObject[]) => ({
	event: 'payout.results',
	request_id: requestId,
	sent_at: new Date().toISOString(),
	results: results.map((r) => ({ amount: '300.00', currency: 'INR', ...r })),
});

async function post(payload: object, extra: { t?: string; headers?: Record<string, string> } = {}) {
	const t = 't' in extra ? extra.t : token;
	return await hook.deliver({
		body: payload,
		query: t === undefined ? {} : { t },
		headers: extra.headers,
	});
}

const itemsOf = (delivery: { result?: RunResult }) =>
	(delivery.result?.outputs.Results ?? []).map((item) => item.json);

describe('payout results trigger: who may post', () => {
	it('answers 401 without the token, with a wrong token or a wrong notification secret; the ledger is untouched and nothing runs', async () => {
		const tag = tagOf();
		const { batch } = await pay(tag, 2);
		const before = ledger(tag);
		const payload = body(String(batch.request_id), [
			{ reference_no: `${tag}-0`, status: 'processed', utr: 'UTR0001' },
		]);
		const executions = hook.executions.length;
		const refused = [
			await post(payload, { t: undefined }),
			await post(payload, { t: `${token.slice(0, -1)}x` }),
			await post(payload, { headers: { 'notification-secret': 'not-the-secret' } }),
		];
		expect(refused.map((d) => d.status)).toEqual([401, 401, 401]);
		expect(JSON.stringify(refused.map((d) => d.body))).not.toContain(token);
		expect(ledger(tag)).toEqual(before);
		expect(hook.executions.length).toBe(executions);
		// The right token, and the right secret when one is sent: applied.
		const ok = await post(payload, {
			headers: { 'notification-secret': sandbox.keys.webhook.notificationSecret },
		});
		expect(ok.status).toBe(200);
		expect(states(tag)[`${tag}-0`]).toEqual(['processed', 'UTR0001', null]);
	});

	it('answers 400 to a body that is no results post, and 503 where n8n data tables are off', async () => {
		expect((await post({ hello: 'world' })).status).toBe(400);
		const form = await hook.deliver({
			body: 'nothing=here',
			query: { t: token },
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
		});
		expect(form).toMatchObject({ status: 400, executed: false });
		dataTables.enabled = false;
		const off = await post(body('x', [{ reference_no: 'x', status: 'processed' }]));
		expect(off.status).toBe(503);
		expect(String((off.body as IDataObject).message)).toMatch(
			/^Payout results cannot be applied: n8n's data tables are off, so the payout ledger is the Bulk Create node's own memory/,
		);
	});
});

describe('payout results trigger: one item per row that changed the ledger', () => {
	it('a JSON post with mixed outcomes runs once with one item per row, each with its ledger record', async () => {
		const tag = tagOf();
		const { batch } = await pay(tag, 3);
		const requestId = String(batch.request_id);
		const delivery = await post(
			body(requestId, [
				{ reference_no: `${tag}-0`, status: 'processed', utr: 'SBXN000000000001' },
				{ reference_no: `${tag}-1`, status: 'failed', reason: 'Beneficiary account is closed' },
				{ reference_no: `${tag}-2`, status: 'rejected', reason: 'Invalid IFSC' },
			]),
		);
		expect(delivery).toMatchObject({
			status: 200,
			executed: true,
			body: { received: true, applied: 3, ignored: 0 },
		});
		const items = itemsOf(delivery);
		expect(items).toHaveLength(3);
		expect(items[0]).toMatchObject({
			reference_no: `${tag}-0`,
			state: 'processed',
			utr: 'SBXN000000000001',
			amount: 300,
			currency: 'INR',
			request_id: requestId,
			attempt: 1,
			workflow_id: `${tag}-payroll`,
			execution_id: expect.stringMatching(/^harness-\d+$/),
			result: { status: 'processed', request_id: requestId, utr: 'SBXN000000000001' },
		});
		expect(items.map((i) => [i.state, i.reason])).toEqual([
			['processed', null],
			['failed', 'Beneficiary account is closed'],
			['rejected', 'Invalid IFSC'],
		]);
		expect(states(tag)).toEqual({
			[`${tag}-0`]: ['processed', 'SBXN000000000001', null],
			[`${tag}-1`]: ['failed', null, 'Beneficiary account is closed'],
			[`${tag}-2`]: ['rejected', null, 'Invalid IFSC'],
		});
	});

	it('a form body (the same JSON in field payload) is applied alike; the same post twice runs nothing the second time', async () => {
		const tag = tagOf();
		const { batch } = await pay(tag, 2);
		const json = JSON.stringify(
			body(String(batch.request_id), [
				{ reference_no: `${tag}-0`, status: 'processed', utr: 'UTR-A' },
				{ reference_no: `${tag}-1`, status: 'processed', utr: 'UTR-B' },
			]),
		);
		const form = () =>
			hook.deliver({
				body: new URLSearchParams({ payload: json }).toString(),
				query: { t: token },
				headers: { 'content-type': 'application/x-www-form-urlencoded' },
			});
		const first = await form();
		expect(first).toMatchObject({ status: 200, executed: true });
		expect(itemsOf(first).map((i) => i.utr)).toEqual(['UTR-A', 'UTR-B']);
		const executions = hook.executions.length;
		const again = await form();
		expect(again).toMatchObject({
			status: 200,
			executed: false,
			body: { received: true, applied: 0, ignored: 2 },
		});
		expect(hook.executions.length).toBe(executions);
	});

	it('out of order: a reversal before its processed result ends reversed, and the late processed or queued moves nothing back', async () => {
		const tag = tagOf();
		const { batch } = await pay(tag, 2);
		const requestId = String(batch.request_id);
		const reversed = await post(
			body(requestId, [
				{ reference_no: `${tag}-0`, status: 'reversed', utr: 'UTR-R', reason: 'Credit returned' },
			]),
		);
		expect(itemsOf(reversed)).toEqual([
			expect.objectContaining({ state: 'reversed', utr: 'UTR-R', reason: 'Credit returned' }),
		]);
		const processed = await post(
			body(requestId, [
				{ reference_no: `${tag}-0`, status: 'processed', utr: 'UTR-R' },
				{ reference_no: `${tag}-1`, status: 'processed', utr: 'UTR-P' },
			]),
		);
		// Only the row that moved: the reversed one stays reversed.
		expect(processed.body).toEqual({ received: true, applied: 1, ignored: 1 });
		expect(itemsOf(processed).map((i) => i.reference_no)).toEqual([`${tag}-1`]);
		const late = await post(
			body(requestId, [
				{ reference_no: `${tag}-1`, status: 'queued' },
				{ reference_no: `${tag}-1`, status: 'failed', reason: 'late' },
			]),
		);
		expect(late).toMatchObject({ executed: false, body: { applied: 0, ignored: 2 } });
		expect(states(tag)).toEqual({
			[`${tag}-0`]: ['reversed', 'UTR-R', 'Credit returned'],
			[`${tag}-1`]: ['processed', 'UTR-P', null],
		});
	});

	it("a result for another batch's request_id or an unknown reference changes nothing", async () => {
		const tag = tagOf();
		await pay(tag, 1);
		const before = ledger(tag);
		const delivery = await post(
			body('another-batch', [
				{ reference_no: `${tag}-0`, status: 'failed' },
				{ reference_no: `${tag}-nobody`, status: 'processed' },
			]),
		);
		expect(delivery).toMatchObject({ status: 200, executed: false, body: { applied: 0 } });
		expect(ledger(tag)).toEqual(before);
	});
});

describe('the results address', () => {
	it('Bulk Create with an empty Callback URL and no published results workflow says results will not be received', async () => {
		const { batch } = await pay(tagOf(), 1);
		expect(batch).toMatchObject({
			callbackUrl: '',
			results: expect.stringMatching(
				/^Results of these payouts will not be received: Callback URL is empty and the account has no results address: publish a workflow with the Payment Gateway Payout Results Trigger/,
			),
		});
	});

	it('once published, Bulk Create sends the address with its token (masked in the output) and the results come back into the ledger', async () => {
		await hook.publish();
		const tag = tagOf();
		const processedFrom = hook.executions.length;
		Object.assign(sandbox.state.settings, { payoutCallbackDelayMs: 0, payoutResultStepMs: 0 });
		const { result, batch } = await pay(tag, 2);
		expect(batch).toMatchObject({
			callbackUrl: `results address (workflow ${RESULTS_WORKFLOW})`,
			resultsAddress: `${hook.url}?t=(hidden)`,
		});
		expect(JSON.stringify(result.outputs)).not.toContain(token);
		const sent = sandbox.state.payoutBatches.get(String(batch.request_id))!;
		expect(sent.callback_url).toBe(`${hook.url}?t=${token}`);
		await sandbox.state.payoutCallbacks.idle();
		expect(Object.values(states(tag)).map(([state]) => state)).toEqual(['processed', 'processed']);
		expect(hook.executions.length).toBe(processedFrom + 1);
		sandbox.state.resetSettings();
	});

	it("the token never shows in an error that echoes the request's callback URL", async () => {
		sandbox.faults.inject({
			kind: 'bodyFail',
			path: '/payout/v1/bulk/payouts',
			body: {
				status: 'fail',
				code: 'E0099',
				message: `callback_url ${hook.url}?t=${token} refused`,
			},
		});
		const tag = tagOf();
		const result = await runGateway(sandbox, {
			items: rows(tag, 1),
			workflowId: `${tag}-payroll`,
			credentialType: 'paymentGatewayPayoutApi',
			credentials,
			parameters: { resource: 'payout', operation: 'bulkCreate', currency: 'INR' } as never,
		});
		expect(result.error?.message).toContain('callback_url');
		expect(JSON.stringify({ ...result.error, message: result.error?.message })).not.toContain(
			token,
		);
	});

	it('unpublishing removes the address and keeps the token; publishing again records it with the same token', async () => {
		await hook.unpublish();
		expect(dataTables.store.rowsOf(resultsName).filter((row) => row.url)).toHaveLength(0);
		const { batch } = await pay(tagOf(), 1);
		expect(batch.callbackUrl).toBe('');
		await hook.publish();
		const held = dataTables.store.rowsOf(resultsName);
		expect(held.filter((row) => row.token).map((row) => row.token)).toEqual([token]);
		expect(held.filter((row) => row.url).map((row) => [row.workflow_id, row.url])).toEqual([
			[RESULTS_WORKFLOW, hook.url],
		]);
	});
});
