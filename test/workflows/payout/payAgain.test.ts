// Payout → Bulk Create (version 3), Options → Pay Again. A node cannot turn its own switch off, so a
// re-payment is known like a payment: Reference No + attempt. Left on, the switch pays nobody a
// second time; the output of a re-payment says so; a run counts its own batches and sheet rows.
import type { IDataObject } from 'n8n-workflow';

import { requestsTo } from '../support';
import {
	bulkCreate,
	errorDescription,
	neftRows,
	outputJson as json,
	UPLOAD,
	usePayoutFile,
} from './support';

const { sandbox, tagOf, payout: payItems, queued } = usePayoutFile('PA');

/** Bulk Create v3 of `count` NEFT rows of `tag`, with these Options. */
const payout = (tag: string, count: number, options: IDataObject = {}) =>
	payItems(tag, neftRows(tag, count), options);

/** The request IDs of the batches the sandbox queued with this test's references. */
const requestIds = (tag: string) =>
	[...sandbox().state.payoutBatches.values()]
		.filter((batch) => batch.rows.some((row) => row['Reference No'].startsWith(`${tag}-`)))
		.map((batch) => batch.request_id);

const description = errorDescription;

describe('payout.bulkCreate: Pay Again', () => {
	it('left on for a second run: nothing paid, the run fails naming the references; Attempt 3 pays once more', async () => {
		const tag = tagOf();
		const first = await payout(tag, 2);
		expect(json(first)).toMatchObject([{ status: 'queued', paidAgain: false, attempt: 1 }]);
		const firstId = json(first)[0].request_id;

		// A saved workflow's switch without an attempt: attempt 2.
		const again = await payout(tag, 2, { payAgain: true });
		expect(again.error).toBeUndefined();
		expect(json(again)).toMatchObject([
			{
				status: 'queued',
				batch: 1,
				batches: 1,
				paidAgain: true,
				attempt: 2,
				earlierRequestId: firstId,
				total_records: 2,
			},
		]);
		const secondId = json(again)[0].request_id;
		expect(secondId).not.toBe(firstId);
		expect(queued(tag)).toEqual([2, 2]);

		sandbox().clearRequests();
		const leftOn = await payout(tag, 2, { payAgain: true });
		expect(leftOn.error?.message).toBe(
			'Nothing was paid: every row of this run was already queued',
		);
		expect(description(leftOn)).toContain(`Reference No ${tag}-0, ${tag}-1`);
		expect(description(leftOn)).toMatch(/already paid again as attempt 2/);
		expect(description(leftOn)).toMatch(/set Options > Attempt to 3/);
		expect(requestsTo(sandbox(), UPLOAD)).toHaveLength(0);
		expect(queued(tag)).toEqual([2, 2]);

		const third = await payout(tag, 2, { payAgain: true, payAgainAttempt: 3 });
		expect(json(third)).toMatchObject([
			{ status: 'queued', paidAgain: true, attempt: 3, earlierRequestId: secondId },
		]);
		expect(queued(tag)).toEqual([3, 3]);
		expect((await payout(tag, 2, { payAgain: true, payAgainAttempt: 3 })).error?.message).toMatch(
			/^Nothing was paid/,
		);
		expect(queued(tag)).toEqual([3, 3]);
	});

	it("a re-payment's lost answer: the same attempt again is sent under the same request ID, refused as already submitted; 0 duplicates", async () => {
		const tag = tagOf();
		const firstId = json(await payout(tag, 2))[0].request_id;
		sandbox().faults.inject({ kind: 'dropAnswer', path: UPLOAD, count: 4 });
		const lost = await payout(tag, 2, { payAgain: true });
		expect(lost.error?.message).toMatch(/got no clear answer/);
		// The service queued the re-payment; the node never learned it.
		const sent = requestIds(tag).filter((id) => id !== firstId);
		expect(sent).toHaveLength(1);
		expect(queued(tag)).toEqual([2, 2]);
		sandbox().faults.clear();
		// The same attempt, the same request ID: refused as already submitted, so it moved no money now.
		const settled = await payout(tag, 2, { payAgain: true });
		expect(settled.error?.message).toMatch(/^Nothing was paid/);
		const context = (settled.error as { context?: { batches?: IDataObject[] } }).context;
		expect(context?.batches).toMatchObject([
			{ status: 'alreadyQueued', paidAgain: true, attempt: 2, request_id: sent[0] },
		]);
		expect(queued(tag)).toEqual([2, 2]);
		// Settled: known as attempt 2 from now on.
		expect(description(await payout(tag, 2, { payAgain: true }))).toMatch(
			/already paid again as attempt 2/,
		);
		expect(queued(tag)).toEqual([2, 2]);
	});

	it('with Pay Again on, a reference never paid goes out as a first payment, apart from the re-payments', async () => {
		const tag = tagOf();
		await payout(tag, 1);
		const result = await payout(tag, 2, { payAgain: true });
		expect(result.error).toBeUndefined();
		expect(
			json(result).map((j) => [j.batch, j.batches, j.attempt, j.paidAgain, j.first_sheet_row]),
		).toEqual([
			[1, 2, 1, false, 3],
			[2, 2, 2, true, 2],
		]);
		expect(queued(tag)).toEqual([2, 1]);
	});

	it("with a given Request ID, a re-payment's IDs carry the attempt; one too long is refused before anything is sent", async () => {
		const tag = tagOf();
		const given = { requestId: `${tag}-RUN` };
		const run = (parameters: IDataObject) =>
			bulkCreate(sandbox(), neftRows(tag, 1), parameters, { workflowId: tag });
		const first = await run(given);
		expect(json(first)[0].request_id).toBe(`${tag}-RUN-1`);
		const again = await run({ ...given, options: { payAgain: true } });
		expect(json(again)[0]).toMatchObject({ request_id: `${tag}-RUN-a2-1`, paidAgain: true });
		sandbox().clearRequests();
		const long = 'X'.repeat(26);
		const refused = await run({ requestId: long, options: { payAgain: true, payAgainAttempt: 3 } });
		expect(refused.error?.message).toMatch(/Request ID: must be at most 25 characters/);
		expect(requestsTo(sandbox(), UPLOAD)).toHaveLength(0);
	});

	it('a run that sends one batch reports batch 1 of 1; rows as sheet rows (header = 1)', async () => {
		const tag = tagOf();
		await payout(tag, 2);
		const added = await payout(tag, 3);
		const [batch, skipped] = json(added);
		expect(batch).toMatchObject({
			status: 'queued',
			batch: 1,
			batches: 1,
			first_sheet_row: 4,
			last_sheet_row: 4,
		});
		expect((skipped.references as IDataObject[]).map((r) => r.sheet_row)).toEqual([2, 3]);
	});
});
