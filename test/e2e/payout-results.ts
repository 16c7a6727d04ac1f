// Workflows and reads shared by the payout results suites in real n8n (regular and queue mode).
import { randomUUID } from 'node:crypto';

import { payoutAccount } from '../../nodes/PaymentGateway/actions/payout/ledger/account';
import { startSandbox, type Sandbox } from '../sandbox';
import { N8n, type CredentialEntry, type WorkflowJson } from './n8n';
import {
	CREDENTIAL,
	payoutCredential,
	tableRows,
	webhookPayroll,
	workflowOf,
} from './payout-ledger';

// Its reads moved to payout-ledger.ts; kept importable from here.
export { tableRows } from './payout-ledger';

export const RESULTS = 'e2eResultsTrigger';
export const RESULTS_PATH = 'payout-results';
const TRIGGER = 'n8n-nodes-payment-gateway.paymentGatewayPayoutTrigger';
const WEBHOOK_CREDENTIAL = { id: 'e2eResultsHook01', name: 'E2E Results Webhook' };

/** The payout credential (Bulk Create's and the trigger's) and the webhook credential. */
export function credentialsOf(sandbox: Sandbox): CredentialEntry[] {
	return [
		payoutCredential(sandbox),
		{
			...WEBHOOK_CREDENTIAL,
			type: 'paymentGatewayWebhookApi',
			data: { notificationSecret: sandbox.keys.webhook.notificationSecret },
		},
	];
}

/** Code returning NEFT payout rows, each `[reference, remark]` (the remark asks the sandbox's outcome). */
const rowsOf = (rows: Array<[string, string]>) =>
	`return ${JSON.stringify(rows)}.map(([ref, remark], i) => ({ json: { 'Reference No': ref, 'Payment Mode': 'NEFT', Amount: 100 + i, ` +
	`Remark: remark, 'Beneficiary Name': 'Asha Rao', 'Beneficiary Account Number': '123456789012', 'Beneficiary IFSC': 'HDFC0001234' } }));`;

/** Webhook → Code (the rows) → Bulk Create v3 with Callback URL left empty. */
export const payroll = (id: string, rows: Array<[string, string]>): WorkflowJson =>
	webhookPayroll(id, rowsOf(rows));

/** The results workflow: the Payout Results Trigger alone. */
export const resultsWorkflow: WorkflowJson = workflowOf(RESULTS, [
	{
		id: randomUUID(),
		name: 'Payout Results',
		type: TRIGGER,
		typeVersion: 1,
		position: [0, 0],
		webhookId: randomUUID(),
		parameters: { path: RESULTS_PATH },
		credentials: {
			paymentGatewayPayoutApi: CREDENTIAL,
			paymentGatewayWebhookApi: WEBHOOK_CREDENTIAL,
		},
	},
]);

/** What a results suite runs against: the sandbox, n8n and the account's table names. */
export interface ResultsSuite {
	sandbox: Sandbox;
	n8n: N8n;
	ledgerName: string;
	resultsName: string;
}

/**
 * Starts a sandbox (`seed`) and n8n with the credentials, the results workflow and `payrolls`
 * imported and published. In queue mode, set the queue environment first.
 */
export async function startWithResults(
	seed: number,
	payrolls: WorkflowJson[],
): Promise<ResultsSuite> {
	const sandbox = await startSandbox({ seed, transactionCount: 1 });
	const n8n = await N8n.create();
	const credentials = credentialsOf(sandbox);
	const { tableName, resultsTableName } = payoutAccount(credentials[0].data as never);
	await n8n.importCredentials(credentials);
	const workflows = [resultsWorkflow, ...payrolls];
	await n8n.importWorkflows(workflows);
	for (const workflow of workflows) await n8n.publish(workflow.id);
	await n8n.start();
	return { sandbox, n8n, ledgerName: tableName, resultsName: resultsTableName };
}

/** The account's token, once activation has recorded the address (n8n registers the webhook first). */
export async function recordedToken(
	n8n: N8n,
	resultsName: string,
): Promise<{
	token: string;
	addresses: unknown[][];
}> {
	const deadline = Date.now() + 60_000;
	let held = await tableRows(n8n, resultsName);
	while (!held.some((row) => row.url) && Date.now() < deadline)
		held = await tableRows(n8n, resultsName);
	return {
		token: String(held.find((row) => row.token)?.token),
		addresses: held.filter((row) => row.url).map((row) => [row.workflow_id, row.url]),
	};
}
