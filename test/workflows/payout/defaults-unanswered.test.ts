// Payout → Bulk Create at its default settings (version 3) when answers are lost or a batch stays
// unanswered: the same rows again are settled, never paid twice, or the run stops naming them; with
// n8n's data tables off, the node's own memory does the same.
import { dataTables, ensureProcessedData, processedData } from '../../harness';
import { requestsTo } from '../support';
import { useDefaultsTests } from './defaults.support';
import { neftRows as rows, outputJson as json, UPLOAD } from './support';

const { sandbox, tagOf, queued, payout, uploads } = useDefaultsTests('U');

describe('payout.bulkCreate in a new node (version 3), default settings: answers lost, batches unanswered', () => {
	it('an answer lost on every attempt: the same rows again are sent under the same request ID, settled as already queued; 0 duplicates', async () => {
		const tag = tagOf();
		// The first attempt and the node's 3 repeats (its default) all lose their answers.
		sandbox().faults.inject({ kind: 'dropAnswer', path: UPLOAD, count: 4 });
		const first = await payout(rows(tag, 3), { workflow: tag });
		expect(first.error?.message).toMatch(/^Batch 1 of 1 .* got no clear answer/);
		expect(requestsTo(sandbox(), UPLOAD)).toHaveLength(4);
		sandbox().faults.clear();
		const again = await payout([...rows(tag, 4)], { workflow: tag });
		expect(again.error).toBeUndefined();
		expect(json(again).map((j) => [j.status, j.total_records])).toEqual([
			['alreadyQueued', 3],
			['queued', 1],
		]);
		expect(queued(tag)).toEqual([1, 1, 1, 1]);
		// Settled: a third run knows all four.
		expect((await payout(rows(tag, 4), { workflow: tag })).error?.message).toMatch(
			/^Nothing was paid/,
		);
	});

	it('rows of an unanswered batch that changed since: the run stops naming them, until told what became of them', async () => {
		const tag = tagOf();
		sandbox().faults.inject({ kind: 'dropAnswer', path: UPLOAD, count: 4 });
		await payout(rows(tag, 2), { workflow: tag });
		sandbox().faults.clear();
		sandbox().clearRequests();
		const edited = rows(tag, 2).map((r) => ({ ...r, Remark: 'Edited' }));
		const stopped = await payout(edited, { workflow: tag });
		expect(stopped.error?.message).toMatch(
			new RegExp(
				`^Nothing was sent: 2 rows were sent by an earlier run .* \\(Reference No ${tag}-0, ${tag}-1\\)`,
			),
		);
		expect(uploads()).toBe(0);
		// The dashboard shows them paid: counted as queued, nothing sent, the run pays no one.
		const counted = await payout(edited, {
			workflow: tag,
			parameters: { options: { unconfirmedReferences: 'countAsQueued' } },
		});
		expect(counted.error?.message).toMatch(/^Nothing was paid/);
		expect(uploads()).toBe(0);
		expect((await payout(edited, { workflow: tag })).error?.message).toMatch(/^Nothing was paid/);
	});

	it('n8n data tables off, n8n stopped after marking rows as being sent, before sending them: the next run does not skip them, it stops and names them', async () => {
		dataTables.enabled = false;
		const tag = tagOf();
		// What a crash between the node's mark and its upload leaves in n8n's processed-data store.
		await ensureProcessedData();
		await processedData.checkProcessedAndRecord(
			[`q:${tag}-0`, `q:${tag}-1`],
			'node',
			{ workflow: { id: tag } as never, node: { id: 'harness-node-2' } as never },
			{ mode: 'entries' },
		);
		const next = await payout(rows(tag, 2), { workflow: tag });
		expect(next.error?.message).toMatch(/^Nothing was sent: 2 rows were sent by an earlier run/);
		expect(uploads()).toBe(0);
		const sent = await payout(rows(tag, 2), {
			workflow: tag,
			parameters: { options: { unconfirmedReferences: 'sendAgain' } },
		});
		expect(json(sent)).toMatchObject([{ status: 'queued', total_records: 2 }]);
		expect(queued(tag)).toEqual([1, 1]);
	});

	it('an unanswered batch the user found unpaid: Send Again sends it', async () => {
		const tag = tagOf();
		sandbox().faults.inject({ kind: 'status500', path: UPLOAD, count: 4 });
		await payout(rows(tag, 2), { workflow: tag });
		sandbox().faults.clear();
		const edited = rows(tag, 2).map((r) => ({ ...r, Remark: 'Edited' }));
		const sent = await payout(edited, {
			workflow: tag,
			parameters: { options: { unconfirmedReferences: 'sendAgain' } },
		});
		expect(json(sent)).toMatchObject([{ status: 'queued', total_records: 2 }]);
		expect(queued(tag)).toEqual([1, 1]);
	});

	it('n8n data tables off, a memory that would pass Remembered References stops the run before sending', async () => {
		dataTables.enabled = false;
		const tag = tagOf();
		const options = { rememberedReferences: 10 };
		expect(
			(await payout(rows(tag, 8), { workflow: tag, parameters: { options } })).error,
		).toBeUndefined();
		const full = await payout(rows(tag, 11), { workflow: tag, parameters: { options } });
		expect(full.error?.message).toBe(
			"Nothing was sent: the node's memory of queued references would pass its size (8 held, 3 to add, Remembered References 10)",
		);
		expect(uploads()).toBe(1);
		const raised = await payout(rows(tag, 11), {
			workflow: tag,
			parameters: { options: { rememberedReferences: 20 } },
		});
		expect(json(raised)[0]).toMatchObject({ status: 'queued', total_records: 3 });
	});

	it('a lost answer the node repeats itself: settled in the same run by the refusal of the repeat', async () => {
		const tag = tagOf();
		sandbox().faults.inject({ kind: 'dropAnswer', path: UPLOAD });
		const result = await payout(rows(tag, 3));
		expect(result.error).toBeUndefined();
		expect(json(result)).toMatchObject([{ status: 'queued', confirmedByDuplicate: true }]);
		expect(queued(tag)).toEqual([1, 1, 1]);
	});
});
