import CryptoJS from 'crypto-js';

import type { BatchFields } from '../../../../../nodes/PaymentGateway/actions/payout/bulkCreate.plan';
import {
	planBatches,
	planViolations,
} from '../../../../../nodes/PaymentGateway/actions/payout/bulkCreate.plan';
import type { SourcedRow } from '../../../../../nodes/PaymentGateway/spreadsheet/schema';

const FIELDS: BatchFields = {
	givenRequestId: '',
	form: { currency: 'INR', remark: 'Nov', callback_url: '' },
	currency: 'INR',
	remark: 'Nov',
	callbackUrl: '',
	validateOnly: false,
	split: true,
	attachFiles: false,
	fileName: '',
	outputField: 'data',
	remember: true,
	payAgain: false,
	attempt: 2,
	unconfirmed: 'stop',
	remembered: 100_000,
};

/** The request_id of one batch of these rows. */
const batchRequestId = (fields: BatchFields, _number: number, batchRows: SourcedRow[]) =>
	planBatches(fields, batchRows)[0].requestId;

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
		// Sheet rows: the header is row 1.
		expect(batches.map((b) => [b.firstSheetRow, b.lastSheetRow])).toEqual([
			[2, 501],
			[502, 1001],
			[1002, 1201],
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
		// A re-payment (Pay Again): its attempt joins the digest, so each attempt has request IDs of
		// its own, the same on every run of that attempt.
		const attempt2 = planBatches(FIELDS, rows(3), 1, 2)[0].requestId;
		expect(attempt2).toMatch(/^n8n-[0-9a-f]{26}$/);
		expect(attempt2).not.toBe(id);
		expect(planBatches(FIELDS, rows(3), 1, 2)[0].requestId).toBe(attempt2);
		expect(planBatches(FIELDS, rows(3), 1, 3)[0].requestId).not.toBe(attempt2);
	});

	it('in batches, a given Request ID gets the batch number even for one batch of a few rows', () => {
		const [only, ...rest] = planBatches({ ...FIELDS, givenRequestId: 'NOV' }, rows(3));
		expect(rest).toEqual([]);
		expect([only.requestId, only.count, only.fileName]).toEqual(['NOV-1', 3, 'payouts-NOV-1.xlsx']);
		// A re-payment's attempt is in the ID: the service never meets the first payment's ID.
		expect(planBatches({ ...FIELDS, givenRequestId: 'NOV' }, rows(3), 1, 2)[0].requestId).toBe(
			'NOV-a2-1',
		);
	});

	it('one upload (versions 1-2 without batches): the given or a random ID, and the 500-row rule naming Split Into Batches', () => {
		const single = { ...FIELDS, split: false };
		const [given] = planBatches({ ...single, givenRequestId: 'ONE' }, rows(3));
		expect(given.requestId).toBe('ONE');
		const [a] = planBatches(single, rows(3));
		const [b] = planBatches(single, rows(3));
		expect(a.requestId).toMatch(/^n8n-\d{14}-[0-9a-f]{6}$/);
		expect(a.requestId).not.toBe(b.requestId);
		const many = planBatches(single, rows(501));
		expect(many).toHaveLength(1);
		expect(planViolations(single, many)).toEqual([
			expect.objectContaining({ column: '(file)', value: 501 }),
		]);
		expect(planViolations(single, many)[0].rule).toMatch(/turn on Split Into Batches/);
		expect(planViolations(FIELDS, planBatches(FIELDS, rows(501)))).toEqual([]);
	});
});
