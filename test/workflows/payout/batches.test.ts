// Payout → Bulk Create with Split Into Batches: 500 rows a batch, from items or a file, each row
// queued once; the request ID per batch; node versions 1-2 and 3.
import type { IDataObject } from 'n8n-workflow';

import { dataTables } from '../../harness';
import { requestsTo } from '../support';
import { rows, statuses, useBatchTests } from './batches.support';
import { UPLOAD } from './support';

const { sandbox, tagOf, fromItems, fromFile, expectEachRowOnce } = useBatchTests('T');

describe('payout.bulkCreate, Split Into Batches', () => {
	it('sends 1,200 rows from items as 3 batches of 500, 500 and 200, each once, under Request ID-1..3', async () => {
		const tag = tagOf();
		const result = await fromItems(rows(tag, 1200), { requestId: tag });
		expect(result.error).toBeUndefined();
		expect(requestsTo(sandbox(), UPLOAD)).toHaveLength(3);
		expectEachRowOnce(tag, 1200);
		const out = result.outputs.Gateway;
		expect(out.map((item) => item.json)).toMatchObject([
			{
				batch: 1,
				batches: 3,
				request_id: `${tag}-1`,
				first_row: 1,
				last_row: 500,
				total_records: 500,
				status: 'queued',
				payouts_queued: 500,
			},
			{
				batch: 2,
				request_id: `${tag}-2`,
				first_row: 501,
				last_row: 1000,
				status: 'queued',
				payouts_queued: 500,
			},
			{
				batch: 3,
				request_id: `${tag}-3`,
				first_row: 1001,
				last_row: 1200,
				total_records: 200,
				status: 'queued',
				payouts_queued: 200,
			},
		]);
		expect(out[2].pairedItem).toEqual(Array.from({ length: 200 }, (_, i) => ({ item: 1000 + i })));
		expect(out[0].json.response).toMatchObject({ status: 'success', code: '00' });
		expect(out[0].binary).toBeUndefined();
	});

	it('sends 1,200 rows from a file as 3 batches; the same file in a copy of the workflow queues nothing (the ledger knows them; without data tables refused as already submitted) and fails saying so', async () => {
		const tag = tagOf();
		const first = await fromFile(rows(tag, 1200));
		expect(first.error).toBeUndefined();
		expectEachRowOnce(tag, 1200);
		const ids = first.outputs.Gateway.map((item) => item.json.request_id);
		ids.forEach((id) => expect(id).toMatch(/^n8n-[0-9a-f]{26}$/));
		expect(new Set(ids).size).toBe(3);

		sandbox().clearRequests();
		// The ledger (the account's data table) knows them: nothing is sent.
		const copy = await fromFile(rows(tag, 1200));
		expect(copy.error?.message).toBe('Nothing was paid: every row of this run was already queued');
		expect(requestsTo(sandbox(), '/payout/v1/bulk/payouts')).toHaveLength(0);
		// With n8n's data tables off, another workflow has no memory of these rows: the service's
		// E0021 is the guard behind it.
		dataTables.enabled = false;
		const again = await fromFile(rows(tag, 1200)).finally(() => (dataTables.enabled = true));
		expect(again.error?.message).toBe('Nothing was paid: every row of this run was already queued');
		const batches = (again.error as { context?: { batches?: IDataObject[] } }).context?.batches;
		expect(batches?.map((b) => b.status)).toEqual([
			'alreadyQueued',
			'alreadyQueued',
			'alreadyQueued',
		]);
		expect(batches?.map((b) => b.request_id)).toEqual(ids);
		expect(batches?.[0].response).toMatchObject({ code: 'E0021' });
		expectEachRowOnce(tag, 1200);
	});

	it('derives the same request IDs from items as from a file holding the same rows', async () => {
		const tag = tagOf();
		const file = await fromFile(rows(tag, 600), { validateOnly: true });
		const items = await fromItems(rows(tag, 600), { validateOnly: true });
		expect(items.outputs.Gateway.map((i) => i.json.request_id)).toEqual(
			file.outputs.Gateway.map((i) => i.json.request_id),
		);
	});

	it('checks every row of every batch first: one bad row in batch 3 sends nothing', async () => {
		const tag = tagOf();
		const items = rows(tag, 1200);
		items[1100] = { ...items[1100], 'Beneficiary IFSC': 'bad' };
		const result = await fromItems(items, { requestId: tag });
		expect(result.error?.message).toMatch(
			/row 1102 \(item 1100\), Beneficiary IFSC: must have the form XXXX0XXXXXX/,
		);
		expect(sandbox().requests).toHaveLength(0);
	});

	it('keeps Reference No unique across batches', async () => {
		const tag = tagOf();
		const items = rows(tag, 1200);
		items[1150] = { ...items[1150], 'Reference No': items[3]['Reference No'] };
		const result = await fromItems(items, { requestId: tag });
		expect(result.error?.message).toMatch(
			/row 1152 \(item 1150\), Reference No: must be unique; row 5 has it too/,
		);
		expect(sandbox().requests).toHaveLength(0);
	});

	it('refuses a Request ID with no room for the batch number', async () => {
		const result = await fromItems(rows(tagOf(), 600), { requestId: 'X'.repeat(29) });
		expect(result.error?.message).toMatch(
			/Request ID: must be at most 28 characters when the rows go out in 2 batches/,
		);
		expect(sandbox().requests).toHaveLength(0);
	});

	it('Validate Only reports every batch, with the violations of its own rows, and sends nothing', async () => {
		const tag = tagOf();
		const items = rows(tag, 1200);
		items[1100] = { ...items[1100], Amount: -5 };
		const result = await fromItems(items, {
			requestId: tag,
			validateOnly: true,
			options: { attachBatchFiles: true },
		});
		expect(sandbox().requests).toHaveLength(0);
		const out = result.outputs.Gateway;
		expect(
			out.map((item) => [item.json.request_id, item.json.status, item.json.failing_rows]),
		).toEqual([
			[`${tag}-1`, 'valid', 0],
			[`${tag}-2`, 'valid', 0],
			[`${tag}-3`, 'invalid', 1],
		]);
		expect((out[2].json.violations as IDataObject[])[0]).toMatchObject({
			row: 1102,
			item: 1100,
			column: 'Amount',
		});
		expect((await result.binary('Gateway', 2)).length).toBeGreaterThan(1000);
	});

	it('version 2 without Split Into Batches still refuses more than 500 rows, naming the option', async () => {
		const result = await fromItems(
			rows(tagOf(), 501),
			{ splitIntoBatches: false, requestId: 'ONE' },
			false,
			2,
		);
		expect(result.error?.message).toMatch(
			/^Payout file: may have at most 500 data rows in one upload: turn on Split Into Batches/,
		);
		expect(sandbox().requests).toHaveLength(0);
	});

	it('version 2 with Split Into Batches sends 1,200 rows as 3 batches; the same rows again are already queued', async () => {
		const tag = tagOf();
		const first = await fromItems(rows(tag, 1200), {}, false, 2);
		expect(statuses(first.outputs.Gateway)).toEqual(['queued', 'queued', 'queued']);
		const again = await fromItems(rows(tag, 1200), {}, false, 2);
		expect(statuses(again.outputs.Gateway)).toEqual([
			'alreadyQueued',
			'alreadyQueued',
			'alreadyQueued',
		]);
		expectEachRowOnce(tag, 1200);
	});
});
