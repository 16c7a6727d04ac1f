// Workflows and checks shared by the payout ledger's real-n8n suites (regular and queue mode).
import { randomUUID } from 'node:crypto';

import { payoutAccount } from '../../nodes/PaymentGateway/actions/payout/ledger/account';
import type { Sandbox } from '../sandbox';
import {
	GATEWAY_TYPE,
	type CredentialEntry,
	type Execution,
	type N8n,
	nodeItems,
	type WorkflowJson,
} from './n8n';

export const CREDENTIAL = { id: 'e2eLedgerCred01', name: 'E2E Ledger Payout' };

/** The sandbox's payout credential, as the payroll workflows name it. */
export function payoutCredential(sandbox: Sandbox): CredentialEntry {
	const data = { payoutUrl: sandbox.payoutUrl, obtainBy: 'request', ...sandbox.keys.payout };
	return { ...CREDENTIAL, type: 'paymentGatewayPayoutApi', data };
}

/** Imports the sandbox's payout credential into n8n; the name of the account's ledger table. */
export async function importPayoutCredential(n8n: N8n, sandbox: Sandbox): Promise<string> {
	const credential = payoutCredential(sandbox);
	await n8n.importCredentials([credential]);
	return payoutAccount(credential.data as never).tableName;
}

/** Code returning NEFT payout rows for `refs`, with `remark` on each row. */
export const rowsCode = (refs: string[], remark: string) =>
	`return ${JSON.stringify(refs)}.map((ref, i) => ({ json: { 'Reference No': ref, 'Payment Mode': 'NEFT', Amount: 100 + i, ` +
	`Remark: ${JSON.stringify(remark)}, 'Beneficiary Name': 'Asha Rao', 'Beneficiary Account Number': '123456789012', 'Beneficiary IFSC': 'HDFC0001234' } }));`;

export const connect = (names: string[]) =>
	Object.fromEntries(
		names
			.slice(0, -1)
			.map((name, i) => [name, { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] }]),
	);

/** An unpublished workflow `E2E <id>` of `nodes`, each connected to the next in `chain`. */
export const workflowOf = (
	id: string,
	nodes: WorkflowJson['nodes'],
	chain: string[] = [],
): WorkflowJson => ({
	id,
	name: `E2E ${id}`,
	active: false,
	settings: { executionOrder: 'v1' },
	nodes,
	connections: connect(chain),
});

/** `start` (Manual Trigger or Webhook) → Code (payout rows) → Payment Gateway Bulk Create v3. */
export function payroll(
	id: string,
	start: Record<string, unknown>,
	code: string,
	options?: Record<string, unknown>,
): WorkflowJson {
	return workflowOf(
		id,
		[
			{ id: randomUUID(), position: [0, 0], ...start },
			{
				id: randomUUID(),
				name: 'Rows',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [220, 0],
				parameters: { jsCode: code },
			},
			{
				id: randomUUID(),
				name: 'Payouts',
				type: GATEWAY_TYPE,
				typeVersion: 3,
				position: [440, 0],
				parameters: {
					resource: 'payout',
					operation: 'bulkCreate',
					currency: 'INR',
					...(options ? { options } : {}),
				},
				credentials: { paymentGatewayPayoutApi: CREDENTIAL },
			},
		],
		[String(start.name), 'Rows', 'Payouts'],
	);
}

/** The payroll started by its own webhook (path: the workflow's id). */
export const webhookPayroll = (id: string, code: string, options?: Record<string, unknown>) =>
	payroll(id, webhook(id), code, options);

export const MANUAL = {
	name: 'Manual Trigger',
	type: 'n8n-nodes-base.manualTrigger',
	typeVersion: 1,
	parameters: {},
};
export const webhook = (path: string) => ({
	name: 'Webhook',
	type: 'n8n-nodes-base.webhook',
	typeVersion: 2,
	webhookId: randomUUID(),
	parameters: { httpMethod: 'POST', path, responseMode: 'onReceived' },
});

/** n8n's own Data Table node at (`x`, 0) on rows of the data table named `table`. */
export const dataTableNode = (
	name: string,
	x: number,
	table: string,
	parameters: Record<string, unknown>,
) => ({
	id: randomUUID(),
	name,
	type: 'n8n-nodes-base.dataTable',
	typeVersion: 1,
	position: [x, 0],
	parameters: {
		resource: 'row',
		dataTableId: { __rl: true, mode: 'name', value: table },
		...parameters,
	},
});

/** How many times each queued reference starting with `prefix` was queued by the sandbox. */
export function queuedTimes(sandbox: Sandbox, prefix: string): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const batch of sandbox.state.payoutBatches.values())
		for (const row of batch.rows)
			if (row['Reference No'].startsWith(prefix))
				counts[row['Reference No']] = (counts[row['Reference No']] ?? 0) + 1;
	return counts;
}

/** Posts to the workflow's webhook and waits for the execution it started to end. */
export async function runByWebhook(
	n8n: N8n,
	id: string,
	hookBase = n8n.baseUrl,
): Promise<Execution> {
	const before = new Set((await n8n.executions(id)).map((e) => e.id));
	const answer = await fetch(`${hookBase}/webhook/${id}`, { method: 'POST', body: '{}' });
	expect(answer.status).toBe(200);
	const ended = (e: Execution) => !before.has(e.id) && ['success', 'error'].includes(e.status);
	const executions = await n8n.waitForExecutions(id, (all) => all.some(ended), 300_000);
	const execution = executions.find(ended);
	if (!execution) throw new Error(`no execution of ${id} ended: ${JSON.stringify(executions)}`);
	return execution;
}

export const items = (execution: Execution, node: string) =>
	nodeItems(execution.data?.resultData.runData, node).map((item) => item.json);

/** A data table's rows through n8n's REST API, by the table's name (none: no such table yet). */
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

/** The ledger's records of the references starting with `prefix`, each as `pick` gives it. */
export const ledgerOf = async <T>(
	n8n: N8n,
	ledgerName: string,
	prefix: string,
	pick: (row: Record<string, unknown>) => T,
): Promise<Record<string, T>> =>
	Object.fromEntries(
		(await tableRows(n8n, ledgerName))
			.filter((row) => String(row.reference_no).startsWith(prefix))
			.map((row) => [row.reference_no, pick(row)]),
	);

/** Registers the suite's afterAll: n8n disposed of, then the sandbox stopped (each if started). */
export const stopAfterAll = (parts: () => { n8n?: N8n; sandbox?: Sandbox }) =>
	afterAll(async () => {
		const { n8n, sandbox } = parts();
		await n8n?.dispose();
		await sandbox?.stop();
	});
