// The example workflows (examples/*.json) in real n8n, set up once for examples.e2e.ts: loaded as
// they are, imported in one `import:workflow` with the credentials of
// examples/credentials.template.json filled for an in-process sandbox; the published ones started
// under `n8n start`. And the sandbox-side steps the cases share.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { payoutAccount } from '../../nodes/PaymentGateway/actions/payout/ledger/account';
import { startSandbox, type Sandbox } from '../sandbox';
import { orderData, sandboxClient } from '../sandbox/testClient';
import { TRIGGER_PATH } from './fixtures';
import { N8n, nodeItems, type CredentialEntry, type Execution, type WorkflowJson } from './n8n';

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

export const CHECKOUT = wf('checkout-to-fulfilment.checkout');
export const EVENTS = wf('checkout-to-fulfilment.payment-events');
export const PAYOUTS = wf('scheduled-payouts');
export const SAVE_CARD = wf('save-card-then-charge.save-card');
export const CHARGE = wf('save-card-then-charge.charge');
export const MONTH_END = wf('month-end');
export const PAYROLL = wf('monthly-payroll');
export const RESULTS = wf('payout-results');

/** What the cases share: the sandbox, n8n, the published workflows' addresses. */
export interface ExamplesEnv {
	sandbox: Sandbox;
	n8n: N8n;
	eventsUrl: string;
	chargeUrl: string;
	checkoutUrl: string;
	resultsUrl: string;
	resultsTable: string;
	/** The save-card example's order, made by hand, completed by the published charge case. */
	saveCardOrder?: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The sandbox and n8n with every example imported (not started). `n8nEnv`: added to n8n's
 * environment (the test setting that shortens Wait for Results' checks).
 */
export async function setUpExamples(n8nEnv: NodeJS.ProcessEnv): Promise<ExamplesEnv> {
	const sandbox = await startSandbox({ seed: 31, transactionCount: 60 });
	const n8n = await N8n.create({ env: n8nEnv });
	const eventsUrl = n8n.webhookUrl(webhookIdOf(EVENTS, 'Payment Gateway Trigger'), TRIGGER_PATH);
	const chargeUrl = n8n.webhookUrl(webhookIdOf(CHARGE, 'Card saved'), TRIGGER_PATH);
	const checkoutUrl = `${n8n.baseUrl}/webhook/checkout`;
	const resultsUrl = `${n8n.baseUrl}/webhook/payout-results`;
	const credentials = fillCredentials(sandbox);
	const resultsTable = payoutAccount(
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
	return { sandbox, n8n, eventsUrl, chargeUrl, checkoutUrl, resultsUrl, resultsTable };
}

/** Publishes the checkout, payment-events, charge and results workflows; n8n start, serving them. */
export async function publishExamples(env: ExamplesEnv): Promise<void> {
	const { n8n, eventsUrl, chargeUrl, checkoutUrl, resultsUrl } = env;
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
}

/** A hosted order over the sandbox's API (no webhook URL), paid on the test endpoint: CAPTURED now. */
export async function capturedOrder(
	sandbox: Sandbox,
	amount: number,
	currency = 'AED',
): Promise<string> {
	const data = orderData({ urls: { success: '', cancel: '', failure: '', webhook_url: '' } });
	data.order_details.amount = amount;
	data.order_details.currency = currency;
	const response = await sandboxClient(sandbox).create(data);
	const body = response.body as { p_order_id?: number };
	expect(response.status).toBe(200);
	const pOrderId = String(body.p_order_id);
	await complete(sandbox, pOrderId, 'pay');
	const record = sandbox.state.transactionsByPOrderId.get(pOrderId)!;
	expect(record.status).toBe('CAPTURED');
	return record.transaction_id;
}

/** The hosted page's result through the sandbox's test endpoint. */
export async function complete(
	sandbox: Sandbox,
	pOrderId: string,
	outcome: 'pay' | 'decline',
): Promise<void> {
	const response = await fetch(`${sandbox.baseUrl}/__sandbox/orders/${pOrderId}/complete`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ outcome }),
	});
	expect(response.status).toBe(200);
}

export const ran = (execution: Execution | undefined, node: string) =>
	nodeItems(execution?.data?.resultData.runData, node);
export const succeeded = (executions: Execution[]) =>
	executions.filter((e) => e.status === 'success');
