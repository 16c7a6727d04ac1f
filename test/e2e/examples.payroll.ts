// The monthly payroll example (examples/monthly-payroll.json) and its results workflow
// (examples/payout-results.json) in real n8n: examples.e2e.ts runs the payroll as a user does
// (Execute workflow in the editor); what each workflow must have done, judged by state.
import type { Sandbox } from '../sandbox';
import { PAYROLL, RESULTS, type ExamplesEnv } from './examples.setup';
import { nodeItems, type Execution, type N8n } from './n8n';
import { recordedToken } from './payout-results';
import { ended, executionWhere, outputsOf } from './payout-wait';

type Json = Record<string, any>;

/** Runs a workflow from its Manual Trigger as the editor's "Execute workflow" does; the execution id. */
async function executeInEditor(n8n: N8n, workflowId: string, trigger: string) {
	const answer = await n8n.rest('POST', `/rest/workflows/${workflowId}/run`, {
		triggerToStartFrom: { name: trigger },
	});
	if (answer.status !== 200 || !answer.body?.data?.executionId)
		throw new Error(
			`POST /rest/workflows/${workflowId}/run: ${answer.status} ${JSON.stringify(answer.body)}`,
		);
	return String(answer.body.data.executionId);
}

const itemsOf = (execution: Execution, node: string): Json[] =>
	nodeItems(execution.data?.resultData.runData, node).map((item) => item.json);

/** `[reference_no, state]` of every item a node output in these executions, sorted. */
const rowsThrough = (executions: Execution[], node: string): string[][] =>
	executions
		.flatMap((e) => itemsOf(e, node))
		.map((json) => [String(json.reference_no), String(json.state)])
		.sort((a, b) => a.join().localeCompare(b.join()));

/** The payroll sheet's outcomes as the sandbox gives them (its `sbx:` markers in Remark). */
const OUTCOMES: Record<string, { state: string; amount: number; reason?: string }> = {
	'EMP-017': { state: 'processed', amount: 52000 },
	'EMP-018': { state: 'processed', amount: 38500.5 },
	'EMP-019': { state: 'failed', amount: 41000, reason: 'Beneficiary account is closed' },
	'EMP-020': {
		state: 'reversed',
		amount: 47250.75,
		reason: 'Credit returned by the beneficiary bank',
	},
	'EMP-021': { state: 'rejected', amount: 265000, reason: 'Beneficiary details are invalid' },
};
const EMPLOYEES = Object.keys(OUTCOMES);
const NOT_PAID = ['EMP-019', 'EMP-020', 'EMP-021'];

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The one batch the payroll sent: the sheet's rows, Reference No = Employee ID + month, the
 * results address with the token as callback_url. Returns Employee ID → Reference No.
 */
function expectPayrollBatch(sandbox: Sandbox, resultsUrl: string) {
	const batches = [...sandbox.state.payoutBatches.values()].filter((b) =>
		b.rows.some((row) => row['Reference No'].startsWith('EMP-')),
	);
	expect(batches).toHaveLength(1);
	const [batch] = batches;
	const month = /^EMP-017-(\d{4}-\d{2})$/.exec(batch.rows[0]['Reference No'])?.[1];
	expect(month).toBeDefined();
	const ref = (employee: string) => `${employee}-${month}`;
	expect(batch.rows.map((row) => [row['Reference No'], Number(row.Amount)])).toEqual(
		EMPLOYEES.map((e) => [ref(e), OUTCOMES[e].amount]),
	);
	expect(batch.callback_url).toMatch(new RegExp(`^${escaped(resultsUrl)}\\?t=[\\w-]{16}$`));
	expect(batch.remark).toMatch(/^Payroll \w+ \d{4}$/);
	return ref;
}

