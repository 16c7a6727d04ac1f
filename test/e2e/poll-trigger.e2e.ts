// Real n8n polls the sandbox's transaction list with a published Payment Gateway Poll Trigger
// workflow (every minute, n8n's shortest interval), and restarts between two polls.
import { randomUUID } from 'node:crypto';

import { startSandbox, type Sandbox } from '../sandbox';
import { manage, paidOrder } from '../workflows/transaction-changes';
import { CREDENTIAL_IDS, sandboxCredentials } from './fixtures';
import { N8n, PACKAGE, nodeItems, type Execution, type WorkflowJson } from './n8n';

const WORKFLOW_ID = 'e2ePollTrigger';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let sandbox: Sandbox;
let n8n: N8n;

function pollWorkflow(): WorkflowJson {
	return {
		id: WORKFLOW_ID,
		name: 'E2E poll trigger',
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: randomUUID(),
				name: 'Poll Trigger',
				type: `${PACKAGE}.paymentGatewayPollTrigger`,
				typeVersion: 1,
				position: [0, 0],
				parameters: {
					pollTimes: { item: [{ mode: 'everyMinute' }] },
					authentication: 'hosted',
					// Not 'other': a poll between an order's creation (PENDING) and its payment would start one.
					events: [
						'payment_authorised',
						'payment_captured',
						'payment_failed',
						'payment_partially_refunded',
						'payment_refunded',
						'payment_voided',
					],
					lookBackDays: 1,
				},
				credentials: {
					paymentGatewayHostedApi: { id: CREDENTIAL_IDS.hosted, name: 'Sandbox Hosted' },
				},
			},
			{
				id: randomUUID(),
				name: 'Received',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [220, 0],
				parameters: {},
			},
		],
		connections: { 'Poll Trigger': { main: [[{ node: 'Received', type: 'main', index: 0 }]] } },
	};
}

/** Reads of the list since `since` (ms): each poll reads the one-day window in one page here. */
const listReads = (since: number) =>
	sandbox.requests.filter((r) => r.path === '/orders/v1/transaction-list' && r.time >= since)
		.length;

async function waitForListRead(since: number, timeoutMs = 75_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (listReads(since) === 0) {
		if (Date.now() > deadline)
			throw new Error(`no poll within ${timeoutMs} ms:\n${n8n.log().slice(-4000)}`);
		await sleep(250);
	}
}

/** Each execution's item as [event, transaction_id, order_status], oldest execution first. */
const changes = (executions: Execution[]) =>
	[...executions].reverse().map((execution) => {
		const items = nodeItems(execution.data?.resultData.runData, 'Poll Trigger');
		expect(items).toHaveLength(1);
		return [items[0].json.event, items[0].json.transaction_id, items[0].json.order_status];
	});

beforeAll(async () => {
	sandbox = await startSandbox({ seed: 23, transactionCount: 20 });
	n8n = await N8n.create();
	await n8n.importCredentials(sandboxCredentials(sandbox));
	await n8n.importWorkflow(pollWorkflow());
	await n8n.publish(WORKFLOW_ID);
}, 300_000);

afterAll(async () => {
	await n8n?.dispose();
	await sandbox?.stop();
});

describe('Payment Gateway Poll Trigger in real n8n', () => {
	let sale: { transactionId: string };

	it('activation reads the window and emits no history; the next scheduled poll picks up a new payment', async () => {
		const started = Date.now();
		await n8n.start();
		await waitForListRead(started);
		await sleep(1000);
		expect(await n8n.executions(WORKFLOW_ID)).toEqual([]);

		sale = await paidOrder(sandbox, 25);
		const after = Date.now();
		await waitForListRead(after);
		const executions = await n8n.waitForExecutions(
			WORKFLOW_ID,
			(list) => list.length >= 1 && list.every((e) => e.finished),
		);
		expect(changes(executions)).toEqual([['payment_captured', sale.transactionId, 'CAPTURED']]);
	}, 900_000);

	it('changes made while n8n is down start one execution each after the restart; nothing repeats', async () => {
		await n8n.stop();
		await manage(sandbox, 'REFUND', sale.transactionId, 10);
		const auth = await paidOrder(sandbox, 30, 'AUTH');

		const restarted = Date.now();
		await n8n.start();
		// The activation poll runs as n8n starts; then one scheduled poll must find nothing new.
		await waitForListRead(restarted);
		let executions = await n8n.waitForExecutions(
			WORKFLOW_ID,
			(list) => list.length >= 3 && list.every((e) => e.finished),
		);
		const scheduled = Date.now() + 1000;
		await sleep(1000);
		await waitForListRead(scheduled);
		await sleep(2000);
		executions = await n8n.executions(WORKFLOW_ID);
		expect(executions.every((e) => e.status === 'success')).toBe(true);
		expect(changes(executions).sort()).toEqual(
			[
				['payment_captured', sale.transactionId, 'CAPTURED'],
				['payment_partially_refunded', sale.transactionId, 'PARTIALLY_REFUNDED'],
				['payment_authorised', auth.transactionId, 'AUTHORISED'],
			].sort(),
		);
	}, 900_000);
});
