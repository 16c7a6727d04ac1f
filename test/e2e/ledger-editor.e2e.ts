// The payout ledger where a person looks for it, in a real n8n 2.41.1 and its editor (headless
// Debian Chromium): a payroll (Bulk Create, version 3, from items) pays a few references against
// the sandbox; then, as a clerk does, Overview → Data tables → "Payout ledger <host> <last 6>"
// shows each reference queued with its request_id and amount and nothing of the account number
// but its last 4 digits; and n8n's Data Table node, added from the nodes panel in a new workflow,
// gets one reference's record and shows it in its output. Screenshots go to docs/screenshots/.
import { join, resolve } from 'node:path';

import type { BrowserContext, Page } from 'playwright-core';

import { LEDGER_COLUMNS } from '../../nodes/PaymentGateway/actions/payout/ledger/record';
import type { Sandbox } from '../sandbox';
import { closeEditorAfterAll, openEditorRun, setUpOwner, signedInBrowser } from './browser';
import {
	getRowsWithDataTableNode,
	openDataTableFromOverview,
	outputTable,
	readGrid,
	totalRows,
	waitForRowCount,
	type Row,
} from './data-table-ui';
import { OWNER, type N8n } from './n8n';
import {
	importPayoutCredential,
	items,
	rowsCode,
	runByWebhook,
	webhookPayroll,
} from './payout-ledger';

const SCREENSHOTS = join(resolve(__dirname, '../..'), 'docs/screenshots');
const PAYROLL = 'e2eLedgerEditorPayroll';
/** What the payroll pays: rowsCode gives each row Amount 100 + its index. */
const PAID = ['EMP-017', 'EMP-018', 'EMP-019'];
const AMOUNTS = ['100', '101', '102'];
/** The beneficiary account number of every row (rowsCode); only '9012' may be shown. */
const ACCOUNT_NUMBER = '123456789012';
const COLUMNS = LEDGER_COLUMNS.map((column) => column.name as string);

let sandbox: Sandbox;
let n8n: N8n;
let context: BrowserContext | undefined;
let page: Page;
let tableName: string;
/** The payroll's batch, as Bulk Create's output says. */
let requestId: string;

beforeAll(async () => {
	({ sandbox, n8n } = await openEditorRun({ seed: 42, transactionCount: 1 }));
	tableName = await importPayoutCredential(n8n, sandbox);
	await n8n.importWorkflow(webhookPayroll(PAYROLL, rowsCode(PAID, 'Salary November')));
	await n8n.publish(PAYROLL);
	await n8n.start();
	await setUpOwner(n8n, OWNER);
	await n8n.waitForWebhooks([`${n8n.baseUrl}/webhook/${PAYROLL}`]);
	const run = await runByWebhook(n8n, PAYROLL);
	expect(run.status).toBe('success');
	const [batch] = items(run, 'Payouts');
	expect(batch).toMatchObject({ status: 'queued', total_records: PAID.length });
	expect(batch.ledgerTable).toMatchObject({ name: tableName });
	requestId = String(batch.request_id);
	({ context, page } = await signedInBrowser(n8n, OWNER));
}, 900_000);

closeEditorAfterAll(() => ({ context, n8n, sandbox }));

/** No cell shows more of the account number than its last 4 digits. */
const expectAccountMasked = (rows: Row[]) => {
	for (const row of rows) {
		expect(row.account_last4).toBe(ACCOUNT_NUMBER.slice(-4));
		for (const text of Object.values(row))
			expect(text ?? '').not.toContain(ACCOUNT_NUMBER.slice(0, 8));
	}
};

describe('the payout ledger in the real n8n editor', () => {
	it('Overview → Data tables opens the ledger: each paid reference queued, its request_id and amount, the account number masked', async () => {
		const grid = await openDataTableFromOverview(page, tableName);
		const total = await totalRows(page);
		await waitForRowCount(grid, total);
		const rows = await readGrid(grid, COLUMNS);
		expect(rows.map((row) => [row.reference_no, row.state, row.request_id, row.amount])).toEqual(
			PAID.map((reference, i) => [reference, 'queued', requestId, AMOUNTS[i]]),
		);
		expect(rows.map((row) => row.workflow_id)).toEqual(PAID.map(() => PAYROLL));
		expectAccountMasked(rows);
		expect(await page.content()).not.toContain(ACCOUNT_NUMBER);

		// The clerk's question for one reference: the table's search finds its row.
		await page.locator('[data-test-id="data-table-search-input"]').fill(PAID[0]);
		await waitForRowCount(grid, 1);
		const [found] = await readGrid(grid, ['reference_no', 'state']);
		expect(found).toEqual({ reference_no: PAID[0], state: 'queued' });
		await page.screenshot({ path: join(SCREENSHOTS, 'payout-ledger.png') });
	});

	it("n8n's Data Table node, added from the nodes panel, gets a reference's record from the ledger", async () => {
		await page.goto(`${n8n.baseUrl}/home/workflows`);
		const ndv = await getRowsWithDataTableNode(page, tableName, 'reference_no', PAID[1]);
		const output = await outputTable(ndv);
		await page.screenshot({ path: join(SCREENSHOTS, 'payout-ledger-data-table-node.png') });
		expect(output).toEqual([
			expect.objectContaining({
				reference_no: PAID[1],
				state: 'queued',
				request_id: requestId,
				amount: AMOUNTS[1],
				workflow_id: PAYROLL,
			}),
		]);
		expectAccountMasked(output);
		expect(await ndv.innerText()).not.toContain(ACCOUNT_NUMBER);
	});
});
