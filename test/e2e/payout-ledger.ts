// Workflows and checks shared by the payout ledger's real-n8n suites (regular and queue mode).
import { randomUUID } from 'node:crypto';

import type { Sandbox } from '../sandbox';
import { GATEWAY_TYPE, type Execution, type N8n, nodeItems, type WorkflowJson } from './n8n';

export const CREDENTIAL = { id: 'e2eLedgerCred01', name: 'E2E Ledger Payout' };

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

/** `start` (Manual Trigger or Webhook) → Code (payout rows) → Payment Gateway Bulk Create v3. */
export function payroll(
	id: string,
	start: Record<string, unknown>,
	code: string,
	options?: Record<string, unknown>,
): WorkflowJson {
	const names = [String(start.name), 'Rows', 'Payouts'];
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
		connections: connect(names),
	};
}

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
