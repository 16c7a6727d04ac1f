// Payout results in queue mode: main + one `n8n webhook` + one `n8n worker`, PostgreSQL and Redis.
// The sandbox's results reach the results workflow, which runs on the worker; the same post sent at
// the same moment to main and to the webhook process (both receive production webhooks) runs once:
// judged by the trigger's exactly-once record in n8n's Redis, each row under the account's lock.
import type { Sandbox } from '../sandbox';
import { type N8n, nodeItems, type Execution } from './n8n';
import { items, ledgerOf as ledgerIn, runByWebhook } from './payout-ledger';
import { RESULTS, RESULTS_PATH, payroll, recordedToken, startWithResults } from './payout-results';
import { ClusterProcess, queueEnvironment, redisKeyCount } from './queue';

const PAYROLL = 'e2eQueuePayrollResults';

let sandbox: Sandbox;
let main: N8n;
let hooks: ClusterProcess;
let worker: ClusterProcess;
let ledgerName: string;
let resultsName: string;
/** The results workflow's executions other queue suites left in the shared database. */
let earlier = new Set<string>();

beforeAll(async () => {
	Object.assign(process.env, queueEnvironment());
	({
		sandbox,
		n8n: main,
		ledgerName,
		resultsName,
	} = await startWithResults(44, [
		payroll(PAYROLL, [
			['QRES-0', 'Nov sbx:processed'],
			['QRES-1', 'Nov sbx:failed'],
			['QRES-2', 'Nov sbx:processed'],
		]),
	]));
	[hooks, worker] = await Promise.all([
		ClusterProcess.start('webhook', 10),
		ClusterProcess.start('worker', 5),
	]);
	await main.publicApiKey();
	earlier = new Set((await main.executions(RESULTS)).map((e) => e.id));
	for (const base of [main.baseUrl, hooks.n8n.baseUrl])
		await main.waitForWebhooks([`${base}/webhook/${RESULTS_PATH}`, `${base}/webhook/${PAYROLL}`]);
}, 900_000);

afterAll(async () => {
	await Promise.all([hooks?.stop(), worker?.stop()]);
	await main?.dispose();
	await sandbox?.stop();
}, 120_000);

const ledgerOf = async (prefix: string): Promise<Record<string, unknown>> =>
	await ledgerIn(main, ledgerName, prefix, (row) => row.state);

/**
 * The items of this suite's executions of the results workflow after its first `from`, once
 * `count` have ended (the queue suites share one database: those of other suites are not counted).
 */
async function resultItems(count: number, from = 0) {
	const itemsIn = (e: Execution) =>
		nodeItems(e.data?.resultData.runData, 'Payout Results').map((i) => i.json);
	// Ended, and its data saved (a worker writes it): an execution without items is not done yet.
	const ours = (all: Execution[]) => all.filter((e) => !earlier.has(e.id));
	const ended = (all: Execution[]) =>
		ours(all).length >= count &&
		ours(all).every((e) => ['success', 'error'].includes(e.status) && itemsIn(e).length > 0);
	const all = await main.waitForExecutions(RESULTS, ended, 180_000);
	const done = ours(all);
	if (!ended(done))
		console.info(
			`results executions not ended: ${JSON.stringify(all.map((e) => [e.id, e.status, itemsIn(e).length, earlier.has(e.id)]))}\n${main.log().slice(-6000)}`,
		);
	expect(done.map((e) => e.status)).toEqual(done.map(() => 'success'));
	return done.slice().reverse().slice(from).flatMap(itemsIn);
}

describe('queue mode: payout results', () => {
	let token = '';
	let requestId = '';

	it('the sandbox posts the payroll results to the address; the results workflow runs on the worker with one item per row', async () => {
		({ token } = await recordedToken(main, resultsName));
		Object.assign(sandbox.state.settings, { payoutCallbackDelayMs: 200, payoutResultsRepeat: 2 });
		const run = await runByWebhook(main, PAYROLL, hooks.n8n.baseUrl);
		expect(run.status).toBe('success');
		const [batch] = items(run, 'Payouts');
		requestId = String(batch.request_id);
		expect(batch.callbackUrl).toBe(`results address (workflow ${RESULTS})`);
		await sandbox.state.payoutCallbacks.idle();
		const sent = sandbox.state.payoutBatches.get(requestId)!;
		console.info(`queue results posts: ${JSON.stringify(sent.callbackAttempts)}`);
		const ran = await resultItems(1);
		expect(ran.map((i) => `${String(i.reference_no)}:${String(i.state)}`)).toEqual([
			'QRES-0:processed',
			'QRES-1:failed',
			'QRES-2:processed',
		]);
		expect(await ledgerOf('QRES-')).toEqual({
			'QRES-0': 'processed',
			'QRES-1': 'failed',
			'QRES-2': 'processed',
		});
		sandbox.state.resetSettings();
	});

	it('the same post sent at once to main and to the webhook process, twice each, is applied once', async () => {
		const before = (await main.executions(RESULTS)).filter((e) => !earlier.has(e.id)).length;
		const body = JSON.stringify({
			event: 'payout.results',
			request_id: requestId,
			sent_at: new Date().toISOString(),
			results: ['QRES-0', 'QRES-2'].map((ref) => ({
				reference_no: ref,
				status: 'reversed',
				reason: 'Credit returned by the beneficiary bank',
			})),
		});
		const send = (base: string) =>
			fetch(`${base}/webhook/${RESULTS_PATH}?t=${token}`, {
				method: 'POST',
				headers: {
					'content-type': 'application/json',
					'notification-secret': sandbox.keys.webhook.notificationSecret,
				},
				body,
			}).then(async (r) => ({
				status: r.status,
				body: (await r.json()) as { applied: number; duplicate?: boolean },
			}));
		const answers = await Promise.all(
			[main.baseUrl, hooks.n8n.baseUrl, main.baseUrl, hooks.n8n.baseUrl].map(send),
		);
		// One copy runs; a copy still in flight elsewhere is answered 503 (the service posts it
		// again), one judged after it ran 200 with nothing applied (a repeat).
		expect(answers.every((a) => a.status === 200 || a.status === 503)).toBe(true);
		const applied = answers.filter((a) => a.status === 200).map((a) => a.body.applied);
		expect(applied.sort()).toEqual([...applied.map(() => 0).slice(1), 2]);
		// The service's retries of the refused copies: each a repeat now, nothing applied.
		for (const [index, answer] of answers.entries())
			if (answer.status === 503) {
				const base = index % 2 === 0 ? main.baseUrl : hooks.n8n.baseUrl;
				const retried = await send(base);
				expect(retried).toMatchObject({ status: 200, body: { applied: 0, duplicate: true } });
			}
		const ran = await resultItems(before + 1, before);
		expect(ran.map((i) => `${String(i.reference_no)}:${String(i.state)}`).sort()).toEqual([
			'QRES-0:reversed',
			'QRES-2:reversed',
		]);
		expect(await ledgerOf('QRES-')).toEqual({
			'QRES-0': 'reversed',
			'QRES-1': 'failed',
			'QRES-2': 'reversed',
		});
		// Every holder released the account's lock.
		expect(redisKeyCount('*payout-ledger-lock*')).toBe(0);
		console.info(`queue results at once: ${JSON.stringify(answers.map((a) => a.body))}`);
	});
});
