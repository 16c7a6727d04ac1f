// The example workflows (examples/*.json) in real n8n against an in-process sandbox: imported as
// they are, with the credentials of examples/credentials.template.json; manual ones run with
// `n8n execute`, webhook and trigger ones published and driven over HTTP.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { payoutAccount } from '../../nodes/PaymentGateway/actions/payout/ledger/account';
import { startSandbox, type Sandbox } from '../sandbox';
import { orderData } from '../sandbox/testClient';
import {
	ended,
	executeInEditor,
	executionWhere,
	expectPayrollBatch,
	expectPayrollRouted,
	expectResultsRuns,
} from './examples.payroll';
import { TRIGGER_PATH } from './fixtures';
import { N8n, nodeItems, type CredentialEntry, type Execution, type WorkflowJson } from './n8n';
import { recordedToken } from './payout-results';

// Plain CommonJS (no build step, also a CLI for scripts): fills the template's {{placeholders}}.
const { fillCredentials } = require('../../examples/fill-credentials.js') as {
	fillCredentials: (values: unknown) => CredentialEntry[];
};

// Every examples/*.json but the credentials template is a workflow.
const EXAMPLES = resolve(__dirname, '../../examples');
const workflows: Record<string, WorkflowJson> = Object.fromEntries(
	readdirSync(EXAMPLES)
		.filter((file) => file.endsWith('.json') && file !== 'credentials.template.json')
		.map((file) => [
			file.replace(/\.json$/, ''),
			JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as WorkflowJson,
		]),
);
const wf = (file: string) => {
	const workflow = workflows[file];
	if (!workflow) throw new Error(`examples/${file}.json missing`);
	return workflow;
};
const webhookIdOf = (workflow: WorkflowJson, node: string) =>
	String(workflow.nodes.find((n) => n.name === node)?.webhookId);

const CHECKOUT = wf('checkout-to-fulfilment.checkout');
const EVENTS = wf('checkout-to-fulfilment.payment-events');
const PAYOUTS = wf('scheduled-payouts');
const SAVE_CARD = wf('save-card-then-charge.save-card');
const CHARGE = wf('save-card-then-charge.charge');
const MONTH_END = wf('month-end');
const PAYROLL = wf('monthly-payroll');
const RESULTS = wf('payout-results');

let sandbox: Sandbox;
let n8n: N8n;
let eventsUrl: string;
let chargeUrl: string;
let checkoutUrl: string;
let resultsUrl: string;
let resultsTable: string;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
	sandbox = await startSandbox({ seed: 31, transactionCount: 60 });
	n8n = await N8n.create();
	eventsUrl = n8n.webhookUrl(webhookIdOf(EVENTS, 'Payment Gateway Trigger'), TRIGGER_PATH);
	chargeUrl = n8n.webhookUrl(webhookIdOf(CHARGE, 'Card saved'), TRIGGER_PATH);
	checkoutUrl = `${n8n.baseUrl}/webhook/checkout`;
	resultsUrl = `${n8n.baseUrl}/webhook/payout-results`;
	const credentials = fillCredentials(sandbox);
	resultsTable = payoutAccount(
		credentials.find((c) => c.type === 'paymentGatewayPayoutApi')!
			.data as ICredentialDataDecryptedObject,
	).resultsTableName;
	await n8n.importCredentials(credentials);
	// Every example file unchanged, in one import (an array of workflows); payment-tools-mcp is
	// run by mcp-tools.e2e.ts.
	expect(Object.keys(workflows).sort()).toEqual([
		'checkout-to-fulfilment.checkout',
		'checkout-to-fulfilment.payment-events',
		'month-end',
		'monthly-payroll',
		'payment-link-wait',
		'payment-tools-mcp',
		'payout-results',
		'save-card-then-charge.charge',
		'save-card-then-charge.save-card',
		'scheduled-payouts',
	]);
	const file = join(n8n.userFolder, 'examples.json');
	writeFileSync(file, JSON.stringify(Object.values(workflows)));
	const imported = await n8n.cli(['import:workflow', `--input=${file}`]);
	if (imported.code !== 0)
		throw new Error(`import:workflow failed:\n${(imported.stdout + imported.stderr).slice(-4000)}`);
}, 300_000);

