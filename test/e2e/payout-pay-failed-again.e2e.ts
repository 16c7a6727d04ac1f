// Pay Failed Again in real n8n: the payroll queues its rows in the account's ledger (an n8n data
// table); results made failed and rejected through n8n's own data table REST API (as a person or
// the results receiver would change them); a second workflow with Options > Pay Failed Again pays
// exactly those again, as attempt 2, and run again pays nobody.
import { payoutAccount } from '../../nodes/PaymentGateway/actions/payout/ledger/account';
import { startSandbox, type Sandbox } from '../sandbox';
import { N8n, type CredentialEntry } from './n8n';
import {
	CREDENTIAL,
	items,
	payroll,
	queuedTimes,
	rowsCode,
	runByWebhook,
	webhook,
} from './payout-ledger';

const PAYROLL = 'e2ePfaPayroll';
const RETRY = 'e2ePfaRetry';
const REFS = ['PFA-0', 'PFA-1', 'PFA-2', 'PFA-3'];
const LONG = 600_000;

let sandbox: Sandbox;
let n8n: N8n;
let tableName: string;

/** The ledger table as n8n lists it (its project and id). */
async function ledgerTable(): Promise<{ id: string; projectId: string }> {
	const listed = await n8n.rest('GET', '/rest/data-tables-global');
	expect(listed.status).toBe(200);
	const tables = listed.body.data.data as Array<{ id: string; name: string; projectId: string }>;
	const table = tables.find((t) => t.name === tableName);
	if (!table) throw new Error(`no data table ${tableName}: ${JSON.stringify(tables)}`);
	return table;
}

/** One reference's record changed through n8n's REST API (PATCH …/data-tables/:id/rows). */
async function setRecord(ref: string, data: Record<string, unknown>): Promise<void> {
	const { id, projectId } = await ledgerTable();
	const filter = {
		type: 'and',
		filters: [{ columnName: 'reference_no', condition: 'eq', value: ref }],
	};
	const patched = await n8n.rest('PATCH', `/rest/projects/${projectId}/data-tables/${id}/rows`, {
		filter,
		data,
		returnData: true,
	});
	expect(patched.status).toBe(200);
	expect(patched.body.data).toHaveLength(1);
}

async function records(): Promise<Array<Record<string, unknown>>> {
	const { id, projectId } = await ledgerTable();
	const rows = await n8n.rest('GET', `/rest/projects/${projectId}/data-tables/${id}/rows?take=100`);
	expect(rows.status).toBe(200);
	return (rows.body.data.data as Array<Record<string, unknown>>).filter((row) =>
		String(row.reference_no).startsWith('PFA-'),
	);
}

beforeAll(async () => {
	sandbox = await startSandbox({ seed: 43, transactionCount: 1 });
	n8n = await N8n.create();
	const data = { payoutUrl: sandbox.payoutUrl, obtainBy: 'request', ...sandbox.keys.payout };
	tableName = payoutAccount(data).tableName;
	const credential: CredentialEntry = { ...CREDENTIAL, type: 'paymentGatewayPayoutApi', data };
	await n8n.importCredentials([credential]);
	const published = [
		payroll(PAYROLL, webhook(PAYROLL), rowsCode(REFS, 'Salary')),
		payroll(RETRY, webhook(RETRY), rowsCode(REFS, 'Salary'), { payFailedAgain: true }),
	];
	await n8n.importWorkflows(published);
	for (const workflow of published) await n8n.publish(workflow.id);
	await n8n.start();
	await n8n.waitForWebhooks([PAYROLL, RETRY].map((id) => `${n8n.baseUrl}/webhook/${id}`));
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
