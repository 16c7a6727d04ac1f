import CryptoJS from 'crypto-js';

import {
	batchRequestId,
	planBatches,
} from '../../../../nodes/PaymentGateway/actions/payout/batches';
import type { BatchFields } from '../../../../nodes/PaymentGateway/actions/payout/upload';
import type { SourcedRow } from '../../../../nodes/PaymentGateway/spreadsheet/schema';

const FIELDS: BatchFields = {
	givenRequestId: '',
	form: { currency: 'INR', remark: 'Nov', callback_url: '' },
	currency: 'INR',
	remark: 'Nov',
	callbackUrl: '',
	validateOnly: false,
	split: true,
	attachBatchFiles: false,
	fileName: '',
	outputField: 'data',
};

const rows = (count: number, offset = 0): SourcedRow[] =>
	Array.from({ length: count }, (_, i) => ({
		row: i + 2,
		values: { 'Reference No': `R-${i + offset}`, 'Payment Mode': 'NEFT', Amount: 10 + i },
	}));

describe('payout batches', () => {
	it('splits rows in order into batches of at most 500, with their positions', () => {
		const batches = planBatches({ ...FIELDS, givenRequestId: 'RUN' }, rows(1200));
		expect(batches.map((b) => [b.number, b.count, b.firstRow, b.lastRow, b.requestId])).toEqual([
			[1, 500, 1, 500, 'RUN-1'],
			[2, 500, 501, 1000, 'RUN-2'],
			[3, 200, 1001, 1200, 'RUN-3'],
		]);
		expect(batches[2].rows[0].values['Reference No']).toBe('R-1000');
		expect(batches.map((b) => b.fileName)).toEqual([
			'payouts-RUN-1.xlsx',
			'payouts-RUN-2.xlsx',
			'payouts-RUN-3.xlsx',
		]);
	});

	it('without a Request ID: 30 characters, the same for the same rows and fields, another for any change', () => {
		const id = batchRequestId(FIELDS, 1, rows(3));
		expect(id).toMatch(/^n8n-[0-9a-f]{26}$/);
		expect(batchRequestId(FIELDS, 1, rows(3))).toBe(id);
		// The digest of the rows' values in column order and the batch fields, computed independently.
		const cells = rows(3).map(({ values }) => [
			values['Reference No'],
			values['Payment Mode'],
			values.Amount,
			...Array(11).fill(null),
		]);
		const expected = CryptoJS.SHA256(JSON.stringify(['INR', 'Nov', '', cells]))
			.toString(CryptoJS.enc.Hex)
			.slice(0, 26);
		expect(id).toBe(`n8n-${expected}`);
		expect(batchRequestId({ ...FIELDS, remark: 'Dec' }, 1, rows(3))).not.toBe(id);
		expect(batchRequestId(FIELDS, 1, rows(3, 1))).not.toBe(id);
		const changed = rows(3);
		changed[2].values.Amount = 13;
		expect(batchRequestId(FIELDS, 1, changed)).not.toBe(id);
	});
});
