// Payout → Bulk Create as a new node (version 3) leaves it: every setting at its default. A re-run of
// the same rows must pay no one twice; saved nodes of versions 1-2 keep their one random upload.
import type { IDataObject } from 'n8n-workflow';

import { dataTables, ensureProcessedData, processedData } from '../../harness';
import { requestsTo } from '../support';
import { bulkCreate, neftRows, outputJson as json, UPLOAD, usePayoutFile } from './support';

const { sandbox, tagOf, queued } = usePayoutFile('D');

/** n8n's data table module off (N8N_DISABLED_MODULES=data-table): the node's own memory. */
async function withoutDataTables(run: () => Promise<void>): Promise<void> {
	dataTables.enabled = false;
	try {
		await run();
	} finally {
		dataTables.enabled = true;
	}
}

const rows = (tag: string, count: number) => neftRows(tag, count);

/** Only what the editor asks for: resource, operation, currency (required). */
const payout = (
	items: IDataObject[],
	more: {
		parameters?: IDataObject;
		typeVersion?: number;
		continueOnFail?: boolean;
		/** The same ID is the same workflow run again (the node's memory is kept per workflow). */
		workflow?: string;
	} = {},
) =>
	bulkCreate(sandbox(), items, more.parameters, {
		workflowId: more.workflow,
		typeVersion: more.typeVersion,
		continueOnFail: more.continueOnFail,
	});

