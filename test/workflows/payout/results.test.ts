// Payment Gateway Payout Results Trigger: the service's results posts applied to the account's
// payout ledger (the harness's in-memory n8n data tables), one item per row that changed it; the
// token of the results address and the notification secret checked first.
import type { IDataObject } from 'n8n-workflow';

import { dataTables } from '../../harness';
import {
	body,
	env,
	itemsOf,
	ledger,
	payNew,
	post,
	states,
	useResultsWorkflow,
} from './results.support';

useResultsWorkflow();

describe('payout results trigger: who may post', () => {
	it('answers 401 without the token, with a wrong token or a wrong notification secret; the ledger is untouched and nothing runs', async () => {
		const { tag, batch } = await payNew(2);
		const before = ledger(tag);
		const payload = body(String(batch.request_id), [
			{ reference_no: `${tag}-0`, status: 'processed', utr: 'UTR0001' },
		]);
		const executions = env.hook.executions.length;
		const refused = [
			await post(payload, { t: undefined }),
			await post(payload, { t: `${env.token.slice(0, -1)}x` }),
			await post(payload, { headers: { 'notification-secret': 'not-the-secret' } }),
		];
		expect(refused.map((d) => d.status)).toEqual([401, 401, 401]);
		expect(JSON.stringify(refused.map((d) => d.body))).not.toContain(env.token);
		expect(ledger(tag)).toEqual(before);
		expect(env.hook.executions.length).toBe(executions);
		// The right env.token, and the right secret when one is sent: applied.
		const ok = await post(payload, {
			headers: { 'notification-secret': env.sandbox.keys.webhook.notificationSecret },
		});
		expect(ok.status).toBe(200);
		expect(states(tag)[`${tag}-0`]).toEqual(['processed', 'UTR0001', null]);
	});

	it('a token changed in the results table counts at the next post (the one read before is not kept against it)', async () => {
		const { tag, batch } = await payNew(2);
		const payload = (ref: string) =>
			body(String(batch.request_id), [{ reference_no: ref, status: 'processed', utr: 'UTR0001' }]);
		expect((await post(payload(`${tag}-0`))).status).toBe(200);
		const held = dataTables.store.rowsOf(env.resultsName).find((row) => row.token)!;
		const changed = `${env.token.slice(1)}Z`;
		held.token = changed;
		try {
			expect((await post(payload(`${tag}-1`), { t: changed })).status).toBe(200);
			expect((await post(payload(`${tag}-1`), { t: env.token })).status).toBe(401);
		} finally {
			held.token = env.token;
		}
		expect((await post(payload(`${tag}-1`))).status).toBe(200);
		expect(states(tag)[`${tag}-1`]).toEqual(['processed', 'UTR0001', null]);
	});

	it('answers 400 to a body that is no results post, and 503 where n8n data tables are off', async () => {
		expect((await post({ hello: 'world' })).status).toBe(400);
		const form = await env.hook.deliver({
			body: 'nothing=here',
			query: { t: env.token },
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
		});
		expect(form).toMatchObject({ status: 400, executed: false });
		dataTables.enabled = false;
		const off = await post(body('x', [{ reference_no: 'x', status: 'processed' }]));
		expect(off.status).toBe(503);
		expect(String((off.body as IDataObject).message)).toMatch(
			/^Payout results cannot be applied: n8n's data tables are off, so the payout ledger is the Bulk Create node's own memory/,
		);
	});
});

