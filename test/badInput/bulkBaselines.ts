import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { payoutSchema } from '../../nodes/PaymentGateway/spreadsheet/payout';
import type { SheetSchema } from '../../nodes/PaymentGateway/spreadsheet/schema';
import { buildXlsx } from '../../nodes/PaymentGateway/spreadsheet/xlsx';
import { paymentLinkSchema } from '../../nodes/PaymentGateway/spreadsheet/paymentLink';
import type { HarnessBinaryInput } from '../harness';
import type { Sandbox } from '../sandbox';
import { runGateway } from '../workflows/support';

/** Valid parameters of a bulk operation: a ready .xlsx per item, and a valid row per item for the columns. */
export interface BulkBaseline {
	parameters: INodeParameters;
	credentialType: string;
	binary: HarnessBinaryInput[];
	/** A valid row of input item i ("from input items" mode); a generated set breaks one column of it. */
	row: (i: number) => IDataObject;
}

const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

async function fileOf(schema: SheetSchema, rows: IDataObject[]): Promise<HarnessBinaryInput> {
	const headers = schema.columns.map((c) => c.displayName);
	const file = await buildXlsx(
		'Sheet1',
		headers,
		rows.map((row) => headers.map((h) => row[h] as string | number)),
	);
	return {
		property: 'data',
		fileName: 'rows.xlsx',
		mimeType: XLSX_MIME,
		base64: file.toString('base64'),
	};
}

const payoutRow = (i: number): IDataObject => ({
	'Reference No': `BAD-INPUT-${i}`,
	'Payment Mode': 'NEFT',
	Amount: 100.5,
	Remark: 'Generated',
	'Beneficiary Account Number': '123456789012',
	'Beneficiary Account Type': 'SA',
	'Beneficiary IFSC': 'HDFC0001234',
	'Beneficiary Name': 'Asha Rao',
});

const linkRow = (i: number): IDataObject => ({
	Currency: 'AED',
	Amount: 100 + i,
	'Shipping Fee': 0,
	'Convenience Fee': 0,
	'Qty Per Transaction': 1,
	'No Of Transactions': 1,
	'Total Collection': 'till_expiry',
	'Overall Qty Allowed': 10,
	'Qty Frequency': 'till_expiry',
	'Is Expiry': 0,
});

let batches = 0;

export const BULK_BASELINES: Record<string, () => Promise<BulkBaseline>> = {
	'payout.bulkCreate': async () => ({
		parameters: {
			resource: 'payout',
			operation: 'bulkCreate',
			inputMode: 'binary',
			currency: 'INR',
			requestId: `BAD-INPUT-${process.pid}-${++batches}`,
		},
		credentialType: 'paymentGatewayPayoutApi',
		binary: [await fileOf(payoutSchema, [payoutRow(0)])],
		row: payoutRow,
	}),
	'paymentLink.bulkCreate': async () => ({
		parameters: { resource: 'paymentLink', operation: 'bulkCreate', inputMode: 'binary' },
		credentialType: 'paymentGatewayPaymentLinkApi',
		binary: [await fileOf(paymentLinkSchema(''), [linkRow(0)])],
		row: linkRow,
	}),
};

/** The data_id of a payment link created for the baseline of Deactivate. */
export async function activeLink(sandbox: Sandbox): Promise<string> {
	const created = await runGateway(sandbox, {
		items: [linkRow(1)],
		credentialType: 'paymentGatewayPaymentLinkApi',
		parameters: { resource: 'paymentLink', operation: 'bulkCreate' },
	});
	if (created.error) throw created.error;
	return [...sandbox.state.paymentLinks.values()].at(-1)!.data_id;
}
