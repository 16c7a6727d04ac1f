// Payout → Bulk Create in real n8n: a new node (version 3) with every setting at its default, and a
// saved version-1 node with Split Into Batches, each run twice, with answers lost on the way.
// Whether a re-run meets the same request IDs depends on n8n handing the node the same rows and the
// same parameters (and a v3 node's empty columns reading the input fields), so it is tried here.
import { createHash } from 'node:crypto';

import { startSandbox, type Sandbox } from '../sandbox';
import { GATEWAY_TYPE, N8n, type CredentialEntry, type WorkflowJson } from './n8n';
import { n8nAtLeast } from './version';

const WORKFLOW = 'e2ePayoutBatches';
const DEFAULTS_SMALL = 'e2ePayoutDefaults2';
const DEFAULTS_LARGE = 'e2ePayoutDefaults1200';
const PAY_AGAIN = 'e2ePayoutPayAgain';
const UPLOAD = '/payout/v1/bulk/payouts';
const ROWS = 1001;
const CREDENTIAL = { id: 'e2ePayoutCred', name: 'E2E Payout' };
/** Two `n8n execute` runs per test, each a CLI start of its own: minutes on a loaded machine. */
const TWO_RUNS = 600_000;

let sandbox: Sandbox;
let n8n: N8n;

/**
 * Code that returns `count` fixed NEFT payout rows whose references start with `prefix`; row 1's
 * Remark can be edited, as someone fixing a typo in the sheet would.
 */
const rowsCode = (count: number, prefix: string, row1Remark = 'Row 1') =>
	`return Array.from({ length: ${count} }, (_, i) => ({ json: { 'Reference No': '${prefix}' + i, 'Payment Mode': 'NEFT', Amount: 100 + i, ` +
	`Remark: i === 1 ? ${JSON.stringify(row1Remark)} : 'Row ' + i, 'Beneficiary Name': 'Asha Rao', 'Beneficiary Account Number': '123456789012', 'Beneficiary IFSC': 'HDFC0001234' } }));`;

/** Node IDs that stay the same when a workflow is imported again (edited): n8n keys the memory by them. */
const nodeId = (workflowId: string, name: string) =>
	createHash('sha256')
		.update(`${workflowId}/${name}`)
		.digest('hex')
		.replace(/^(.{8})(.{4})(.{4})(.{4})(.{12}).*$/, '$1-$2-$3-$4-$5');

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
				id: nodeId(id, names[0]),
				name: names[0],
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: nodeId(id, names[1]),
				name: names[1],
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [220, 0],
				parameters: { jsCode: code },
			},
			{
				id: nodeId(id, names[2]),
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
	await n8n.importWorkflow(workflow(PAY_AGAIN, rowsCode(2, 'V3A-'), 3, { currency: 'INR' }));
}, 300_000);

afterAll(async () => {
	await n8n?.dispose();
	await sandbox?.stop();
});

const statuses = (result: { items: (node: string) => { json: Record<string, unknown> }[] }) =>
	result.items('Payouts').map((item) => item.json.status);

