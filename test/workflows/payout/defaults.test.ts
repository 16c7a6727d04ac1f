// Payout → Bulk Create as a new node (version 3) leaves it: every setting at its default. A re-run of
// the same rows must pay no one twice; saved nodes of versions 1-2 keep their one random upload.
import type { IDataObject } from 'n8n-workflow';

import type { Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import type { RunResult } from '../../harness';
import { requestsTo, runGateway } from '../support';

const UPLOAD = '/payout/v1/bulk/payouts';

let sandbox: Sandbox;
let runs = 0;

beforeAll(async () => {
	sandbox = await startSandbox();
});
afterAll(async () => await sandbox.stop());
beforeEach(() => {
	sandbox.faults.clear();
	sandbox.clearRequests();
});

/** `count` valid NEFT rows with references unique to this test (`tag`), as a sheet would give them. */
function rows(tag: string, count: number): IDataObject[] {
	return Array.from({ length: count }, (_, i) => ({
		'Reference No': `${tag}-${i}`,
		'Payment Mode': 'NEFT',
		Amount: 250 + (i % 50),
		Remark: `Salary ${i}`,
		'Beneficiary Name': 'Ravi Kumar',
		'Beneficiary Account Number': '123456789012',
		'Beneficiary IFSC': 'HDFC0001234',
	}));
}

const tagOf = () => `D${process.pid % 10000}R${++runs}`;

/** Only what the editor asks for: resource, operation, currency (required). */
const payout = (
	items: IDataObject[],
	more: { parameters?: IDataObject; typeVersion?: number; continueOnFail?: boolean } = {},
) =>
	runGateway(sandbox, {
		items,
		credentialType: 'paymentGatewayPayoutApi',
		typeVersion: more.typeVersion,
		continueOnFail: more.continueOnFail,
		parameters: {
			resource: 'payout',
			operation: 'bulkCreate',
			currency: 'INR',
			...more.parameters,
		} as never,
	});

/** How many times each reference of this test was queued, over every batch the sandbox holds. */
function queued(tag: string): number[] {
	const counts = new Map<string, number>();
	for (const batch of sandbox.state.payoutBatches.values()) {
		for (const row of batch.rows) {
			const reference = row['Reference No'];
			if (reference.startsWith(`${tag}-`)) counts.set(reference, (counts.get(reference) ?? 0) + 1);
		}
	}
	return [...counts.values()];
}

const json = (result: RunResult) => result.outputs.Gateway.map((item) => item.json);

describe('payout.bulkCreate in a new node (version 3), default settings', () => {
	it('the same rows run twice: one payout queued; the second run reports already queued, not a failure', async () => {
		const tag = tagOf();
		const first = await payout(rows(tag, 2));
		expect(first.error).toBeUndefined();
		expect(json(first)).toMatchObject([
			{ batch: 1, batches: 1, status: 'queued', payouts_queued: 2 },
		]);
		const id = json(first)[0].request_id;
		expect(id).toMatch(/^n8n-[0-9a-f]{26}$/);

		const again = await payout(rows(tag, 2));
		expect(again.error).toBeUndefined();
		expect(json(again)).toMatchObject([
			{ request_id: id, status: 'alreadyQueued', payouts_queued: 0, response: { code: 'E0021' } },
		]);
		expect(json(again)[0].message).toMatch(/new Request ID or new Reference No/);
		expect(requestsTo(sandbox, UPLOAD)).toHaveLength(2);
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
		expect(requestsTo(sandbox, UPLOAD)).toHaveLength(3);
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
		expect(sandbox.requests).toHaveLength(0);
	});

	it('a lost answer the node repeats itself: settled in the same run by the refusal of the repeat', async () => {
		const tag = tagOf();
		sandbox.faults.inject({ kind: 'dropAnswer', path: UPLOAD });
		const result = await payout(rows(tag, 3));
		expect(result.error).toBeUndefined();
		expect(json(result)).toMatchObject([{ status: 'queued', confirmedByDuplicate: true }]);
		expect(queued(tag)).toEqual([1, 1, 1]);
	});

	it('an answer lost on every attempt: "no clear answer"; re-sent, it is already queued; 0 duplicates', async () => {
		const tag = tagOf();
		// The first attempt and the node's 3 repeats (its default) all lose their answers.
		sandbox.faults.inject({ kind: 'dropAnswer', path: UPLOAD, count: 4 });
		const first = await payout(rows(tag, 3));
		expect(first.error?.message).toMatch(/^Batch 1 of 1 .* got no clear answer/);
		expect(requestsTo(sandbox, UPLOAD)).toHaveLength(4);
		sandbox.faults.clear();
		const again = await payout(rows(tag, 3));
		expect(again.error).toBeUndefined();
		expect(json(again)).toMatchObject([{ status: 'alreadyQueued' }]);
		expect(queued(tag)).toEqual([1, 1, 1]);
	});

	it('paying the same rows again on purpose: a new Request ID, or a changed Reference No', async () => {
		const tag = tagOf();
		await payout(rows(tag, 1));
		const newId = await payout(rows(tag, 1), { parameters: { requestId: `${tag}-again` } });
		expect(json(newId)).toMatchObject([{ request_id: `${tag}-again-1`, status: 'queued' }]);
		const renamed = rows(tag, 1).map((r) => ({ ...r, 'Reference No': `${tag}-0b` }));
		expect(json(await payout(renamed))).toMatchObject([{ status: 'queued' }]);
		expect(queued(tag)).toEqual([2, 1]);
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
			expect(sandbox.requests).toHaveLength(0);
		},
	);
});
