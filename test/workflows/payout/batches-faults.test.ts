// Payout → Bulk Create with Split Into Batches: a fault in the middle of a run (rate limit, server
// error, lost answer, refusal on batch 1, 2 or 3) says where the run stands, and the re-run queues
// every batch exactly once.
import type { IDataObject } from 'n8n-workflow';

import type { Fault } from '../../sandbox/core/faults';
import { requestsTo } from '../support';
import { rows, statuses, useBatchTests } from './batches.support';
import { UPLOAD } from './support';

const { sandbox, tagOf, fromItems, expectEachRowOnce } = useBatchTests('F');

/** A fault on the k-th upload that outlasts the node's one retry. */
const FAULTS: Array<[string, (k: number) => Fault, string]> = [
	[
		'429',
		(k) => ({ kind: 'status429', path: UPLOAD, after: k - 1, count: 2, retryAfter: 0 }),
		'failed',
	],
	['500', (k) => ({ kind: 'status500', path: UPLOAD, after: k - 1, count: 2 }), 'mayBeQueued'],
	[
		'a lost answer',
		(k) => ({ kind: 'dropAnswer', path: UPLOAD, after: k - 1, count: 2 }),
		'mayBeQueued',
	],
	[
		'a refusal',
		(k) => ({
			kind: 'bodyFail',
			path: UPLOAD,
			after: k - 1,
			body: { status: 'fail', code: 'E0001', message: 'Upload refused' },
		}),
		'failed',
	],
];
const CASES = FAULTS.flatMap(([label, fault, status]) =>
	[1, 2, 3].map((k) => [label, k, fault(k), status] as const),
);
const ONE_RETRY = { requestOptions: { maxRetries: 1 } };

describe('payout.bulkCreate, Split Into Batches: a fault in the middle, then a re-run', () => {
	it.each(CASES)(
		'%s on batch %i of 3: the error says where the run stands; the re-run queues every batch exactly once',
		async (_label, k, fault, status) => {
			const tag = tagOf();
			// The same rows, request ID and workflow each time: a re-run of the same payroll.
			const run = async () =>
				await fromItems(rows(tag, 1001), { requestId: tag, ...ONE_RETRY }, false, undefined, tag);
			sandbox().faults.inject(fault);
			const first = await run();
			expect(first.error?.message).toMatch(
				new RegExp(
					`^Batch ${k} of 3 \\(sheet rows ${(k - 1) * 500 + 2}–${Math.min(k * 500, 1001) + 1}, request ID ${tag}-${k}\\) (was refused|got no clear answer)`,
				),
			);
			const description = (first.error as { description?: string }).description ?? '';
			if (k > 1)
				expect(description).toContain(
					k === 2
						? 'Batch 1 (sheet rows 2–501) is queued.'
						: 'Batches 1–2 (sheet rows 2–1001) are queued.',
				);
			if (k < 3)
				expect(description).toContain(
					k === 1
						? 'Batches 2–3 (sheet rows 502–1002) were not sent.'
						: 'Batch 3 (sheet rows 1002–1002) was not sent.',
				);
			expect(description).toContain('skips every row it knows as queued');
			const context = (first.error as { context?: { batches?: IDataObject[] } }).context;
			expect(context?.batches?.[k - 1]).toMatchObject({ status });
			// Batches before k once each, batch k with the node's one retry (none after a refusal), none after it.
			expect(requestsTo(sandbox(), UPLOAD)).toHaveLength(k - 1 + (_label === 'a refusal' ? 1 : 2));

			sandbox().faults.clear();
			const again = await run();
			expectEachRowOnce(tag, 1001);
			if (k === 3 && _label === 'a lost answer') {
				// The last batch had been queued: this run moved no money, and says so.
				expect(again.error?.message).toMatch(/^Nothing was paid/);
				return;
			}
			expect(again.error).toBeUndefined();
			// Batches before k are left out (one item lists their rows); batch k goes out again under
			// its request ID, refused as already submitted where the service had queued it.
			const expected = [1, 2, 3]
				.filter((n) => n >= k)
				.map((n) => (n === k && _label === 'a lost answer' ? 'alreadyQueued' : 'queued'));
			expect(statuses(again.outputs.Gateway)).toEqual([
				...expected,
				...(k > 1 ? ['alreadyQueued'] : []),
			]);
			expect(again.outputs.Gateway.slice(0, expected.length).map((i) => i.json.request_id)).toEqual(
				[1, 2, 3].filter((n) => n >= k).map((n) => `${tag}-${n}`),
			);
			expectEachRowOnce(tag, 1001);
		},
	);

	it('an empty Request ID: a lost answer on batch 2, then a re-run, queues no second batch', async () => {
		const tag = tagOf();
		sandbox().faults.inject({ kind: 'dropAnswer', path: UPLOAD, after: 1, count: 2 });
		const first = await fromItems(rows(tag, 1200), ONE_RETRY, false, undefined, tag);
		expect(first.error?.message).toMatch(/^Batch 2 of 3 .* got no clear answer/);
		sandbox().faults.clear();
		const again = await fromItems(rows(tag, 1200), ONE_RETRY, false, undefined, tag);
		// Batch 2 again as it was (refused as already submitted), batch 3, then batch 1's rows left out.
		expect(statuses(again.outputs.Gateway)).toEqual(['alreadyQueued', 'queued', 'alreadyQueued']);
		expect(again.outputs.Gateway[2].json).toMatchObject({ skipped_rows: 500 });
		expectEachRowOnce(tag, 1200);
	});

	it('a lost answer the node repeats itself is confirmed by E0021 in the same run', async () => {
		const tag = tagOf();
		sandbox().faults.inject({ kind: 'dropAnswer', path: UPLOAD, after: 1 });
		const result = await fromItems(rows(tag, 1001), { requestId: tag, ...ONE_RETRY });
		expect(result.error).toBeUndefined();
		expect(statuses(result.outputs.Gateway)).toEqual(['queued', 'queued', 'queued']);
		expect(result.outputs.Gateway[1].json.confirmedByDuplicate).toBe(true);
		expectEachRowOnce(tag, 1001);
	});

	it('with Continue On Fail: one item per batch, queued, failed and not sent', async () => {
		const tag = tagOf();
		sandbox().faults.inject({
			kind: 'bodyFail',
			path: UPLOAD,
			after: 1,
			body: { status: 'fail', code: 'E0001', message: 'Upload refused' },
		});
		const result = await fromItems(rows(tag, 1001), { requestId: tag, ...ONE_RETRY }, true);
		expect(result.error).toBeUndefined();
		const out = result.outputs.Gateway;
		expect(statuses(out)).toEqual(['queued', 'failed', 'notSent']);
		expect(out[1].json).toMatchObject({ request_id: `${tag}-2`, code: 'E0001' });
		expect(out[1].json.error).toMatch(/^Batch 2 of 3 .* was refused: Upload refused/);
		expect(out[2].json.error).toBe('Not sent: batch 2 of 3 failed before it');
		expect(out[2].pairedItem).toEqual([{ item: 1000 }]);
	});
});
