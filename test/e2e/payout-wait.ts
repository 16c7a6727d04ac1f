// Set-up and reads shared by the real-n8n suites of Payout → Wait for Results and the payout
// ledger's results (payout-wait.e2e.ts, payout-wait.queue.ts, payout-pay-failed-again.e2e.ts,
// examples.e2e.ts): the Wait for Results node, the account's ledger through n8n's data table REST
// API, executions polled by state, and a regular-mode n8n with published payout workflows.
import { randomUUID } from 'node:crypto';

import { payoutAccount } from '../../nodes/PaymentGateway/actions/payout/ledger/account';
import { startSandbox, type Sandbox } from '../sandbox';
import { GATEWAY_TYPE, N8n, type CredentialEntry, type Execution, type WorkflowJson } from './n8n';
import { CREDENTIAL } from './payout-ledger';

/**
 * The test setting that shortens Wait for Results' checks (docs/development.md): 15, 30, 60 s…
 * instead of 1, 2, 4 minutes…; n8n still resumes a waiting execution at its wait tracker's next
 * look (every 60 s), so a check comes 15 to 60 s after the wait began instead of 60 s.
 */
export const SHORT_CHECKS = { PAYMENT_GATEWAY_RESULTS_CHECK_SCALE: '0.25' };

/** Payout → Wait for Results (node version 3) at `x`, with the payout credential. */
export const waitNode = (x: number, parameters: Record<string, unknown> = {}) => ({
	id: randomUUID(),
	name: 'Wait',
	type: GATEWAY_TYPE,
	typeVersion: 3,
	position: [x, 0],
	parameters: { resource: 'payout', operation: 'waitForResults', ...parameters },
	credentials: { paymentGatewayPayoutApi: CREDENTIAL },
});

export const ended = (e: Execution) =>
	['success', 'error', 'crashed', 'canceled'].includes(e.status);

/** Polls until an execution of the workflow satisfies `accept`; says what it found when none does. */
export async function executionWhere(
	n8n: N8n,
	workflowId: string,
	accept: (e: Execution) => boolean,
	timeoutMs: number,
): Promise<Execution> {
	const all = await n8n.waitForExecutions(workflowId, (list) => list.some(accept), timeoutMs);
	const found = all.find(accept);
	if (!found)
		throw new Error(
			`no execution of ${workflowId} as expected within ${timeoutMs} ms: ${JSON.stringify(all.map((e) => [e.id, e.status, e.mode]))}\n${n8n.log().slice(-3000)}`,
		);
	return found;
}

/** Items of every main output of a node's last run: [output][item]. */
export function outputsOf(execution: Execution, node: string): Array<Array<Record<string, any>>> {
	const runs = execution.data?.resultData.runData[node] ?? [];
	const main = (runs[runs.length - 1]?.data?.main ?? []) as Array<Array<{
		json: Record<string, any>;
	}> | null>;
	return main.map((output) => (output ?? []).map((item) => item.json));
}

/** Per output of Wait for Results (Still Pending, Paid, Failed): [reference_no, state, utr or reason]. */
export const waitRows = (execution: Execution, node = 'Wait'): unknown[][][] =>
	[0, 1, 2].map((i) =>
		(outputsOf(execution, node)[i] ?? []).map((json) => [
			json.reference_no,
			json.state,
			json.utr ?? json.reason,
		]),
	);

/** The account's ledger table as n8n lists it (its project and id), by the table's name. */
export async function ledgerTable(
	n8n: N8n,
	tableName: string,
): Promise<{ id: string; projectId: string }> {
	const listed = await n8n.rest('GET', '/rest/data-tables-global');
	expect(listed.status).toBe(200);
	const tables = listed.body.data.data as Array<{ id: string; name: string; projectId: string }>;
	const table = tables.find((t) => t.name === tableName);
	if (!table) throw new Error(`no data table ${tableName}: ${JSON.stringify(tables)}`);
	return table;
}

/** One reference's record changed through n8n's REST API (PATCH …/data-tables/:id/rows). */
export async function setLedgerRecord(
	n8n: N8n,
	tableName: string,
	reference: string,
	data: Record<string, unknown>,
): Promise<void> {
	const { id, projectId } = await ledgerTable(n8n, tableName);
	const filter = {
		type: 'and',
		filters: [{ columnName: 'reference_no', condition: 'eq', value: reference }],
	};
	const patched = await n8n.rest('PATCH', `/rest/projects/${projectId}/data-tables/${id}/rows`, {
		filter,
		data,
		returnData: true,
	});
	expect(patched.status).toBe(200);
	expect(patched.body.data).toHaveLength(1);
}

export interface PayoutN8n {
	sandbox: Sandbox;
	n8n: N8n;
	/** The payout account's ledger table. */
	tableName: string;
}

/**
 * A sandbox and a regular-mode n8n with the payout credential, `workflows` imported and published
 * (each started by a webhook whose path is its id), started and serving them.
 */
export async function startPayoutN8n(
	seed: number,
	workflows: (tableName: string) => WorkflowJson[],
	env: NodeJS.ProcessEnv = {},
): Promise<PayoutN8n> {
	const sandbox = await startSandbox({ seed, transactionCount: 1 });
	const n8n = await N8n.create({ env });
	const data = { payoutUrl: sandbox.payoutUrl, obtainBy: 'request', ...sandbox.keys.payout };
	const tableName = payoutAccount(data).tableName;
	const credential: CredentialEntry = { ...CREDENTIAL, type: 'paymentGatewayPayoutApi', data };
	await n8n.importCredentials([credential]);
	const published = workflows(tableName);
	await n8n.importWorkflows(published);
	for (const workflow of published) await n8n.publish(workflow.id);
	await n8n.start();
	await n8n.waitForWebhooks(published.map(({ id }) => `${n8n.baseUrl}/webhook/${id}`));
	return { sandbox, n8n, tableName };
}