afterAll(async () => {
	await n8n?.dispose();
	await sandbox?.stop();
});

/** A hosted order over the sandbox's API (no webhook URL), paid on the test endpoint: CAPTURED now. */
async function capturedOrder(amount: number, currency = 'AED'): Promise<string> {
	const data = orderData({ urls: { success: '', cancel: '', failure: '', webhook_url: '' } });
	data.order_details.amount = amount;
	data.order_details.currency = currency;
	const response = await fetch(`${sandbox.baseUrl}/orders/v1/create`, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			'merchant-key': sandbox.keys.hosted.merchantKey,
			'merchant-secret': sandbox.keys.hosted.merchantSecret,
		},
		body: JSON.stringify({ data }),
	});
	const body = (await response.json()) as { p_order_id?: number };
	expect(response.status).toBe(200);
	const pOrderId = String(body.p_order_id);
	await complete(pOrderId, 'pay');
	const record = sandbox.state.transactionsByPOrderId.get(pOrderId)!;
	expect(record.status).toBe('CAPTURED');
	return record.transaction_id;
}

/** The hosted page's result through the sandbox's test endpoint. */
async function complete(pOrderId: string, outcome: 'pay' | 'decline'): Promise<void> {
	const response = await fetch(`${sandbox.baseUrl}/__sandbox/orders/${pOrderId}/complete`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ outcome }),
	});
	expect(response.status).toBe(200);
}

const ran = (execution: Execution | undefined, node: string) =>
	nodeItems(execution?.data?.resultData.runData, node);
const succeeded = (executions: Execution[]) => executions.filter((e) => e.status === 'success');

