// Payout → Wait for Results through n8n-core's engine: Bulk Create's batches, the account's ledger
// in the harness's data tables (as n8n's DataTableProxyService serves them), results applied to it
// by the ledger's own rule (applyResult, as the results receiver applies them), and each check
// run as n8n runs a waiting execution on when its wait ends (handleWaitingState, with the door's
// time-out look). Real n8n: test/e2e/payout-wait.e2e.ts.
import type { IDataObject, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { payoutAccount } from '../../../nodes/PaymentGateway/actions/payout/ledger/account';
import type { RowResult } from '../../../nodes/PaymentGateway/actions/payout/ledger/results';
import { applyResult } from '../../../nodes/PaymentGateway/actions/payout/ledger/results';
import { openTable } from '../../../nodes/PaymentGateway/actions/payout/ledger/table';
import type { HarnessWorkflow, RunOptions, RunResult } from '../../harness';
import { dataTables, runAfterWaitLimit, runWorkflow, WaitingExecutions } from '../../harness';
import type { Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import { GATEWAY, sandboxCredentials } from '../support';

let sandbox: Sandbox;
let runs = 0;

beforeAll(async () => {
	sandbox = await startSandbox();
});
afterAll(async () => await sandbox.stop());
afterEach(() => {
	dataTables.enabled = true;
});

const MINUTE = 60_000;
const tagOf = () => `W${process.pid % 10000}R${++runs}`;

const rows = (tag: string, count: number): IDataObject[] =>
	Array.from({ length: count }, (_, i) => ({
		'Reference No': `${tag}-${i}`,
		'Payment Mode': 'NEFT',
		Amount: 500 + i,
		Remark: 'Salary',
		'Beneficiary Name': 'Meera Iyer',
		'Beneficiary Account Number': '123456789012',
		'Beneficiary IFSC': 'HDFC0001234',
	}));

const credential = (type: string) => ({ id: type, name: type });

const waitNode = (parameters: IDataObject = {}, continueOnFail = false) => ({
	name: 'Wait',
	type: GATEWAY,
	parameters: { resource: 'payout', operation: 'waitForResults', ...parameters } as INodeParameters,
	credentials: { paymentGatewayPayoutApi: credential('paymentGatewayPayoutApi') },
	...(continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
});

/** Start (payout rows) → Bulk Create → Wait for Results: the payroll workflow. */
function payroll(tag: string, items: IDataObject[], wait: IDataObject = {}): HarnessWorkflow {
	return {
		id: `${tag}-payroll`,
		nodes: [
			{ name: 'Start', type: 'harness.start', parameters: { items: items as never, binary: [] } },
			{
				name: 'Payouts',
				type: GATEWAY,
				parameters: { resource: 'payout', operation: 'bulkCreate', currency: 'INR' },
				credentials: { paymentGatewayPayoutApi: credential('paymentGatewayPayoutApi') },
			},
			waitNode(wait),
		],
		connections: {
			Start: { main: [[{ node: 'Payouts', type: 'main', index: 0 }]] },
			Payouts: { main: [[{ node: 'Wait', type: 'main', index: 0 }]] },
		},
	};
}

/** Start → Bulk Create only: its batch items, for a Wait for Results run later. */
async function bulkCreate(tag: string, count: number): Promise<IDataObject> {
	const { id, nodes, connections } = payroll(tag, rows(tag, count));
	const result = await runWorkflow(
		{ id, nodes: nodes.slice(0, 2), connections: { Start: connections.Start } },
		options(),
	);
	expect(result.error).toBeUndefined();
	return result.outputs.Payouts[0].json;
}

/** Start (given items, such as Bulk Create's batch items) → Wait for Results. */
function waitAlone(items: IDataObject[], wait: IDataObject = {}, continueOnFail = false) {
	return {
		id: `wait-${++runs}`,
		nodes: [
			{ name: 'Start', type: 'harness.start', parameters: { items: items as never, binary: [] } },
			waitNode(wait, continueOnFail),
		],
		connections: { Start: { main: [[{ node: 'Wait', type: 'main', index: 0 }]] } },
	} satisfies HarnessWorkflow;
}

const options = (): RunOptions => ({ credentials: sandboxCredentials(sandbox), mode: 'webhook' });

/** The account's ledger table, opened as the results receiver opens it. */
async function ledger() {
	const store = dataTables.store;
	const data = sandboxCredentials(sandbox).find((c) => c.type === 'paymentGatewayPayoutApi')!.data;
	const account = payoutAccount(data);
	const aggregate = store.makeAggregateOperations('harness-project');
	const table = await openTable(
		aggregate,
		async (id) => store.makeDataTableOperations('harness-project', id),
		account.tableName,
	);
	return { table, key: account.key };
}

async function apply(results: RowResult[]): Promise<void> {
	const { table, key } = await ledger();
	for (const result of results) expect((await applyResult(table, key, result)).applied).toBe(true);
}

/** Per output (Still Pending, Paid, Failed): the reference_no of each item. */
const refsPerOutput = (outputs: INodeExecutionData[][] | undefined) =>
	[0, 1, 2].map((i) => (outputs?.[i] ?? []).map((item) => item.json.reference_no));

const waitTillOf = (run: RunResult) => run.run?.waitTill?.getTime() ?? NaN;

describe('payout.waitForResults', () => {
	it('results already final before the wait: routed at once, one item per row on its output, paired to its batch', async () => {
		const tag = tagOf();
		const batch = await bulkCreate(tag, 3);
		await apply([
			{ reference_no: `${tag}-0`, state: 'processed', utr: 'UTR-0' },
			{ reference_no: `${tag}-1`, state: 'failed', reason: 'Account closed' },
			{ reference_no: `${tag}-2`, state: 'rejected', reason: 'Invalid IFSC' },
		]);
		const result = await runWorkflow(waitAlone([batch]), options());
		expect(result.error).toBeUndefined();
		expect(result.run?.waitTill).toBeUndefined();
		expect(result.run?.status).toBe('success');
		const outputs = result.allOutputs.Wait;
		expect(refsPerOutput(outputs)).toEqual([[], [`${tag}-0`], [`${tag}-1`, `${tag}-2`]]);
		expect(outputs[1][0].json).toMatchObject({
			outcome: 'paid',
			state: 'processed',
			utr: 'UTR-0',
			request_id: batch.request_id,
			amount: 500,
			currency: 'INR',
			account_last4: '9012',
		});
		expect(
			outputs[2].map((item) => [item.json.outcome, item.json.state, item.json.reason]),
		).toEqual([
			['failed', 'failed', 'Account closed'],
			['failed', 'rejected', 'Invalid IFSC'],
		]);
		expect([...outputs[1], ...outputs[2]].map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 0 },
			{ item: 0 },
		]);
		// The account number's last 4 digits only.
		expect(JSON.stringify(outputs)).not.toContain('123456789012');
	});

	it('some rows pending: the execution waits (nothing on any output) until the check after 1 minute; the results applied meanwhile route every row at that check', async () => {
		const tag = tagOf();
		const workflow = payroll(tag, rows(tag, 3));
		const before = Date.now();
		const waiting = await runWorkflow(workflow, options());
		expect(waiting.error).toBeUndefined();
		expect(waiting.run?.status).toBe('waiting');
		expect(refsPerOutput(waiting.allOutputs.Wait)).toEqual([[], [], []]);
		expect(waitTillOf(waiting) - before).toBeGreaterThanOrEqual(MINUTE);
		expect(waitTillOf(waiting) - Date.now()).toBeLessThanOrEqual(MINUTE);

		await apply([
			{ reference_no: `${tag}-0`, state: 'processed', utr: 'UTR-A' },
			{ reference_no: `${tag}-2`, state: 'failed', reason: 'Account closed' },
		]);
		// The first check: one row still queued → waits again, for the check 2 minutes later.
		const second = await runAfterWaitLimit(workflow, waiting, options());
		expect(second.error).toBeUndefined();
		expect(second.run?.status).toBe('waiting');
		expect(refsPerOutput(second.allOutputs.Wait)).toEqual([[], [], []]);
		expect(waitTillOf(second) - Date.now()).toBeGreaterThan(MINUTE);
		expect(waitTillOf(second) - Date.now()).toBeLessThanOrEqual(2 * MINUTE);

		await apply([{ reference_no: `${tag}-1`, state: 'processed', utr: 'UTR-B' }]);
		const done = await runAfterWaitLimit(workflow, second, options());
		expect(done.error).toBeUndefined();
		expect(done.run?.status).toBe('success');
		expect(refsPerOutput(done.allOutputs.Wait)).toEqual([
			[],
			[`${tag}-0`, `${tag}-1`],
			[`${tag}-2`],
		]);
		expect(done.allOutputs.Wait[1].map((item) => item.json.utr)).toEqual(['UTR-A', 'UTR-B']);
	});

	it("a call at the waiting execution's address resumes nothing: the execution keeps waiting", async () => {
		const tag = tagOf();
		const workflow = payroll(tag, rows(tag, 1));
		const waiting = await runWorkflow(workflow, options());
		expect(waiting.run?.status).toBe('waiting');
		const executions = new WaitingExecutions();
		const execution = executions.add(workflow, waiting, options());
		const url = executions.resumeUrl(execution, 'http://127.0.0.1').replace('http://127.0.0.1', '');
		const body = JSON.stringify({ reference_no: `${tag}-0`, state: 'processed' });
		const response = await executions.answer({
			method: 'POST',
			url,
			headers: { 'content-type': 'application/json' },
			query: {},
			rawBody: Buffer.from(body),
		});
		expect(response.statusCode).toBe(200);
		expect(response.body).toMatchObject({ received: true, resumed: false });
		expect(execution.state).toBe('waiting');
		expect(execution.resumed).toBeUndefined();
	});

	it('the wait limit reached: the rows not final leave on Still Pending with their state, the others on Paid / Failed', async () => {
		const tag = tagOf();
		const workflow = payroll(tag, rows(tag, 3), { waitLimit: 2, waitLimitUnit: 'minutes' });
		const waiting = await runWorkflow(workflow, options());
		expect(waiting.run?.status).toBe('waiting');
		await apply([
			{ reference_no: `${tag}-1`, state: 'processed', utr: 'UTR-R' },
			{ reference_no: `${tag}-1`, state: 'reversed', reason: 'Returned by bank' },
		]);
		// Checks after 1 minute, then at the limit (2 minutes: the 2-minute step would pass it).
		const check = await runAfterWaitLimit(workflow, waiting, options());
		expect(check.run?.status).toBe('waiting');
		expect(waitTillOf(check) - waitTillOf(waiting)).toBe(MINUTE);
		const last = await runAfterWaitLimit(workflow, check, options());
		expect(last.error).toBeUndefined();
		expect(last.run?.status).toBe('success');
		const outputs = last.allOutputs.Wait;
		expect(refsPerOutput(outputs)).toEqual([[`${tag}-0`, `${tag}-2`], [], [`${tag}-1`]]);
		expect(outputs[0].map((item) => [item.json.outcome, item.json.state])).toEqual([
			['pending', 'queued'],
			['pending', 'queued'],
		]);
		expect(outputs[2][0].json).toMatchObject({ outcome: 'failed', state: 'reversed' });
	});

	it('batches of several input items: each row paired to the batch item that named it', async () => {
		const tag = tagOf();
		const first = await bulkCreate(tag, 1);
		const other = `${tag}x`;
		const second = await bulkCreate(other, 2);
		await apply([
			{ reference_no: `${tag}-0`, state: 'processed' },
			{ reference_no: `${other}-0`, state: 'failed' },
			{ reference_no: `${other}-1`, state: 'processed' },
		]);
		const batches = [first, second];
		const result = await runWorkflow(waitAlone(batches), options());
		expect(result.error).toBeUndefined();
		const outputs = result.allOutputs.Wait;
		expect(outputs[1].map((item) => [item.json.reference_no, item.pairedItem])).toEqual([
			[`${tag}-0`, { item: 0 }],
			[`${other}-1`, { item: 1 }],
		]);
		expect(outputs[2].map((item) => [item.json.reference_no, item.pairedItem])).toEqual([
			[`${other}-0`, { item: 1 }],
		]);
	});

	it("where the ledger is the node's memory (n8n's data tables off), it refuses: nothing can be known", async () => {
		dataTables.enabled = false;
		const result = await runWorkflow(waitAlone([{ request_id: 'n8n-anything' }]), options());
		expect(result.error?.message).toBe(
			"The payouts' results cannot be known without n8n's data tables (n8n's data tables are off)",
		);
		expect(result.run?.waitTill).toBeUndefined();
	});

	it('refuses a batch the ledger does not know, naming the item and its request_id', async () => {
		const result = await runWorkflow(waitAlone([{ request_id: 'n8n-never-sent' }]), options());
		expect(result.error?.message).toMatch(
			/^No payout with request_id n8n-never-sent in the payout ledger "Payout ledger /,
		);
		expect((result.error as { context?: IDataObject }).context?.itemIndex).toBe(0);
	});

	it.each([
		[{ waitLimit: 0 }, /^Invalid Wait Limit must be above 0/],
		[{ waitLimit: '={{ "soon" }}' }, /^Invalid Wait Limit/],
		[{ waitLimit: 367 }, /^Invalid Wait Limit must be at most 366 days/],
		[{ requestIds: '={{ $json.nothing }}' }, /^Invalid Request IDs is required/],
		[{ requestIds: 'x'.repeat(31) }, /^Invalid Request IDs must each be at most 30 characters/],
	])('checks its parameters before anything is read (%p)', async (parameters, message) => {
		const result = await runWorkflow(waitAlone([{ request_id: 'n8n-x' }], parameters), options());
		expect(result.error?.message).toMatch(message);
		expect(result.run?.waitTill).toBeUndefined();
	});

	it('with continue-on-fail the failure is an item on Still Pending, paired to its item', async () => {
		const result = await runWorkflow(
			waitAlone([{ request_id: 'n8n-never-sent' }], {}, true),
			options(),
		);
		expect(result.error).toBeUndefined();
		const outputs = result.allOutputs.Wait;
		expect(outputs[0]).toHaveLength(1);
		expect(String(outputs[0][0].json.error)).toMatch(/^No payout with request_id n8n-never-sent/);
		expect(outputs[0][0].pairedItem).toEqual({ item: 0 });
	});
});