describe('Payout Bulk Create in a new node (version 3), default settings, in real n8n', () => {
	it(
		"a payout is known by its Reference No: the same rows again, the batch Remark edited, one row's Remark edited → nothing paid, the run fails; a row added → only it is paid",
		async () => {
			const small = (code: string, parameters: Record<string, unknown> = {}) =>
				workflow(DEFAULTS_SMALL, code, 3, { currency: 'INR', ...parameters });
			const first = await n8n.execute(DEFAULTS_SMALL);
			expect(first.code).toBe(0);
			expect(statuses(first)).toEqual(['queued']);
			const firstId = first.items('Payouts')[0].json.request_id;

			const nothingPaid = async () => {
				const run = await n8n.execute(DEFAULTS_SMALL);
				expect(run.code).not.toBe(0);
				expect(`${run.stdout}${run.stderr}`).toContain(
					'Nothing was paid: every row of this run was already queued',
				);
				expect(queuedTimes('V3S-')).toEqual([1, 1]);
			};
			await nothingPaid();
			await n8n.importWorkflow(small(rowsCode(2, 'V3S-'), { remark: 'November, fixed' }));
			await nothingPaid();
			await n8n.importWorkflow(small(rowsCode(2, 'V3S-', 'Row 1 (typo fixed)')));
			await nothingPaid();

			await n8n.importWorkflow(small(rowsCode(3, 'V3S-')));
			const added = await n8n.execute(DEFAULTS_SMALL);
			expect(added.code).toBe(0);
			const [batch, skipped] = added.items('Payouts').map((item) => item.json);
			expect(batch).toMatchObject({ status: 'queued', total_records: 1, first_row: 3 });
			expect(skipped).toMatchObject({ status: 'alreadyQueued', skipped_rows: 2 });
			const references = skipped.references as Array<Record<string, unknown>>;
			expect(references.map((r) => [r.row, r.reference_no, r.source])).toEqual([
				[2, 'V3S-0', 'memory'],
				[3, 'V3S-1', 'memory'],
			]);
			// When and under which request ID they went: from the static data n8n saved after the CLI
			// run, kept through the workflow's import again by n8n 2.41 (not there on 1.123.81): where
			// absent the item says the details are not known, never wrong ones.
			for (const r of references)
				if (r.request_id !== undefined) expect(r.request_id).toBe(firstId);
			if (n8nAtLeast('2.41.0'))
				expect(references.every((r) => r.request_id === firstId && r.queued_at)).toBe(true);
			expect(queuedTimes('V3S-')).toEqual([1, 1, 1]);

			// The memory's size as n8n counts its entries: 3 held, a 4th would pass a size of 3.
			await n8n.importWorkflow(
				small(rowsCode(4, 'V3S-'), { options: { rememberedReferences: 3 } }),
			);
			const full = await n8n.execute(DEFAULTS_SMALL);
			expect(full.code).not.toBe(0);
			expect(`${full.stdout}${full.stderr}`).toContain(
				"Nothing was sent: the node's memory of queued references would pass its size (3 held, 1 to add, Remembered References 3)",
			);
			expect(queuedTimes('V3S-')).toEqual([1, 1, 1]);
		},
		6 * TWO_RUNS,
	);

	it(
		'1,200 rows: 3 batches; every answer to batch 2 lost, the run again settles it as already queued, 0 duplicates',
		async () => {
			// The answer to batch 2 and to each of the node's 3 repeats (its default) are lost.
			sandbox.faults.inject({ kind: 'dropAnswer', path: UPLOAD, after: 1, count: 4 });
			const first = await n8n.execute(DEFAULTS_LARGE);
			expect(first.code).not.toBe(0);
			expect(`${first.stdout}${first.stderr}`).toMatch(
				/Batch 2 of 3 \(sheet rows 502–1001, request ID n8n-[0-9a-f]{26}\) got no clear answer/,
			);
			sandbox.faults.clear();
			const again = await n8n.execute(DEFAULTS_LARGE);
			expect(again.code).toBe(0);
			// Batch 1 left out (known as queued), batch 2 again as it was (refused as already
			// submitted), batch 3; then the item listing batch 1's rows. Numbered among this run's
			// batches, with their sheet rows (header = 1).
			expect(
				again
					.items('Payouts')
					.map((item) => [
						item.json.batch,
						item.json.batches,
						item.json.first_sheet_row,
						item.json.total_records,
					]),
			).toEqual([
				[1, 2, 502, 500],
				[2, 2, 1002, 200],
				[undefined, undefined, undefined, undefined],
			]);
			expect(statuses(again)).toEqual(['alreadyQueued', 'queued', 'alreadyQueued']);
			expect(again.items('Payouts')[2].json.skipped_rows).toBe(500);
			const times = queuedTimes('V3L-');
			expect(times).toHaveLength(1200);
			expect(times.every((n) => n === 1)).toBe(true);
		},
		TWO_RUNS,
	);
});

describe('Pay Again in a new node (version 3), in real n8n', () => {
	it(
		"Pay Again left on for a second run → nothing paid, an error; a re-payment's output says so",
		async () => {
			const first = await n8n.execute(PAY_AGAIN);
			expect(first.code).toBe(0);
			expect(first.items('Payouts')[0].json).toMatchObject({
				status: 'queued',
				paidAgain: false,
				attempt: 1,
			});
			const firstId = first.items('Payouts')[0].json.request_id;

			// Switched on as a saved workflow has it: no Attempt, so attempt 2.
			await n8n.importWorkflow(
				workflow(PAY_AGAIN, rowsCode(2, 'V3A-'), 3, {
					currency: 'INR',
					options: { payAgain: true },
				}),
			);
			const again = await n8n.execute(PAY_AGAIN);
			expect(again.code).toBe(0);
			const [repaid] = again.items('Payouts').map((item) => item.json);
			expect(repaid).toMatchObject({
				status: 'queued',
				batch: 1,
				batches: 1,
				paidAgain: true,
				attempt: 2,
				total_records: 2,
			});
			expect(repaid.request_id).not.toBe(firstId);
			// The request ID it repeats: from the static data n8n saved after the CLI run (kept through
			// the import by n8n 2.41); where absent it is null, never a wrong one.
			if (n8nAtLeast('2.41.0')) expect(repaid.earlierRequestId).toBe(firstId);
			else expect([firstId, null]).toContain(repaid.earlierRequestId);
			expect(queuedTimes('V3A-')).toEqual([2, 2]);

			// The switch left on: the same workflow again pays nobody and fails, saying how to pay once more.
			const leftOn = await n8n.execute(PAY_AGAIN);
			expect(leftOn.code).not.toBe(0);
			const said = `${leftOn.stdout}${leftOn.stderr}`;
			expect(said).toContain('Nothing was paid: every row of this run was already queued');
			// The references and the way to pay once more on purpose: in the error n8n kept for the run.
			const told = `${said}${JSON.stringify(leftOn.run?.data.resultData.error ?? {})}`;
			expect(told).toContain('Reference No V3A-0, V3A-1');
			expect(told).toContain('set Options > Attempt to 3');
			expect(queuedTimes('V3A-')).toEqual([2, 2]);
		},
		2 * TWO_RUNS,
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
				/Batch 2 of 3 \(sheet rows 502–1001, request ID n8n-[0-9a-f]{26}\) got no clear answer/,
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