describe('example workflows, run by hand (n8n execute)', () => {
	it('scheduled payouts: validated, then the validated file submitted once under one Request ID', async () => {
		const result = await n8n.execute(PAYOUTS.id);
		expect(result.run).toBeDefined();
		expect(result.code).toBe(0);

		const [report] = result.items('Validate payouts');
		expect(report.json).toMatchObject({
			validateOnly: true,
			valid: true,
			total_records: 3,
			failing_rows: 0,
			violations: [],
		});
		const requestId = String(report.json.request_id);
		expect(requestId).toMatch(/^payouts-\d{8}-\d{6}$/);

		const [submitted] = result.items('Submit payouts');
		expect(submitted.json).toMatchObject({
			request_id: requestId,
			total_records: 3,
			payouts_queued: 3,
		});
		expect(result.items('Rows to fix')).toHaveLength(0);

		expect([...sandbox.state.payoutBatches.keys()]).toEqual([requestId]);
		const batch = sandbox.state.payoutBatches.get(requestId)!;
		expect(batch).toMatchObject({ currency: 'INR', remark: 'Weekly vendor payouts' });
		expect(batch.rows.map((row) => [row['Reference No'], row['Payment Mode'], row.Amount])).toEqual(
			[
				['VENDOR-0001', 'NEFT', '12500.5'],
				['VENDOR-0002', 'IMPSP2P', '2400'],
				['VENDOR-0003', 'IFT', '780.25'],
			],
		);
		// One upload: validation sent nothing.
		expect(sandbox.requests.filter((r) => r.path.endsWith('/v1/bulk/payouts'))).toHaveLength(1);
	});

	it("month-end: 5% refunds of this month's captured orders of 1,000 or more, invoices for the others", async () => {
		// Orders paid now, so this month has captured transactions whatever the date.
		const big = await capturedOrder(1500);
		const small = await capturedOrder(200);
		// One whose PSP takes no documents: its upload is refused (203) and listed, the others go on.
		const refusing = await capturedOrder(300);
		sandbox.state.transactionsById.get(refusing)!.psp =
			sandbox.state.settings.documentUnsupportedPsps[0];
		const monthStart = new Date();
		monthStart.setUTCDate(1);
		monthStart.setUTCHours(0, 0, 0, 0);
		const nextMonth = new Date(monthStart);
		nextMonth.setUTCMonth(nextMonth.getUTCMonth() + 1);
		const captured = sandbox.state.transactions.filter(
			(t) =>
				t.status === 'CAPTURED' &&
				t.internal.time >= monthStart.getTime() &&
				t.internal.time < nextMonth.getTime(),
		);
		const rebated = captured.filter((t) => Number(t.amount) >= 1000);
		const invoiced = captured.filter((t) => Number(t.amount) < 1000);
		expect(rebated.map((t) => t.transaction_id)).toContain(big);
		expect(invoiced.map((t) => t.transaction_id)).toContain(small);
		sandbox.clearRequests();

		const result = await n8n.execute(MONTH_END.id);
		expect(result.run).toBeDefined();
		expect(result.code).toBe(0);
		expect(result.items('Captured this month')).toHaveLength(captured.length);

		// Every refund reached the sandbox with 5% of the amount, in the transaction's currency.
		const refunds = sandbox.requests
			.filter((r) => r.path === '/orders/v1/transaction')
			.map(
				(r) =>
					JSON.parse(r.body.toString('utf8')) as {
						action: string;
						transaction_id: string;
						amount: { currencyCode: string; value: number };
					},
			);
		expect(refunds.map((r) => r.transaction_id).sort()).toEqual(
			rebated.map((t) => t.transaction_id).sort(),
		);
		for (const refund of refunds) {
			const record = sandbox.state.transactionsById.get(refund.transaction_id)!;
			expect(refund).toMatchObject({
				action: 'REFUND',
				amount: {
					currencyCode: record.currency,
					value: Math.round(Number(record.amount) * 5) / 100,
				},
			});
			expect(record.status).toBe('PARTIALLY_REFUNDED');
		}
		const refunded = result.items('Refund 5% rebate');
		expect(refunded).toHaveLength(rebated.length);
		for (const item of refunded) expect(item.json).toMatchObject({ status: 'PARTIALLY_REFUNDED' });
		expect(result.items('Refunds to check')).toHaveLength(0);

		// Invoices: uploaded for the others; refused ones (a PSP without document support) listed.
		const documents = sandbox.state.documents.map((d) => d.transaction_id);
		const toCheck = result.items('Uploads to check');
		const uploadFailed = toCheck.map((i) => String(i.json.transaction_id));
		expect([...documents, ...uploadFailed].sort()).toEqual(
			invoiced.map((t) => t.transaction_id).sort(),
		);
		expect(documents).toContain(small);
		expect(uploadFailed).toContain(refusing);
		for (const id of uploadFailed)
			expect(sandbox.state.settings.documentUnsupportedPsps).toContain(
				sandbox.state.transactionsById.get(id)!.psp,
			);
		for (const item of toCheck)
			expect(item.json).toMatchObject({ code: '203', error: expect.any(String) });
		const mine = sandbox.state.documents.find((d) => d.transaction_id === small)!;
		expect(mine).toMatchObject({
			document_type: 'INVOICE',
			file_name: expect.stringMatching(/^INV-.+\.pdf$/),
		});
		expect(mine.data.subarray(0, 5).toString('latin1')).toBe('%PDF-');
	});

	let saveCardOrder: string;

	it("save card: an AUTH_REVERSAL order whose webhook goes to the charge workflow's trigger", async () => {
		const result = await n8n.execute(SAVE_CARD.id);
		expect(result.code).toBe(0);
		const [order] = result.items('Save Card');
		expect(String(order.json.payment_link)).toContain(sandbox.checkoutUrl);
		saveCardOrder = String(order.json.p_order_id);

		const stored = sandbox.state.orders.get(saveCardOrder)!;
		expect(stored).toMatchObject({ class: 'ECOM', action: 'AUTH_REVERSAL' });
		expect(stored.request.data.customer_details.m_customer_id).toBe('CUST-1001');
		expect(stored.request.data.urls.webhook_url).toBe(chargeUrl);
	});

	describe('published, under n8n start', () => {
		beforeAll(async () => {
			for (const workflow of [CHECKOUT, EVENTS, CHARGE, RESULTS]) await n8n.publish(workflow.id);
			await n8n.start();
			// Readiness comes before the published workflows' webhooks are registered. A wrong secret
			// is refused by the trigger itself and CORS preflights start nothing: both probe the routes.
			const registered = async () =>
				(
					await Promise.all([
						...[eventsUrl, chargeUrl].map((url) =>
							fetch(url, {
								method: 'POST',
								headers: { 'notification-secret': 'probe' },
								body: '{}',
							}).then((r) => r.status),
						),
						fetch(checkoutUrl, {
							method: 'OPTIONS',
							headers: {
								origin: 'http://probe.localhost',
								'access-control-request-method': 'POST',
							},
						}).then((r) => r.status),
					])
				).every((status) => status !== 404);
			const deadline = Date.now() + 60_000;
			while (!(await registered())) {
				if (Date.now() > deadline)
					throw new Error(`webhooks never registered:\n${n8n.log().slice(-4000)}`);
				await sleep(250);
			}
			await n8n.waitForWebhooks([resultsUrl]);
		}, 900_000);

		async function checkout(body: unknown) {
			const response = await fetch(checkoutUrl, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(body),
			});
			return { status: response.status, body: (await response.json()) as Record<string, any> };
		}

		it('checkout: POST an order to the webhook → the payment link; a paid order is routed to "Fulfil order"', async () => {
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

			await complete(paidOrder, 'pay');
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
			const answer = await checkout({
				order_id: 'WEB-1002',
				amount: 40,
				customer: { name: 'Omar Said', email: 'omar@example.com' },
			});
			expect(answer.status).toBe(200);
			const pOrderId = String(answer.body.p_order_id);
			await complete(pOrderId, 'decline');
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
			sandbox.clearRequests();
			const answer = await checkout({ order_id: 'WEB-1003', amount: 0.5, currency: 'AED' });
			expect(answer).toMatchObject({
				status: 422,
				body: { error: expect.stringMatching(/amount/i) },
			});
			expect(sandbox.requests.filter((r) => r.path === '/orders/v1/create')).toHaveLength(0);
		});

		it('save card then charge: the tokenisation webhook starts Charge Saved Card, routed on outcome "paid"', async () => {
			await complete(saveCardOrder, 'pay');
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

		it('monthly payroll: Execute workflow pays the sheet, waits, then each row on Paid or Failed (the failed ones e-mailed to finance); the results workflow gets each row result once', async () => {
			// Published, the results workflow is the account's results address.
			const { addresses } = await recordedToken(n8n, resultsTable);
			expect(addresses).toEqual([[RESULTS.id, resultsUrl]]);
			// The demo's timing: results seconds after the upload, after Wait for Results' first look.
			Object.assign(sandbox.state.settings, {
				payoutCallbackDelayMs: 5000,
				payoutResultStepMs: 5000,
			});
			const id = await executeInEditor(n8n, PAYROLL.id, 'Run now');
			const waiting = await executionWhere(
				n8n,
				PAYROLL.id,
				(e) => e.id === id && (e.status === 'waiting' || ended(e)),
				120_000,
			);
			expect(waiting.status).toBe('waiting');
			const ref = expectPayrollBatch(sandbox, resultsUrl);

			await expectResultsRuns(n8n, RESULTS.id, ref);

			// The payroll at its first check (1 minute after the wait began): each row on its output.
			const done = await executionWhere(n8n, PAYROLL.id, (e) => e.id === id && ended(e), 240_000);
			expect(done.status).toBe('success');
			expectPayrollRouted(done, ref);
		}, 600_000);
	});
});
