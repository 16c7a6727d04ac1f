import { payoutSchema } from '../../../../nodes/PaymentGateway/spreadsheet/payout';
import { buildXlsx, readXlsx } from '../../../../nodes/PaymentGateway/spreadsheet/xlsx';

const neft: Record<string, string | number> = {
	'Reference No': 'REF-1',
	'Payment Mode': 'NEFT',
	Amount: 1500.5,
	Remark: 'November salary',
	'Beneficiary Account Number': '123456789012',
	'Beneficiary Name': 'Ravi Patel',
};

describe('xlsx files', () => {
	it('reads back what it wrote, header first, values typed, empty rows skipped', async () => {
		const headers = payoutSchema.columns.map((c) => c.displayName);
		const values = headers.map((h) => neft[h]);
		const file = await buildXlsx('Payouts', headers, [
			values,
			headers.map(() => undefined),
			values,
		]);
		const sheet = await readXlsx(file);
		expect(sheet.headers).toEqual(headers);
		expect(sheet.rows.map((r) => r.rowNumber)).toEqual([2, 4]);
		expect(sheet.rows[0].values.slice(0, headers.length)).toEqual(values);
	});
});