describe('payout.bulkCreate in a new node (version 3), default settings', () => {
	const uploads = () => requestsTo(sandbox(), UPLOAD).length;

	it('the same rows run twice: one payout queued; the second run pays no one and fails saying so', async () => {
		const tag = tagOf();
		const first = await payout(rows(tag, 2), { workflow: tag });
		expect(first.error).toBeUndefined();
		expect(json(first)).toMatchObject([
			{ batch: 1, batches: 1, status: 'queued', payouts_queued: 2 },
		]);
		expect(json(first)[0].request_id).toMatch(/^n8n-[0-9a-f]{26}$/);

		const again = await payout(rows(tag, 2), { workflow: tag });
		expect(again.error?.message).toBe('Nothing was paid: every row of this run was already queued');
		const description = String((again.error as { description?: string }).description);
		expect(description).toContain(`Reference No ${tag}-0, ${tag}-1`);
		expect(description).toMatch(/new Reference No, or turn on Options > Pay Again/);
		expect(uploads()).toBe(1);
		expect(queued(tag)).toEqual([1, 1]);
	});

	it.each([
		[
			'the batch Remark edited',
			{ parameters: { remark: 'Salaries, fixed typo' } },
			(r: IDataObject[]) => r,
		],
		[
			"one row's Remark edited",
			{},
			(r: IDataObject[]) =>
				r.map((row, i) => (i === 1 ? { ...row, Remark: 'Salary 1 (fixed)' } : row)),
		],
		['the rows in another order', {}, (r: IDataObject[]) => [...r].reverse()],
		[
			"a row's amount changed",
			{},
			(r: IDataObject[]) => r.map((row, i) => (i === 0 ? { ...row, Amount: 999 } : row)),
		],
	])('%s: not paid again; the run fails, nothing uploaded', async (_name, more, edit) => {
		const tag = tagOf();
		expect((await payout(rows(tag, 2), { workflow: tag })).error).toBeUndefined();
		const again = await payout(edit(rows(tag, 2)), { workflow: tag, ...more });
		expect(again.error?.message).toMatch(/^Nothing was paid/);
		expect(uploads()).toBe(1);
		expect(queued(tag)).toEqual([1, 1]);
	});

	it('a row added to a sheet already paid: only the new row is paid; the output lists the rows left out, with request ID and time', async () => {
		const tag = tagOf();
		const first = await payout(rows(tag, 2), { workflow: tag });
		const firstId = json(first)[0].request_id;
		const again = await payout(rows(tag, 3), { workflow: tag });
		expect(again.error).toBeUndefined();
		const [batch, skipped] = json(again);
		expect(batch).toMatchObject({
			status: 'queued',
			total_records: 1,
			first_sheet_row: 4,
			last_sheet_row: 4,
			first_row: 3,
			last_row: 3,
		});
		expect(skipped).toMatchObject({ status: 'alreadyQueued', skipped_rows: 2 });
		expect(skipped.references).toEqual([
			{
				row: 2,
				sheet_row: 2,
				reference_no: `${tag}-0`,
				source: 'memory',
				attempt: 1,
				request_id: firstId,
				queued_at: expect.any(String),
				// The ledger's record: its state and the run that paid it.
				state: 'queued',
				workflow_id: tag,
				execution_id: expect.any(String),
			},
			{
				row: 3,
				sheet_row: 3,
				reference_no: `${tag}-1`,
				source: 'memory',
				attempt: 1,
				request_id: firstId,
				queued_at: expect.any(String),
				// The ledger's record: its state and the run that paid it.
				state: 'queued',
				workflow_id: tag,
				execution_id: expect.any(String),
			},
		]);
		expect(again.outputs.Gateway[1].pairedItem).toEqual([{ item: 0 }, { item: 1 }]);
		expect(queued(tag)).toEqual([1, 1, 1]);
	});

	it('n8n data tables off, a copy of the workflow (no memory) with the same rows: refused by the service as already submitted; the run fails naming the request ID', async () => {
		const tag = tagOf();
		await withoutDataTables(async () => {
			const first = await payout(rows(tag, 2), { workflow: tag });
			expect(json(first)[0].ledger).toBe("node memory (n8n's data tables are off)");
			const copy = await payout(rows(tag, 2), { workflow: `${tag}-copy` });
			expect(copy.error?.message).toMatch(/^Nothing was paid/);
			expect(String((copy.error as { description?: string }).description)).toContain(
				`E0021: request ID ${String(json(first)[0].request_id)}`,
			);
		});
		expect(queued(tag)).toEqual([1, 1]);
	});

	it('with Continue On Fail a run that pays no one is an error item', async () => {
		const tag = tagOf();
		await payout(rows(tag, 2), { workflow: tag });
		const again = await payout(rows(tag, 2), { workflow: tag, continueOnFail: true });
		expect(again.error).toBeUndefined();
		expect(json(again)).toMatchObject([
			{ status: 'nothingQueued', error: expect.stringMatching(/^Nothing was paid/) },
		]);
	});

	it('Pay Again on purpose: the same rows go out again under a new request ID', async () => {
		const tag = tagOf();
		const first = await payout(rows(tag, 1), { workflow: tag });
		const again = await payout(rows(tag, 1), {
			workflow: tag,
			parameters: { options: { payAgain: true } },
		});
		expect(json(again)).toMatchObject([{ status: 'queued' }]);
		expect(json(again)[0].request_id).not.toBe(json(first)[0].request_id);
		expect(queued(tag)).toEqual([2]);
	});

	it('a refused batch leaves its rows free: the next run sends them', async () => {
		const tag = tagOf();
		sandbox().faults.inject({
			kind: 'bodyFail',
			path: UPLOAD,
			body: { status: 'fail', code: 'E0001', message: 'Upload refused' },
		});
		expect((await payout(rows(tag, 2), { workflow: tag })).error?.message).toMatch(/was refused/);
		const again = await payout(rows(tag, 2), { workflow: tag });
		expect(json(again)).toMatchObject([{ status: 'queued' }]);
		expect(queued(tag)).toEqual([1, 1]);
	});

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

	it('1,200 rows: 3 batches of 500, 500 and 200, no option turned on', async () => {
		const tag = tagOf();
		const result = await payout(rows(tag, 1200));
		expect(result.error).toBeUndefined();
		expect(json(result).map((j) => [j.batch, j.total_records, j.status])).toEqual([
			[1, 500, 'queued'],
			[2, 500, 'queued'],
			[3, 200, 'queued'],
		]);
		expect(requestsTo(sandbox(), UPLOAD)).toHaveLength(3);
		expect(queued(tag)).toHaveLength(1200);
		expect(queued(tag).every((n) => n === 1)).toBe(true);
	});

	it('a bad row among 1,200 is named like a field error; nothing is sent', async () => {
		const items = rows(tagOf(), 1200);
		items[1099] = { ...items[1099], 'Beneficiary IFSC': 'HDFC12345' };
		const result = await payout(items);
		expect(result.error?.message).toBe(
			'Payout row 1101 (item 1099), Beneficiary IFSC: must have the form XXXX0XXXXXX (received "HDFC12345")',
		);
		expect(sandbox().requests).toHaveLength(0);
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

describe('payout.bulkCreate in saved nodes of versions 1 and 2, default settings', () => {
	it.each([1, 2])(
		'version %i: the same rows run twice are queued twice, under random request IDs, as before',
		async (typeVersion) => {
			const tag = tagOf();
			const first = await payout(rows(tag, 2), { typeVersion });
			const again = await payout(rows(tag, 2), { typeVersion });
			const ids = [json(first)[0].request_id, json(again)[0].request_id];
			ids.forEach((id) => expect(id).toMatch(/^n8n-\d{14}-[0-9a-f]{6}$/));
			expect(ids[0]).not.toBe(ids[1]);
			expect(json(again)[0]).toMatchObject({ payouts_queued: 2 });
			expect(queued(tag)).toEqual([2, 2]);
		},
	);

	it.each([1, 2])(
		'version %i: more than 500 rows are refused, naming Split Into Batches',
		async (typeVersion) => {
			const result = await payout(rows(tagOf(), 501), { typeVersion });
			expect(result.error?.message).toMatch(
				/^Payout file: may have at most 500 data rows in one upload: turn on Split Into Batches/,
			);
			expect(sandbox().requests).toHaveLength(0);
		},
	);
});
