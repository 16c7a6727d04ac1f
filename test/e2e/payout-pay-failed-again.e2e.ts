// Pay Failed Again in real n8n: the payroll queues its rows in the account's ledger (an n8n data
// table); results made failed and rejected through n8n's own data table REST API (as a person or
// the results receiver would change them); a second workflow with Options > Pay Failed Again pays
// exactly those again, as attempt 2, and run again pays nobody.
import type { Sandbox } from '../sandbox';
import type { N8n } from './n8n';
import { items, payroll, queuedTimes, rowsCode, runByWebhook, webhook } from './payout-ledger';
import { ledgerTable, setLedgerRecord, startPayoutN8n } from './payout-wait';

const PAYROLL = 'e2ePfaPayroll';
const RETRY = 'e2ePfaRetry';
const REFS = ['PFA-0', 'PFA-1', 'PFA-2', 'PFA-3'];
const LONG = 600_000;

let sandbox: Sandbox;
let n8n: N8n;
let tableName: string;

const setRecord = (ref: string, data: Record<string, unknown>) =>
	setLedgerRecord(n8n, tableName, ref, data);

async function records(): Promise<Array<Record<string, unknown>>> {
	const { id, projectId } = await ledgerTable(n8n, tableName);
	const rows = await n8n.rest('GET', `/rest/projects/${projectId}/data-tables/${id}/rows?take=100`);
	expect(rows.status).toBe(200);
	return (rows.body.data.data as Array<Record<string, unknown>>).filter((row) =>
		String(row.reference_no).startsWith('PFA-'),
	);
}

beforeAll(async () => {
	({ sandbox, n8n, tableName } = await startPayoutN8n(43, () => [
		payroll(PAYROLL, webhook(PAYROLL), rowsCode(REFS, 'Salary')),
		payroll(RETRY, webhook(RETRY), rowsCode(REFS, 'Salary'), { payFailedAgain: true }),
	]));
}, 900_000);

afterAll(async () => {
	await n8n?.stop();
	await n8n?.dispose();
	await sandbox?.stop();
});

describe('Pay Failed Again in real n8n', () => {
	it(
		'pays exactly the references made failed and rejected in the ledger, as attempt 2; run again, it pays nobody',
		async () => {
			const first = await runByWebhook(n8n, PAYROLL);
			expect(first.status).toBe('success');
			const requestId = items(first, 'Payouts')[0].request_id;
			await setRecord('PFA-0', { state: 'failed', reason: 'Beneficiary account closed' });
			await setRecord('PFA-1', { state: 'rejected', reason: 'IFSC not allowed' });
			await setRecord('PFA-2', { state: 'processed', utr: 'UTR0002' });

			const retry = await runByWebhook(n8n, RETRY);
			expect(retry.status).toBe('success');
			const [repaid, skipped] = items(retry, 'Payouts');
			expect(repaid).toMatchObject({
				status: 'queued',
				attempt: 2,
				paidAgain: true,
				total_records: 2,
				earlierRequestId: requestId,
				paidFailedAgain: [
					{
						reference_no: 'PFA-0',
						earlier_state: 'failed',
						earlier_reason: 'Beneficiary account closed',
					},
					{ reference_no: 'PFA-1', earlier_state: 'rejected', earlier_reason: 'IFSC not allowed' },
				],
			});
			expect(skipped).toMatchObject({
				status: 'alreadyQueued',
				references: [
					{ reference_no: 'PFA-2', state: 'processed' },
					{ reference_no: 'PFA-3', state: 'queued' },
				],
			});
			expect(queuedTimes(sandbox, 'PFA-')).toEqual({
				'PFA-0': 2,
				'PFA-1': 2,
				'PFA-2': 1,
				'PFA-3': 1,
			});
			const ledger = await records();
			expect(ledger.map((r) => [r.reference_no, r.state, r.attempt])).toEqual([
				['PFA-0', 'queued', 2],
				['PFA-1', 'queued', 2],
				['PFA-2', 'processed', 1],
				['PFA-3', 'queued', 1],
			]);
			expect(JSON.parse(String(ledger[0].attempts))).toMatchObject([
				{ attempt: 1, state: 'failed', request_id: requestId },
			]);

			const again = await runByWebhook(n8n, RETRY);
			expect(again.status).toBe('error');
			const error = again.data?.resultData.error as { message?: string; description?: string };
			expect(error.message).toMatch(/^Nothing was paid/);
			expect(error.description).toContain('PFA-0, PFA-1');
			expect(queuedTimes(sandbox, 'PFA-')).toEqual({
				'PFA-0': 2,
				'PFA-1': 2,
				'PFA-2': 1,
				'PFA-3': 1,
			});
		},
		LONG,
	);
});