describe('payout results trigger: one item per row that changed the ledger', () => {
	it('a JSON post with mixed outcomes runs once with one item per row, each with its ledger record', async () => {
		const { tag, requestId } = await payNew(3);
		const delivery = await post(
			body(requestId, [
				{ reference_no: `${tag}-0`, status: 'processed', utr: 'SBXN000000000001' },
				{ reference_no: `${tag}-1`, status: 'failed', reason: 'Beneficiary account is closed' },
				{ reference_no: `${tag}-2`, status: 'rejected', reason: 'Invalid IFSC' },
			]),
		);
		expect(delivery).toMatchObject({
			status: 200,
			executed: true,
			body: { received: true, applied: 3, ignored: 0 },
		});
		const items = itemsOf(delivery);
		expect(items).toHaveLength(3);
		expect(items[0]).toMatchObject({
			reference_no: `${tag}-0`,
			state: 'processed',
			utr: 'SBXN000000000001',
			amount: 300,
			currency: 'INR',
			request_id: requestId,
			attempt: 1,
			workflow_id: `${tag}-payroll`,
			execution_id: expect.stringMatching(/^harness-\d+$/),
			result: { status: 'processed', request_id: requestId, utr: 'SBXN000000000001' },
		});
		expect(items.map((i) => [i.state, i.reason])).toEqual([
			['processed', null],
			['failed', 'Beneficiary account is closed'],
			['rejected', 'Invalid IFSC'],
		]);
		expect(states(tag)).toEqual({
			[`${tag}-0`]: ['processed', 'SBXN000000000001', null],
			[`${tag}-1`]: ['failed', null, 'Beneficiary account is closed'],
			[`${tag}-2`]: ['rejected', null, 'Invalid IFSC'],
		});
	});

	it('a form body (the same JSON in field payload) is applied alike; the same post twice runs nothing the second time', async () => {
		const { tag, batch } = await payNew(2);
		const json = JSON.stringify(
			body(String(batch.request_id), [
				{ reference_no: `${tag}-0`, status: 'processed', utr: 'UTR-A' },
				{ reference_no: `${tag}-1`, status: 'processed', utr: 'UTR-B' },
			]),
		);
		const form = () =>
			env.hook.deliver({
				body: new URLSearchParams({ payload: json }).toString(),
				query: { t: env.token },
				headers: { 'content-type': 'application/x-www-form-urlencoded' },
			});
		const first = await form();
		expect(first).toMatchObject({ status: 200, executed: true });
		expect(itemsOf(first).map((i) => i.utr)).toEqual(['UTR-A', 'UTR-B']);
		const executions = env.hook.executions.length;
		const again = await form();
		expect(again).toMatchObject({
			status: 200,
			executed: false,
			body: { received: true, applied: 0, ignored: 2 },
		});
		expect(env.hook.executions.length).toBe(executions);
	});

	it('out of order: a reversal before its processed result ends reversed, and the late processed or queued moves nothing back', async () => {
		const { tag, requestId } = await payNew(2);
		const reversed = await post(
			body(requestId, [
				{ reference_no: `${tag}-0`, status: 'reversed', utr: 'UTR-R', reason: 'Credit returned' },
			]),
		);
		expect(itemsOf(reversed)).toEqual([
			expect.objectContaining({ state: 'reversed', utr: 'UTR-R', reason: 'Credit returned' }),
		]);
		const processed = await post(
			body(requestId, [
				{ reference_no: `${tag}-0`, status: 'processed', utr: 'UTR-R' },
				{ reference_no: `${tag}-1`, status: 'processed', utr: 'UTR-P' },
			]),
		);
		// Only the row that moved: the reversed one stays reversed.
		expect(processed.body).toEqual({ received: true, applied: 1, ignored: 1 });
		expect(itemsOf(processed).map((i) => i.reference_no)).toEqual([`${tag}-1`]);
		const late = await post(
			body(requestId, [
				{ reference_no: `${tag}-1`, status: 'queued' },
				{ reference_no: `${tag}-1`, status: 'failed', reason: 'late' },
			]),
		);
		expect(late).toMatchObject({ executed: false, body: { applied: 0, ignored: 2 } });
		expect(states(tag)).toEqual({
			[`${tag}-0`]: ['reversed', 'UTR-R', 'Credit returned'],
			[`${tag}-1`]: ['processed', 'UTR-P', null],
		});
	});

	it("a result for another batch's request_id or an unknown reference changes nothing", async () => {
		const { tag } = await payNew(1);
		const before = ledger(tag);
		const delivery = await post(
			body('another-batch', [
				{ reference_no: `${tag}-0`, status: 'failed' },
				{ reference_no: `${tag}-nobody`, status: 'processed' },
			]),
		);
		expect(delivery).toMatchObject({ status: 200, executed: false, body: { applied: 0 } });
		expect(ledger(tag)).toEqual(before);
	});
});
