// Payout results in real n8n: a published workflow with the Payment Gateway Payout Results Trigger
// records the account's results address; a payroll's Bulk Create with an empty Callback URL sends
// it (with the account's token); the sandbox posts each row's results there (mixed outcomes,
// every post twice, then out of order); the trigger applies them to the ledger (n8n's data table)
// and runs the workflow with one item per row that changed it. A forged post is refused.
import type { Sandbox } from '../sandbox';
import { type N8n, nodeItems } from './n8n';
import { items, ledgerOf as ledgerIn, runByWebhook, stopAfterAll } from './payout-ledger';
import { RESULTS, payroll, recordedToken, startWithResults } from './payout-results';

const PAYROLL = 'e2ePayrollResults';
const LATE = 'e2ePayrollLate';
const LONG = 600_000;

let sandbox: Sandbox;
let n8n: N8n;
let ledgerName: string;
let resultsName: string;

const ledgerOf = async (prefix: string): Promise<Record<string, unknown[]>> =>
	await ledgerIn(n8n, ledgerName, prefix, (row) => [
		row.state,
		row.utr ?? null,
		row.reason ?? null,
	]);

/** Every item the results workflow ran with, per execution, once every execution has ended. */
async function resultRuns(count: number): Promise<Array<Array<Record<string, unknown>>>> {
	const done = await n8n.waitForExecutions(
		RESULTS,
		(all) => all.length >= count && all.every((e) => ['success', 'error'].includes(e.status)),
		120_000,
	);
	return done
		.slice()
		.reverse()
		.map((e) => nodeItems(e.data?.resultData.runData, 'Payout Results').map((item) => item.json));
}

beforeAll(async () => {
	({ sandbox, n8n, ledgerName, resultsName } = await startWithResults(42, [
		payroll(PAYROLL, [
			['RES-0', 'Nov sbx:processed'],
			['RES-1', 'Nov sbx:failed=Account_closed'],
			['RES-2', 'Nov sbx:reversed'],
		]),
		payroll(LATE, [
			['LATE-0', 'Nov sbx:reversed'],
			['LATE-1', 'Nov sbx:processed'],
		]),
	]));
	await n8n.waitForWebhooks(
		[RESULTS, PAYROLL, LATE].map((path) =>
			path === RESULTS ? `${n8n.baseUrl}/webhook/payout-results` : `${n8n.baseUrl}/webhook/${path}`,
		),
	);
}, 900_000);

stopAfterAll(() => ({ n8n, sandbox }));

describe('payout results in real n8n', () => {
	let token = '';

	it(
		'publishing records the results address and the token in the account\'s "Payout results" data table',
		async () => {
			const held = await recordedToken(n8n, resultsName);
			expect(held.addresses).toEqual([[RESULTS, `${n8n.baseUrl}/webhook/payout-results`]]);
			token = held.token;
			expect(token).toMatch(/^[\w-]{16}$/);
		},
		LONG,
	);

	it(
		'a payroll with an empty Callback URL gets mixed results back: one item per row that changed the ledger, a repeated post runs nothing',
		async () => {
			Object.assign(sandbox.state.settings, {
				payoutCallbackDelayMs: 200,
				payoutResultStepMs: 500,
				payoutResultsRepeat: 2,
			});
			const run = await runByWebhook(n8n, PAYROLL);
			expect(run.status).toBe('success');
			const [batch] = items(run, 'Payouts');
			expect(batch).toMatchObject({
				status: 'queued',
				callbackUrl: `results address (workflow ${RESULTS})`,
				resultsAddress: `${n8n.baseUrl}/webhook/payout-results?t=(hidden)`,
			});
			expect(JSON.stringify(run.data)).not.toContain(token);
			const sent = sandbox.state.payoutBatches.get(String(batch.request_id))!;
			expect(sent.callback_url).toBe(`${n8n.baseUrl}/webhook/payout-results?t=${token}`);
			await sandbox.state.payoutCallbacks.idle();
			// Two steps (the reversal a step after), each posted twice, every post answered 200.
			expect(sent.callbackAttempts.map((a) => a.status)).toEqual([200, 200, 200, 200]);
			const runs = await resultRuns(2);
			expect(runs.map((r) => r.map((i) => `${String(i.reference_no)}:${String(i.state)}`))).toEqual(
				[['RES-0:processed', 'RES-1:failed', 'RES-2:processed'], ['RES-2:reversed']],
			);
			expect(runs[0][0]).toMatchObject({
				utr: expect.stringMatching(/^SBXN\d{12}$/),
				request_id: batch.request_id,
				workflow_id: PAYROLL,
				result: { status: 'processed' },
			});
			const ledger = await ledgerOf('RES-');
			expect(ledger).toEqual({
				'RES-0': ['processed', runs[0][0].utr, null],
				'RES-1': ['failed', null, 'Account closed'],
				'RES-2': [
					'reversed',
					expect.stringMatching(/^SBXN/),
					'Credit returned by the beneficiary bank',
				],
			});
			sandbox.state.resetSettings();
		},
		LONG,
	);

	it(
		'out of order (the reversal and the processed results posted before the queued ones) moves nothing back',
		async () => {
			Object.assign(sandbox.state.settings, {
				payoutCallbackDelayMs: 200,
				payoutResultStepMs: 300,
				payoutResultsQueuedFirst: true,
				payoutResultsOutOfOrder: true,
			});
			const before = (await n8n.executions(RESULTS)).length;
			const run = await runByWebhook(n8n, LATE);
			expect(run.status).toBe('success');
			await sandbox.state.payoutCallbacks.idle();
			const runs = (await resultRuns(before + 2)).slice(before);
			// reversed (LATE-0: through processed), then processed (LATE-1), then the late queued: nothing.
			expect(
				runs
					.flat()
					.map((i) => `${String(i.reference_no)}:${String(i.state)}`)
					.sort(),
			).toEqual(['LATE-0:reversed', 'LATE-1:processed']);
			expect(Object.values(await ledgerOf('LATE-')).map(([state]) => state)).toEqual([
				'reversed',
				'processed',
			]);
			sandbox.state.resetSettings();
		},
		LONG,
	);

	it(
		'a forged post (no token, a wrong token, a wrong secret) is refused with 401 and the ledger is unchanged',
		async () => {
			const before = await ledgerOf('RES-');
			const forged = JSON.stringify({
				event: 'payout.results',
				request_id: 'x',
				results: [{ reference_no: 'RES-0', status: 'reversed', reason: 'forged' }],
			});
			const url = `${n8n.baseUrl}/webhook/payout-results`;
			const send = (query: string, secret = sandbox.keys.webhook.notificationSecret) =>
				fetch(`${url}${query}`, {
					method: 'POST',
					headers: { 'content-type': 'application/json', 'notification-secret': secret },
					body: forged,
				}).then((r) => r.status);
			expect(await send('')).toBe(401);
			expect(await send('?t=AAAAAAAAAAAAAAAA')).toBe(401);
			expect(await send(`?t=${token}`, 'wrong-secret')).toBe(401);
			expect(await ledgerOf('RES-')).toEqual(before);
		},
		LONG,
	);
});
