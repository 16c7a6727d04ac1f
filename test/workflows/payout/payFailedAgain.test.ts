// Payout → Bulk Create (version 3), Options → Pay Failed Again: references whose payment failed,
// was rejected or reversed (by the results the service posts, applied to the account's ledger)
// are paid again as their next attempt; every other one is left out and listed. The results are
// applied as the results receiver applies them (ledger/results.ts), to the harness's data tables.
import type { IDataObject } from 'n8n-workflow';

import { payoutAccount } from '../../../nodes/PaymentGateway/actions/payout/ledger/account';
import type { RowResult } from '../../../nodes/PaymentGateway/actions/payout/ledger/results';
import { applyResult } from '../../../nodes/PaymentGateway/actions/payout/ledger/results';
import { dataTables } from '../../harness';
import { requestsTo } from '../support';
import {
	bulkCreate,
	errorDescription,
	neftRows,
	outputJson as json,
	queuedCounts,
	UPLOAD,
	usePayoutFile,
} from './support';

const { sandbox, tagOf, payout } = usePayoutFile('PF');

const counts = (tag: string) => [...queuedCounts(sandbox(), tag).entries()].sort();

/** Results applied to the account's ledger table named in a batch item, each one changing it. */
async function applyResults(batch: IDataObject, results: RowResult[]): Promise<void> {
	const named = batch.ledgerTable as { id: string; name: string; projectId: string };
	const proxy = dataTables.store.makeDataTableOperations(named.projectId, named.id);
	const { payoutUrl, keys } = sandbox();
	const { key } = payoutAccount({ payoutUrl, obtainBy: 'request', ...keys.payout });
	for (const result of results)
		expect((await applyResult({ ...named, proxy }, key, result)).applied).toBe(true);
}

const ledgerRecord = (batch: IDataObject, reference: string) =>
	dataTables.store
		.rowsOf(String((batch.ledgerTable as IDataObject).name))
		.find((row) => row.reference_no === reference);

