// The results address: publishing the results workflow records it with the account's token;
// Bulk Create with an empty Callback URL sends it (masked in the output, redacted from errors) and
// the sandbox's results come back through the Payout Results Trigger into the ledger.
import { dataTables } from '../../harness';
import {
	RESULTS_WORKFLOW,
	env,
	payNew,
	payroll,
	states,
	useResultsWorkflow,
} from './results.support';

useResultsWorkflow();

describe('the results address', () => {
	it('Bulk Create with an empty Callback URL and no published results workflow says results will not be received', async () => {
		const { batch } = await payNew(1);
		expect(batch).toMatchObject({
			callbackUrl: '',
			results: expect.stringMatching(
				/^Results of these payouts will not be received: Callback URL is empty and the account has no results address: publish a workflow with the Payment Gateway Payout Results Trigger/,
			),
		});
	});

	it('once published, Bulk Create sends the address with its token (masked in the output) and the results come back into the ledger', async () => {
		await env.hook.publish();
		const processedFrom = env.hook.executions.length;
		Object.assign(env.sandbox.state.settings, { payoutCallbackDelayMs: 0, payoutResultStepMs: 0 });
		const { tag, result, batch } = await payNew(2);
		expect(batch).toMatchObject({
			callbackUrl: `results address (workflow ${RESULTS_WORKFLOW})`,
			resultsAddress: `${env.hook.url}?t=(hidden)`,
		});
		expect(JSON.stringify(result.outputs)).not.toContain(env.token);
		const sent = env.sandbox.state.payoutBatches.get(String(batch.request_id))!;
		expect(sent.callback_url).toBe(`${env.hook.url}?t=${env.token}`);
		await env.sandbox.state.payoutCallbacks.idle();
		expect(Object.values(states(tag)).map(([state]) => state)).toEqual(['processed', 'processed']);
		expect(env.hook.executions.length).toBe(processedFrom + 1);
		env.sandbox.state.resetSettings();
	});

	it("the token never shows in an error that echoes the request's callback URL", async () => {
		env.sandbox.faults.inject({
			kind: 'bodyFail',
			path: '/payout/v1/bulk/payouts',
			body: {
				status: 'fail',
				code: 'E0099',
				message: `callback_url ${env.hook.url}?t=${env.token} refused`,
			},
		});
		const result = await payroll(1);
		expect(result.error?.message).toContain('callback_url');
		expect(JSON.stringify({ ...result.error, message: result.error?.message })).not.toContain(
			env.token,
		);
	});

	it('unpublishing removes the address and keeps the token; publishing again records it with the same token', async () => {
		await env.hook.unpublish();
		expect(dataTables.store.rowsOf(env.resultsName).filter((row) => row.url)).toHaveLength(0);
		const { batch } = await payNew(1);
		expect(batch.callbackUrl).toBe('');
		await env.hook.publish();
		const held = dataTables.store.rowsOf(env.resultsName);
		expect(held.filter((row) => row.token).map((row) => row.token)).toEqual([env.token]);
		expect(held.filter((row) => row.url).map((row) => [row.workflow_id, row.url])).toEqual([
			[RESULTS_WORKFLOW, env.hook.url],
		]);
	});
});
