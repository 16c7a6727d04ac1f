// Payment Gateway Payout Results Trigger, exactly once: a post whose rows reached the ledger but
// whose run never started (n8n failed to start it, or the process died before it did) runs them
// when the service posts it again, once; the same row results from another post never run twice.
// "Applied, run not started" is the ledger as such a delivery leaves it: the rows in the posted
// state, marked with the post's delivery key (ledger/results.ts), and no run of that key.
import type { IDataObject } from 'n8n-workflow';

import { parsePost, postKey } from '../../../nodes/PaymentGatewayPayoutTrigger/body';
import { dataTables } from '../../harness';
import { body, env, itemsOf, pay, post, tagOf, useResultsWorkflow } from './results.support';

useResultsWorkflow();

/** The ledger rows of `tag` as a delivery of a post keyed `key` left them: processed, UTR set. */
function appliedBy(tag: string, key: string, utr: (ref: string) => string): void {
	for (const row of dataTables.store.rowsOf(env.ledgerName))
		if (String(row.reference_no).startsWith(`${tag}-`))
			Object.assign(row, {
				state: 'processed',
				utr: utr(String(row.reference_no)),
				result_key: key,
			});
}

async function processedPost(tag: string) {
	const { batch } = await pay(tag, 2);
	const payload = body(String(batch.request_id), [
		{ reference_no: `${tag}-0`, status: 'processed', utr: `${tag}-UTR-0` },
		{ reference_no: `${tag}-1`, status: 'processed', utr: `${tag}-UTR-1` },
	]);
	const parsed = parsePost(payload, 'application/json');
	if ('invalid' in parsed) throw new Error(parsed.invalid);
	return { payload, key: postKey(parsed) };
}

describe('payout results trigger: a post applied whose run never started', () => {
	it('runs its rows when the service posts it again, once; a third delivery is the repeat it is', async () => {
		const tag = tagOf();
		const { payload, key } = await processedPost(tag);
		appliedBy(tag, key, (ref) => `${ref.replace(`${tag}-`, `${tag}-UTR-`)}`);

		const retry = await post(payload);
		expect(retry).toMatchObject({ status: 200, executed: true });
		const items = itemsOf(retry) as IDataObject[];
		expect(items.map((i) => [i.reference_no, i.state, i.utr])).toEqual([
			[`${tag}-0`, 'processed', `${tag}-UTR-0`],
			[`${tag}-1`, 'processed', `${tag}-UTR-1`],
		]);
		expect(items.every((i) => i.deliveryKey === key)).toBe(true);

		const executions = env.hook.executions.length;
		const repeat = await post(payload);
		expect(repeat).toMatchObject({ status: 200, executed: false, body: { applied: 0 } });
		expect(env.hook.executions.length).toBe(executions);
	});

	it('the same row results brought by another post (its own key) run nothing again', async () => {
		const tag = tagOf();
		const { payload } = await processedPost(tag);
		appliedBy(
			tag,
			'payout-results|another-post',
			(ref) => `${ref.replace(`${tag}-`, `${tag}-UTR-`)}`,
		);

		const executions = env.hook.executions.length;
		const again = await post(payload);
		expect(again).toMatchObject({
			status: 200,
			executed: false,
			body: { received: true, applied: 0, ignored: 2 },
		});
		expect(env.hook.executions.length).toBe(executions);
	});
});