/** The results workflow: every row result once (EMP-020 paid, then reversed), routed by state. */
async function expectResultsRuns(n8n: N8n, workflowId: string, ref: (employee: string) => string) {
	const expected = [
		...EMPLOYEES.map((e) => [ref(e), e === 'EMP-020' ? 'processed' : OUTCOMES[e].state]),
		[ref('EMP-020'), 'reversed'],
	].sort((a, b) => a.join().localeCompare(b.join()));
	const runs = await n8n.waitForExecutions(
		workflowId,
		(all) =>
			all.every(ended) &&
			rowsThrough(
				all.filter((e) => e.status === 'success'),
				'Payout results',
			).length >= expected.length,
		120_000,
	);
	expect(runs.map((e) => e.status)).toEqual(runs.map(() => 'success'));
	expect(rowsThrough(runs, 'Payout results')).toEqual(expected);
	const paid = runs.flatMap((e) => itemsOf(e, 'Mark paid')).map((json) => json.reference_no);
	expect(paid.sort()).toEqual(['EMP-017', 'EMP-018', 'EMP-020'].map(ref));
	const told = runs.flatMap((e) => itemsOf(e, 'Tell finance'));
	expect(told.map((t) => [t.reference_no, t.state, t.reason]).sort()).toEqual(
		NOT_PAID.map((e) => [ref(e), OUTCOMES[e].state, OUTCOMES[e].reason]),
	);
}

/** The payroll after its check: Paid → Mark paid, Failed → one e-mail to finance, none pending. */
function expectPayrollRouted(done: Execution, ref: (employee: string) => string) {
	const [pending, paid, failed] = outputsOf(done, 'Wait for Results');
	expect(pending).toEqual([]);
	expect(paid.map((row) => [row.reference_no, row.state, row.outcome])).toEqual([
		[ref('EMP-017'), 'processed', 'paid'],
		[ref('EMP-018'), 'processed', 'paid'],
	]);
	for (const row of paid) expect(row.utr).toMatch(/^SBXN\d{12}$|^\d{12}$/);
	const finance = NOT_PAID.map((e) => ({
		reference_no: ref(e),
		amount: OUTCOMES[e].amount,
		state: OUTCOMES[e].state,
		reason: OUTCOMES[e].reason,
	}));
	const pick = ({ reference_no, amount, state, reason }: Json) => ({
		reference_no,
		amount,
		state,
		reason,
	});
	expect(failed.map(pick)).toEqual(finance);
	const emails = itemsOf(done, 'Failed rows to finance');
	expect(emails).toHaveLength(1);
	expect(emails[0]).toMatchObject({
		to: 'finance@example.com',
		subject: expect.stringMatching(/: 3 salary payout\(s\) not paid$/),
		rows: finance.map((row) => expect.objectContaining(row)),
	});
	for (const row of finance) expect(emails[0].text).toContain(`${row.reference_no}  `);
	expect(itemsOf(done, 'Mark paid').map((json) => json.reference_no)).toEqual(
		['EMP-017', 'EMP-018'].map(ref),
	);
	expect(itemsOf(done, 'Still pending to finance')).toHaveLength(0);
}

/** The payroll example with its results workflow published, run as the editor's Execute workflow. */
export function payrollCase(getEnv: () => ExamplesEnv): void {
	it('monthly payroll: Execute workflow pays the sheet, waits, then each row on Paid or Failed (the failed ones e-mailed to finance); the results workflow gets each row result once', async () => {
		const { n8n, sandbox, resultsTable, resultsUrl } = getEnv();
		// Published, the results workflow is the account's results address.
		const { addresses } = await recordedToken(n8n, resultsTable);
		expect(addresses).toEqual([[RESULTS.id, resultsUrl]]);
		// The demo's timing: results seconds after the upload, after Wait for Results' first look and
		// before its first check.
		Object.assign(sandbox.state.settings, {
			payoutCallbackDelayMs: 5000,
			payoutResultStepMs: 5000,
		});
		const id = await executeInEditor(n8n, PAYROLL.id, 'Run now');
		const waiting = await executionWhere(
			n8n,
			PAYROLL.id,
			(e) => e.id === id && (e.status === 'waiting' || ended(e)),
			120_000,
		);
		expect(waiting.status).toBe('waiting');
		const ref = expectPayrollBatch(sandbox, resultsUrl);

		await expectResultsRuns(n8n, RESULTS.id, ref);

		// The payroll at its first check (30 s after the wait began, shortened; at n8n's wait
		// tracker's next look, every minute): each row on its output.
		const done = await executionWhere(n8n, PAYROLL.id, (e) => e.id === id && ended(e), 240_000);
		expect(done.status).toBe('success');
		expectPayrollRouted(done, ref);
	}, 600_000);
}
