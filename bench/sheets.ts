// A 500-row payout sheet built from items in n8n (Validate Only: built and checked, not sent)
// against exceljs alone writing the same number of cells.
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { BenchN8n } from './n8n';
import { anchor, type Figure } from './figure';
import { atMost } from './stats';
import { benchWorkflow, gateway, itemsCode } from './workflows';

const ROWS = 500;

/** One valid NEFT payout per item, fields named like the sheet's 14 columns. */
export const PAYOUT_ITEM =
	"{ 'Reference No': `REF-${run}-${i}`, 'Payment Mode': 'NEFT', Amount: 100 + i, 'Remark': `Salary ${i}`, " +
	"'Beneficiary Account Number': String(100000000 + i), 'Beneficiary Account Type': 'SA', 'Beneficiary IFSC': 'HDFC0001234', " +
	"'Beneficiary Branch': 'AB12', 'Beneficiary Name': 'Payee Name', 'Beneficiary Email': `payee${i}@example.com`, " +
	"'Beneficiary Mobile': '9876543210', 'Beneficiary MMID': '1234567', 'Beneficiary LEI Code': 'ABCDEFGHIJ1234567890', 'Beneficiary NRE Flag': 'EX' }";

export function payoutSheetFigure(): Figure {
	const node: number[] = [];
	const alone: number[] = [];
	return {
		key: 'payoutSheet',
		workflows: () => [
			benchWorkflow('payoutSheet', [
				{
					name: 'Payout Sheet',
					items: itemsCode(ROWS, PAYOUT_ITEM),
					node: gateway('zero', { resource: 'payout', operation: 'bulkCreate', inputMode: 'items', currency: 'INR', remark: 'Bench', validateOnly: true }, 'payout'),
				},
			]),
		],
		async round(n8n: BenchN8n, round: number) {
			const runNode = async () => {
				const run = (await n8n.execute('payoutSheet')).nodes['Payout Sheet'];
				if (run.error || run.items !== 1) throw new Error(`Payout Sheet: ${run.error ?? `${run.items} items`}`);
				node.push(run.ms);
			};
			const runAlone = async () => alone.push((await anchor(['xlsx-write', String(ROWS), '14'])).ms);
			if (round % 2) await runAlone().then(runNode);
			else await runNode().then(runAlone);
		},
		rows: () => [
			atMost(`Payout Bulk Create, ${ROWS} rows × 14 from items (Validate Only: built and checked, not sent)`, 'exceljs alone writing the same cells', node, alone, 'ms', 1.5),
		],
	};
}

/** One valid payment link per item, fields named like the sheet's 20 columns. */
const LINK_ITEM =
	"{ Currency: 'AED', Amount: 100 + i, 'Shipping Fee': 0, 'Convenience Fee': 0, 'Qty Per Transaction': 1, " +
	"'No Of Transactions': 1, 'No Limit Per User': '0', 'Total Collection': 'till_expiry', 'Overall Qty Allowed': 1000, " +
	"'No Limit Over All': '0', 'Qty Frequency': 'till_expiry', 'Is Expiry': 0, 'End Date': '', Description: `Link ${run}-${i}`, " +
	"'Error Message': 'Please try again', 'Customer Name': 'Payee Name', 'Customer Email': `payee${i}@example.com`, " +
	"'Product Details': `Product ${i}`, 'Split Payment': '0', Tip: '0' }";

/**
 * A 500-row payment link upload built from items. There is no Validate Only here, so the node's time
 * also holds the upload and the service's answer (the sandbox reading the file): an upper bound.
 */
export function paymentLinkSheetFigure(): Figure {
	const node: number[] = [];
	const alone: number[] = [];
	return {
		key: 'linkSheet',
		workflows: () => [
			benchWorkflow('linkSheet', [
				{
					name: 'Link Sheet',
					items: itemsCode(ROWS, LINK_ITEM),
					node: gateway('zero', { resource: 'paymentLink', operation: 'bulkCreate', inputMode: 'items', output: 'summary' }, 'paymentLink'),
				},
			]),
		],
		async round(n8n: BenchN8n, round: number) {
			const runNode = async () => {
				const run = (await n8n.execute('linkSheet')).nodes['Link Sheet'];
				if (run.error || run.items !== 1) throw new Error(`Link Sheet: ${run.error ?? `${run.items} items`}`);
				node.push(run.ms);
			};
			const runAlone = async () => alone.push((await anchor(['xlsx-write', String(ROWS), '20'])).ms);
			if (round % 2) await runAlone().then(runNode);
			else await runNode().then(runAlone);
		},
		rows: () => [
			atMost(`Payment Link Bulk Create, ${ROWS} rows × 20 from items (uploaded; includes the service's answer)`, 'exceljs alone writing the same cells', node, alone, 'ms', 1.5),
		],
	};
}

const HEADERS = [
	'Reference No', 'Payment Mode', 'Amount', 'Remark', 'Beneficiary Account Number', 'Beneficiary Account Type',
	'Beneficiary IFSC', 'Beneficiary Branch', 'Beneficiary Name', 'Beneficiary Email', 'Beneficiary Mobile',
	'Beneficiary MMID', 'Beneficiary LEI Code', 'Beneficiary NRE Flag',
];

/** A valid 500-row payout file, written by exceljs. */
export async function payoutFile(): Promise<Buffer> {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const ExcelJS = require('exceljs') as typeof import('exceljs');
	const workbook = new ExcelJS.Workbook();
	const sheet = workbook.addWorksheet('Payouts');
	sheet.addRow(HEADERS);
	for (let i = 0; i < ROWS; i++) {
		sheet.addRow([
			`REF-${i}`, 'NEFT', 100 + i, `Salary ${i}`, String(100000000 + i), 'SA', 'HDFC0001234', 'AB12', 'Payee Name',
			`payee${i}@example.com`, '9876543210', '1234567', 'ABCDEFGHIJ1234567890', 'EX',
		]);
	}
	return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** The same file read by the node from binary input (Validate Only) and by exceljs alone. */
export function payoutReadFigure(): Figure {
	const node: number[] = [];
	const alone: number[] = [];
	const file = join(tmpdir(), `bench-payouts-${process.pid}.xlsx`);
	return {
		key: 'payoutRead',
		async workflows() {
			const buffer = await payoutFile();
			writeFileSync(file, buffer);
			const binary = { data: buffer.toString('base64'), mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', fileName: 'payouts.xlsx' };
			const items = `return [{ json: {}, binary: { data: ${JSON.stringify(binary)} } }];`;
			const parameters = { resource: 'payout', operation: 'bulkCreate', inputMode: 'binary', currency: 'INR', remark: 'Bench', validateOnly: true };
			return [benchWorkflow('payoutRead', [{ name: 'Payout File', items, node: gateway('zero', parameters, 'payout') }])];
		},
		async round(n8n: BenchN8n, round: number) {
			const runNode = async () => {
				const run = (await n8n.execute('payoutRead')).nodes['Payout File'];
				if (run.error || run.items !== 1) throw new Error(`Payout File: ${run.error ?? `${run.items} items`}`);
				node.push(run.ms);
			};
			const runAlone = async () => alone.push((await anchor(['xlsx-read', file])).ms);
			if (round % 2) await runAlone().then(runNode);
			else await runNode().then(runAlone);
		},
		rows: () => [
			atMost(`Payout Bulk Create from a binary .xlsx, ${ROWS} rows (Validate Only: read, checked and rebuilt, not sent)`, 'exceljs alone reading the file', node, alone, 'ms', 1.2),
		],
	};
}
