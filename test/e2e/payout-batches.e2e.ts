// Payout → Bulk Create with Split Into Batches in real n8n: a run whose answer to batch 2 is lost,
// then the same workflow run again. Whether a re-run meets the same request IDs depends on n8n
// handing the node the same rows and the same parameters, so it is tried here, not in the harness.
import { randomUUID } from 'node:crypto';

import { startSandbox, type Sandbox } from '../sandbox';
import { GATEWAY_TYPE, N8n, type CredentialEntry, type WorkflowJson } from './n8n';

const WORKFLOW = 'e2ePayoutBatches';
const UPLOAD = '/payout/v1/bulk/payouts';
const ROWS = 1001;
const CREDENTIAL = { id: 'e2ePayoutCred', name: 'E2E Payout' };

let sandbox: Sandbox;
let n8n: N8n;

/** Manual Trigger → Code (1,001 fixed payout rows) → Payment Gateway, Request ID left empty. */
function workflow(): WorkflowJson {
	const rows =
		`return Array.from({ length: ${ROWS} }, (_, i) => ({ json: { 'Reference No': 'E2E-' + i, 'Payment Mode': 'NEFT', Amount: 100 + i, ` +
		`Remark: 'Row ' + i, 'Beneficiary Name': 'Asha Rao', 'Beneficiary Account Number': '123456789012', 'Beneficiary IFSC': 'HDFC0001234' } }));`;
	const names = ['Manual Trigger', 'Rows', 'Payouts'];
	return {
		id: WORKFLOW,
		name: 'E2E payout batches',
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				id: randomUUID(),
				name: names[0],
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: randomUUID(),
				name: names[1],
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [220, 0],
				parameters: { jsCode: rows },
			},
			{
				id: randomUUID(),
				name: names[2],
				type: GATEWAY_TYPE,
				typeVersion: 1,
				position: [440, 0],
				parameters: {
					resource: 'payout',
					operation: 'bulkCreate',
					currency: 'INR',
					splitIntoBatches: true,
					requestOptions: { maxRetries: 1 },
				},
				credentials: { paymentGatewayPayoutApi: CREDENTIAL },
			},
		],
		connections: {
			[names[0]]: { main: [[{ node: names[1], type: 'main', index: 0 }]] },
			[names[1]]: { main: [[{ node: names[2], type: 'main', index: 0 }]] },
		},
	};
}

beforeAll(async () => {
	sandbox = await startSandbox({ seed: 41, transactionCount: 1 });
	n8n = await N8n.create();
	const credential: CredentialEntry = {
		...CREDENTIAL,
		type: 'paymentGatewayPayoutApi',
		data: { payoutUrl: sandbox.payoutUrl, obtainBy: 'request', ...sandbox.keys.payout },
	};
	await n8n.importCredentials([credential]);
	await n8n.importWorkflow(workflow());
}, 300_000);

afterAll(async () => {
	await n8n?.dispose();
	await sandbox?.stop();
});

describe('Split Into Batches in real n8n', () => {
	it('a lost answer on batch 2 of 3, then the same workflow again: every row queued exactly once', async () => {
		// The answer to batch 2 and to the node's one repeat are lost: the batch is queued, the node cannot know.
		sandbox.faults.inject({ kind: 'dropAnswer', path: UPLOAD, after: 1, count: 2 });
		const first = await n8n.execute(WORKFLOW);
		expect(first.code).not.toBe(0);
		expect(`${first.stdout}${first.stderr}`).toMatch(
			/Batch 2 of 3 \(rows 501–1000, request ID n8n-[0-9a-f]{26}\) got no clear answer/,
		);
		expect(sandbox.state.payoutBatches.size).toBe(2);

		sandbox.faults.clear();
		const again = await n8n.execute(WORKFLOW);
		expect(again.code).toBe(0);
		expect(again.items('Payouts').map((item) => item.json.status)).toEqual([
			'alreadyQueued',
			'alreadyQueued',
			'queued',
		]);
		const references = [...sandbox.state.payoutBatches.values()].flatMap((batch) =>
			batch.rows.map((row) => row['Reference No']),
		);
		expect(references).toHaveLength(ROWS);
		expect(new Set(references).size).toBe(ROWS);
	});
});
