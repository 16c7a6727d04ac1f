import type { IDataObject } from 'n8n-workflow';

import { buildXlsx } from '../../../nodes/PaymentGateway/spreadsheet/xlsx';
import type { Fault } from '../../sandbox/core/faults';
import { dataTables } from '../../harness';
import { requestsTo, runGateway } from '../support';
import {
	bulkCreate,
	HEADERS,
	queuedCounts as queuedOf,
	tagger,
	UPLOAD,
	useSandbox,
} from './support';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const sandbox = useSandbox();

/** `count` valid rows with references unique to this test run (`tag`). */
function rows(tag: string, count: number): IDataObject[] {
	return Array.from({ length: count }, (_, i) => ({
		'Reference No': `${tag}-${i}`,
		'Payment Mode': i % 2 ? 'IMPSP2P' : 'NEFT',
		Amount: 100 + (i % 97) + 0.5,
		Remark: `Row ${i}`,
		'Beneficiary Name': 'Asha Rao',
		...(i % 2
			? { 'Beneficiary Mobile': '9876543210', 'Beneficiary MMID': '1234567' }
			: { 'Beneficiary Account Number': '123456789012', 'Beneficiary IFSC': 'HDFC0001234' }),
	}));
}

const tagOf = tagger('T');
const SPLIT = {
	resource: 'payout',
	operation: 'bulkCreate',
	currency: 'INR',
	splitIntoBatches: true,
};

/** In the newest node version unless `typeVersion` (1-2 take Split Into Batches as a setting). */
const fromItems = (
	items: IDataObject[],
	parameters: IDataObject = {},
	continueOnFail = false,
	typeVersion?: number,
	/** The same ID is the same workflow run again (the node's memory is kept per workflow). */
	workflowId?: string,
) =>
	bulkCreate(
		sandbox(),
		items,
		{ splitIntoBatches: true, ...parameters },
		{
			workflowId,
			typeVersion,
			continueOnFail,
		},
	);

async function fromFile(items: IDataObject[], parameters: IDataObject = {}) {
	const file = await buildXlsx(
		'Sheet1',
		HEADERS,
		items.map((r) => HEADERS.map((h) => r[h] as string | number | undefined)),
	);
	return await runGateway(sandbox(), {
		items: [{}],
		binary: [
			{
				property: 'data',
				fileName: 'payouts.xlsx',
				mimeType: XLSX,
				base64: file.toString('base64'),
			},
		],
		credentialType: 'paymentGatewayPayoutApi',
		parameters: { ...SPLIT, inputMode: 'binary', ...parameters } as never,
	});
}

const queuedCounts = (tag: string) => queuedOf(sandbox(), tag);

/** Every row of the run queued exactly once, in batches of 500 in row order. */
function expectEachRowOnce(tag: string, count: number) {
	const counts = queuedCounts(tag);
	expect(counts.size).toBe(count);
	expect([...counts.values()].every((n) => n === 1)).toBe(true);
	const batches = [...sandbox().state.payoutBatches.values()].filter((b) =>
		b.rows[0]['Reference No'].startsWith(`${tag}-`),
	);
	expect(batches.map((b) => b.rows.length)).toEqual(
		Array.from({ length: Math.ceil(count / 500) }, (_, i) => Math.min(500, count - i * 500)),
	);
	batches.forEach((b, i) => expect(b.rows[0]['Reference No']).toBe(`${tag}-${i * 500}`));
}

const statuses = (items: { json: IDataObject }[]) => items.map((item) => item.json.status);

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
			sandbox().faults.inject(fault);
			const first = await fromItems(
				rows(tag, 1001),
				{ requestId: tag, ...ONE_RETRY },
				false,
				undefined,
				tag,
			);
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
			const again = await fromItems(
				rows(tag, 1001),
				{ requestId: tag, ...ONE_RETRY },
				false,
				undefined,
				tag,
			);
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