describe('payout.bulkCreate: Pay Failed Again', () => {
	it('pays a failed, a rejected and a reversed reference again as attempt 2, only with the option on; never a processed or queued one; a second run pays nobody', async () => {
		const tag = tagOf();
		const ref = (i: number) => `${tag}-${i}`;
		const [first] = json(await payout(tag, neftRows(tag, 5)));
		await applyResults(first, [
			{ reference_no: ref(0), state: 'failed', reason: 'Beneficiary account closed' },
			{ reference_no: ref(1), state: 'rejected', reason: 'IFSC not allowed' },
			{ reference_no: ref(2), state: 'processed', utr: 'UTR0002' },
			{ reference_no: ref(2), state: 'reversed', reason: 'Credited back by the bank' },
			{ reference_no: ref(3), state: 'processed', utr: 'UTR0003' },
		]);

		// Off: a failed reference is known as paid, like any other.
		const off = await payout(tag, neftRows(tag, 5));
		expect(off.error?.message).toBe('Nothing was paid: every row of this run was already queued');
		expect(counts(tag).map(([, n]) => n)).toEqual([1, 1, 1, 1, 1]);

		// On, with a new reference too: that one is a first payment, apart from the re-payments.
		const on = await payout(tag, neftRows(tag, 6), { payFailedAgain: true });
		expect(on.error).toBeUndefined();
		const [newOne, repaid, skipped] = json(on);
		expect(newOne).toMatchObject({ status: 'queued', attempt: 1, paidAgain: false });
		expect(repaid).toMatchObject({
			status: 'queued',
			attempt: 2,
			paidAgain: true,
			total_records: 3,
			earlierRequestId: first.request_id,
			paidFailedAgain: [
				{
					reference_no: ref(0),
					attempt: 2,
					earlier_attempt: 1,
					earlier_state: 'failed',
					earlier_reason: 'Beneficiary account closed',
					earlier_request_id: first.request_id,
				},
				{ reference_no: ref(1), attempt: 2, earlier_state: 'rejected' },
				{
					reference_no: ref(2),
					attempt: 2,
					earlier_state: 'reversed',
					earlier_reason: 'Credited back by the bank',
				},
			],
		});
		expect(skipped).toMatchObject({
			status: 'alreadyQueued',
			skipped_rows: 2,
			references: [
				{ reference_no: ref(3), attempt: 1, state: 'processed' },
				{ reference_no: ref(4), attempt: 1, state: 'queued' },
			],
		});
		expect(skipped.message).toMatch(/Pay Failed Again pays only references whose payment failed/);
		expect(counts(tag)).toEqual([
			[ref(0), 2],
			[ref(1), 2],
			[ref(2), 2],
			[ref(3), 1],
			[ref(4), 1],
			[ref(5), 1],
		]);
		// The ledger keeps attempt 1 beside attempt 2.
		const record = ledgerRecord(first, ref(0));
		expect(record).toMatchObject({ state: 'queued', attempt: 2, request_id: repaid.request_id });
		expect(JSON.parse(String(record?.attempts))).toMatchObject([
			{
				attempt: 1,
				state: 'failed',
				reason: 'Beneficiary account closed',
				request_id: first.request_id,
			},
		]);

		// The same step again: those references are queued now; nobody is paid.
		sandbox().clearRequests();
		const again = await payout(tag, neftRows(tag, 6), { payFailedAgain: true });
		expect(again.error?.message).toMatch(/^Nothing was paid/);
		expect(errorDescription(again)).toContain(`Reference No ${ref(0)}, ${ref(1)}, ${ref(2)}`);
		expect(errorDescription(again)).toMatch(/Pay Failed Again pays only references whose payment/);
		expect(requestsTo(sandbox(), UPLOAD)).toHaveLength(0);
		expect(counts(tag).map(([, n]) => n)).toEqual([2, 2, 2, 1, 1, 1]);
	});

	it('a re-payment that fails again is paid as attempt 3; the ledger keeps attempts 1 and 2', async () => {
		const tag = tagOf();
		const ref = `${tag}-0`;
		const [first] = json(await payout(tag, neftRows(tag, 1)));
		await applyResults(first, [{ reference_no: ref, state: 'failed', reason: 'Account frozen' }]);
		const [second] = json(await payout(tag, neftRows(tag, 1), { payFailedAgain: true }));
		expect(second).toMatchObject({ status: 'queued', attempt: 2 });
		await applyResults(first, [
			{
				reference_no: ref,
				state: 'rejected',
				reason: 'Bank down',
				request_id: String(second.request_id),
			},
		]);
		const [third] = json(await payout(tag, neftRows(tag, 1), { payFailedAgain: true }));
		expect(third).toMatchObject({
			status: 'queued',
			attempt: 3,
			earlierRequestId: second.request_id,
			paidFailedAgain: [
				{ reference_no: ref, attempt: 3, earlier_attempt: 2, earlier_state: 'rejected' },
			],
		});
		expect(counts(tag)).toEqual([[ref, 3]]);
		const record = ledgerRecord(first, ref);
		expect(record).toMatchObject({ state: 'queued', attempt: 3 });
		expect(
			(JSON.parse(String(record?.attempts)) as IDataObject[]).map((a) => [a.attempt, a.state]),
		).toEqual([
			[1, 'failed'],
			[2, 'rejected'],
		]);
	});

	it("with a given Request ID, room for a re-payment's -a<attempt> is checked before anything is sent", async () => {
		const tag = tagOf();
		const requestId = 'X'.repeat(26);
		const refused = await bulkCreate(
			sandbox(),
			neftRows(tag, 1),
			{ requestId, options: { payFailedAgain: true } },
			{ workflowId: tag },
		);
		expect(refused.error?.message).toMatch(/Request ID: must be at most 25 characters/);
		expect(requestsTo(sandbox(), UPLOAD)).toHaveLength(0);
		const given = { requestId: `${tag}-RUN`, options: { payFailedAgain: true } };
		const [first] = json(await bulkCreate(sandbox(), neftRows(tag, 1), given, { workflowId: tag }));
		await applyResults(first, [{ reference_no: `${tag}-0`, state: 'failed', reason: 'Closed' }]);
		const again = await bulkCreate(sandbox(), neftRows(tag, 1), given, { workflowId: tag });
		expect(json(again)[0]).toMatchObject({ request_id: `${tag}-RUN-a2-1`, attempt: 2 });
	});

	it('two runs of Pay Failed Again at the same time pay each failed reference once', async () => {
		const tag = tagOf();
		const [first] = json(await payout(tag, neftRows(tag, 4)));
		await applyResults(
			first,
			[0, 1, 2].map((i) => ({ reference_no: `${tag}-${i}`, state: 'failed' as const })),
		);
		// Every data table call takes a round trip, so the two runs interleave.
		dataTables.store.delayMs = 5;
		// Request IDs of their own: the service's E0021 cannot stop the second; only the claim can.
		const runs = await Promise.all(
			['A', 'B'].map((id) =>
				bulkCreate(sandbox(), neftRows(tag, 4), {
					requestId: `${tag}-${id}`,
					options: { payFailedAgain: true },
				}),
			),
		);
		expect(counts(tag).map(([, n]) => n)).toEqual([2, 2, 2, 1]);
		// One paid them as attempt 2; the other found them claimed or queued as attempt 2 and sent nothing.
		expect(runs.filter((run) => run.error === undefined)).toHaveLength(1);
		const records = dataTables.store
			.rowsOf(String((first.ledgerTable as IDataObject).name))
			.filter((row) => String(row.reference_no).startsWith(`${tag}-`));
		expect(records.map((r) => [r.reference_no, r.state, r.attempt])).toEqual([
			[`${tag}-0`, 'queued', 2],
			[`${tag}-1`, 'queued', 2],
			[`${tag}-2`, 'queued', 2],
			[`${tag}-3`, 'queued', 1],
		]);
	});

	it('with Pay Again on as well, the run is refused before anything is sent', async () => {
		const tag = tagOf();
		const result = await payout(tag, neftRows(tag, 1), { payAgain: true, payFailedAgain: true });
		expect(result.error?.message).toMatch(/Pay Failed Again.*Pay Again/);
		expect(requestsTo(sandbox(), UPLOAD)).toHaveLength(0);
	});

	it("where the ledger is the node's memory (n8n's data tables off), Pay Failed Again pays nobody and says it needs n8n's data tables", async () => {
		const tag = tagOf();
		dataTables.enabled = false;
		await payout(tag, neftRows(tag, 1));
		const result = await payout(tag, neftRows(tag, 2), { payFailedAgain: true });
		// The new reference goes out as a first payment; the item says what the option could not do.
		const [batch, skipped] = json(result);
		expect(batch).toMatchObject({ status: 'queued', attempt: 1, total_records: 1 });
		expect(String(batch.payFailedAgain)).toMatch(/needs n8n's data tables/);
		expect(skipped.message).toMatch(/Pay Failed Again needs n8n's data tables/);
		const again = await payout(tag, neftRows(tag, 2), { payFailedAgain: true });
		expect(again.error?.message).toMatch(/^Nothing was paid/);
		expect(errorDescription(again)).toMatch(/Pay Failed Again needs n8n's data tables/);
		expect(counts(tag).map(([, n]) => n)).toEqual([1, 1]);
	});
});
