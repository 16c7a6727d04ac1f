// Payout → Bulk Create as a new node (version 3) leaves it: every setting at its default. A re-run of
// the same rows must pay no one twice; saved nodes of versions 1-2 keep their one random upload.
import type { IDataObject } from 'n8n-workflow';

import { requestsTo } from '../support';
import { useDefaultsTests, withoutDataTables } from './defaults.support';
import { neftRows as rows, outputJson as json, UPLOAD } from './support';

const { sandbox, tagOf, queued, payout, uploads } = useDefaultsTests('D');

describe('payout.bulkCreate in a new node (version 3), default settings', () => {
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
