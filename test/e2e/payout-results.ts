// Workflows and reads shared by the payout results suites in real n8n (regular and queue mode).
import { randomUUID } from 'node:crypto';

import type { Sandbox } from '../sandbox';
import { GATEWAY_TYPE, type CredentialEntry, type N8n, type WorkflowJson } from './n8n';
import { CREDENTIAL, connect, webhook } from './payout-ledger';

export const RESULTS = 'e2eResultsTrigger';
export const RESULTS_PATH = 'payout-results';
const TRIGGER = 'n8n-nodes-payment-gateway.paymentGatewayPayoutTrigger';
const WEBHOOK_CREDENTIAL = { id: 'e2eResultsHook01', name: 'E2E Results Webhook' };

/** The payout credential (Bulk Create's and the trigger's) and the webhook credential. */
export function credentialsOf(sandbox: Sandbox): CredentialEntry[] {
	const data = { payoutUrl: sandbox.payoutUrl, obtainBy: 'request', ...sandbox.keys.payout };
	return [
		{ ...CREDENTIAL, type: 'paymentGatewayPayoutApi', data },
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
export function payroll(id: string, rows: Array<[string, string]>): WorkflowJson {
	const start = webhook(id);
	return {
		id,
		name: `E2E ${id}`,
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{ id: randomUUID(), position: [0, 0], ...start },
			{
				id: randomUUID(),
				name: 'Rows',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [220, 0],
				parameters: { jsCode: rowsOf(rows) },
			},
			{
				id: randomUUID(),
				name: 'Payouts',
				type: GATEWAY_TYPE,
				typeVersion: 3,
				position: [440, 0],
				// Callback URL left empty: the account's results address is used.
				parameters: { resource: 'payout', operation: 'bulkCreate', currency: 'INR' },
				credentials: { paymentGatewayPayoutApi: CREDENTIAL },
			},
		],
		connections: connect([start.name, 'Rows', 'Payouts']),
	};
}

/** The results workflow: the Payout Results Trigger alone. */
export const resultsWorkflow: WorkflowJson = {
	id: RESULTS,
	name: `E2E ${RESULTS}`,
	active: false,
	settings: { executionOrder: 'v1' },
	nodes: [
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
	],
	connections: {},
};

/** A data table's rows through n8n's REST API, by the table's name. */
export async function tableRows(n8n: N8n, name: string): Promise<Array<Record<string, unknown>>> {
	const listed = await n8n.rest('GET', '/rest/data-tables-global');
	const table = (
		listed.body.data.data as Array<{ id: string; name: string; projectId: string }>
	).find((t) => t.name === name);
	if (!table) return [];
	const rows = await n8n.rest(
		'GET',
		`/rest/projects/${table.projectId}/data-tables/${table.id}/rows?take=500`,
	);
	return rows.body.data.data as Array<Record<string, unknown>>;
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
