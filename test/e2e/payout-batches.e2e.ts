// Payout → Bulk Create in real n8n: a new node (version 3) with every setting at its default, and a
// saved version-1 node with Split Into Batches, each run twice, with answers lost on the way.
// Whether a re-run meets the same request IDs depends on n8n handing the node the same rows and the
// same parameters (and a v3 node's empty columns reading the input fields), so it is tried here.
import { randomUUID } from 'node:crypto';

import { startSandbox, type Sandbox } from '../sandbox';
import { GATEWAY_TYPE, N8n, type CredentialEntry, type WorkflowJson } from './n8n';

const WORKFLOW = 'e2ePayoutBatches';
const DEFAULTS_SMALL = 'e2ePayoutDefaults2';
const DEFAULTS_LARGE = 'e2ePayoutDefaults1200';
const UPLOAD = '/payout/v1/bulk/payouts';
const ROWS = 1001;
const CREDENTIAL = { id: 'e2ePayoutCred', name: 'E2E Payout' };
/** Two `n8n execute` runs per test, each a CLI start of its own: minutes on a loaded machine. */
const TWO_RUNS = 600_000;

let sandbox: Sandbox;
let n8n: N8n;

/** Code that returns `count` fixed NEFT payout rows whose references start with `prefix`. */
const rowsCode = (count: number, prefix: string) =>
	`return Array.from({ length: ${count} }, (_, i) => ({ json: { 'Reference No': '${prefix}' + i, 'Payment Mode': 'NEFT', Amount: 100 + i, ` +
	`Remark: 'Row ' + i, 'Beneficiary Name': 'Asha Rao', 'Beneficiary Account Number': '123456789012', 'Beneficiary IFSC': 'HDFC0001234' } }));`;

/** Manual Trigger → Code (payout rows) → Payment Gateway at `typeVersion` with `parameters`. */
function workflow(
	id: string,
	code: string,
	typeVersion: number,
	parameters: Record<string, unknown>,
): WorkflowJson {
	const names = ['Manual Trigger', 'Rows', 'Payouts'];
	return {
		id,
		name: `E2E ${id}`,
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
				parameters: { jsCode: code },
			},
			{
				id: randomUUID(),
				name: names[2],
				type: GATEWAY_TYPE,
				typeVersion,
				position: [440, 0],
				parameters: { resource: 'payout', operation: 'bulkCreate', ...parameters },
				credentials: { paymentGatewayPayoutApi: CREDENTIAL },
			},
		],
		connections: {
			[names[0]]: { main: [[{ node: names[1], type: 'main', index: 0 }]] },
			[names[1]]: { main: [[{ node: names[2], type: 'main', index: 0 }]] },
		},
	};
}

/** How many times each queued reference starting with `prefix` was queued. */
function queuedTimes(prefix: string): number[] {
	const counts = new Map<string, number>();
	for (const batch of sandbox.state.payoutBatches.values())
		for (const row of batch.rows)
			if (row['Reference No'].startsWith(prefix))
				counts.set(row['Reference No'], (counts.get(row['Reference No']) ?? 0) + 1);
	return [...counts.values()];
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
	// A saved version-1 node with Split Into Batches, and two new nodes as the editor adds them:
	// only Currency, which is required, is set.
	await n8n.importWorkflow(
		workflow(WORKFLOW, rowsCode(ROWS, 'E2E-'), 1, {
			currency: 'INR',
			splitIntoBatches: true,
			requestOptions: { maxRetries: 1 },
		}),
	);
	await n8n.importWorkflow(workflow(DEFAULTS_SMALL, rowsCode(2, 'V3S-'), 3, { currency: 'INR' }));
	await n8n.importWorkflow(
		workflow(DEFAULTS_LARGE, rowsCode(1200, 'V3L-'), 3, { currency: 'INR' }),
	);
}, 300_000);

afterAll(async () => {
	await n8n?.dispose();
	await sandbox?.stop();
});

const statuses = (result: { items: (node: string) => { json: Record<string, unknown> }[] }) =>
	result.items('Payouts').map((item) => item.json.status);

describe('Payout Bulk Create in a new node (version 3), default settings, in real n8n', () => {
	it(
		'the same 2 rows run twice: one payout queued; the second run says already queued',
		async () => {
			const first = await n8n.execute(DEFAULTS_SMALL);
			expect(first.code).toBe(0);
			expect(statuses(first)).toEqual(['queued']);
			const again = await n8n.execute(DEFAULTS_SMALL);
			expect(again.code).toBe(0);
			expect(statuses(again)).toEqual(['alreadyQueued']);
			expect(again.items('Payouts')[0].json.request_id).toBe(
				first.items('Payouts')[0].json.request_id,
			);
			expect(queuedTimes('V3S-')).toEqual([1, 1]);
		},
		TWO_RUNS,
	);

	it(
		'1,200 rows: 3 batches; every answer to batch 2 lost, the run again settles it as already queued, 0 duplicates',
		async () => {
			// The answer to batch 2 and to each of the node's 3 repeats (its default) are lost.
			sandbox.faults.inject({ kind: 'dropAnswer', path: UPLOAD, after: 1, count: 4 });
			const first = await n8n.execute(DEFAULTS_LARGE);
			expect(first.code).not.toBe(0);
			expect(`${first.stdout}${first.stderr}`).toMatch(
				/Batch 2 of 3 \(rows 501–1000, request ID n8n-[0-9a-f]{26}\) got no clear answer/,
			);
			sandbox.faults.clear();
			const again = await n8n.execute(DEFAULTS_LARGE);
			expect(again.code).toBe(0);
			expect(
				again.items('Payouts').map((item) => [item.json.batch, item.json.total_records]),
			).toEqual([
				[1, 500],
				[2, 500],
				[3, 200],
			]);
			expect(statuses(again)).toEqual(['alreadyQueued', 'alreadyQueued', 'queued']);
			const times = queuedTimes('V3L-');
			expect(times).toHaveLength(1200);
			expect(times.every((n) => n === 1)).toBe(true);
		},
		TWO_RUNS,
	);
});

describe('Split Into Batches in a saved version-1 node, in real n8n', () => {
	it(
		'a lost answer on batch 2 of 3, then the same workflow again: every row queued exactly once',
		async () => {
			// The answer to batch 2 and to the node's one repeat are lost: the batch is queued, the node cannot know.
			sandbox.faults.inject({ kind: 'dropAnswer', path: UPLOAD, after: 1, count: 2 });
			const before = sandbox.state.payoutBatches.size;
			const first = await n8n.execute(WORKFLOW);
			expect(first.code).not.toBe(0);
			expect(`${first.stdout}${first.stderr}`).toMatch(
				/Batch 2 of 3 \(rows 501–1000, request ID n8n-[0-9a-f]{26}\) got no clear answer/,
			);
			expect(sandbox.state.payoutBatches.size - before).toBe(2);

			sandbox.faults.clear();
			const again = await n8n.execute(WORKFLOW);
			expect(again.code).toBe(0);
			expect(again.items('Payouts').map((item) => item.json.status)).toEqual([
				'alreadyQueued',
				'alreadyQueued',
				'queued',
			]);
			const times = queuedTimes('E2E-');
			expect(times).toHaveLength(ROWS);
			expect(times.every((n) => n === 1)).toBe(true);
		},
		TWO_RUNS,
	);
});
