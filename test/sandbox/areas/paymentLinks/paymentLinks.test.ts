import ExcelJS from 'exceljs';

import { startSandbox, type Sandbox } from '../..';
import { BULK_LINK_HEADERS, MAX_LINK_FILE_BYTES, type BulkLinkHeader } from './model';
import { multipart, sandboxClient } from '../../testClient';

let sandbox: Sandbox;
let api: ReturnType<typeof sandboxClient>;

beforeAll(async () => {
	sandbox = await startSandbox({ transactionCount: 1 });
	api = sandboxClient(sandbox);
});
afterAll(() => sandbox.stop());
beforeEach(() => {
	sandbox.state.paymentLinks.clear();
	sandbox.state.paymentLinkUploads.length = 0;
});
afterEach(() => sandbox.state.resetSettings());

type Row = Partial<Record<BulkLinkHeader, unknown>>;

const day = (offsetDays: number) =>
	new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

/** A valid row with every column set. */
const row = (extra: Row = {}): Row => ({
	Currency: 'AED',
	Amount: 150,
	'Shipping Fee': 10,
	'Convenience Fee': 2.5,
	'Qty Per Transaction': 1,
	'No Of Transactions': 5,
	'No Limit Per User': 0,
	'Total Collection': 'per_month',
	'Overall Qty Allowed': 100,
	'No Limit Over All': 1,
	'Qty Frequency': 'till_expiry',
	'Is Expiry': 1,
	'End Date': day(30),
	Description: 'Summer sale',
	'Error Message': 'Sold out',
	'Customer Name': 'Jane Doe',
	'Customer Email': 'jane@example.com',
	'Product Details': 'Sandals',
	'Split Payment': 1,
	Tip: 1,
	...extra,
});

/** An .xlsx whose first sheet has `headers` and the rows (undefined row = a blank row). */
async function workbook(
	rows: (Row | undefined)[],
	headers: readonly string[] = BULK_LINK_HEADERS,
): Promise<Buffer> {
	const book = new ExcelJS.Workbook();
	const sheet = book.addWorksheet('Links');
	sheet.addRow([...headers]);
	for (const r of rows) {
		sheet.addRow(r ? headers.map((h) => (r as Record<string, unknown>)[h] ?? null) : []);
	}
	book.addWorksheet('Ignored').addRow(['not', 'read']);
	return Buffer.from(await book.xlsx.writeBuffer());
}

const upload = (data: Buffer, filename = 'links.xlsx', field = 'payment_link_file') => {
	const { body, contentType } = multipart([{ name: field, filename, data }]);
	return api.call('/payment-links/v1/bulk-upload', {
		method: 'POST',
		keys: sandbox.keys.paymentLink,
		headers: { 'content-type': contentType },
		body,
	});
};

const deactivate = (dataId: string) =>
	api.postJson('/payment-links/v1/deactivate', { data_id: dataId }, sandbox.keys.paymentLink);

const E0035 = {
	status: 'fail',
	code: 'E0035',
	message: 'Invalid file format. Only .xlsx or .csv files are allowed',
};
const E0021 = {
	status: 'fail',
	code: 'E0021',
	message: 'Payment link record not found or already deactivated',
};

describe('payment link bulk upload: success', () => {
	test('one active link per row; the file is kept and served back', async () => {
		const file = await workbook([
			row(),
			row({ Currency: 'KWD', Amount: '20.5', 'Split Payment': 0, Tip: 1 }),
			row({ 'Is Expiry': 0, 'End Date': null, 'No Limit Per User': null, Tip: null }),
		]);
		const answer = await upload(file);
		expect(answer.status).toBe(200);
		const link = (amount: string, currency: string) => ({
			payment_link: expect.stringMatching(new RegExp(`^${sandbox.checkoutUrl}/link/PL\\d{6}$`)),
			qr_id: expect.stringMatching(/^QR\d{6}$/),
			link_id: expect.stringMatching(/^PL\d{6}$/),
			amount,
			currency,
			data_id: expect.any(String),
		});
		expect(answer.body).toEqual({
			data: {
				total_records: 3,
				links_created: 3,
				links_failed: 0,
				uploaded_file_url: `${sandbox.baseUrl}/__sandbox/payment-links/uploads/1/file`,
				links: [link('150.00', 'AED'), link('20.500', 'KWD'), link('150.00', 'AED')],
			},
			message: 'Payment links created successfully',
			status: 'success',
			code: '00',
		});
		const { links } = answer.body.data;
		for (const created of links) {
			expect(created.payment_link).toBe(`${sandbox.checkoutUrl}/link/${created.link_id}`);
			const stored = sandbox.state.paymentLinks.get(created.data_id)!;
			expect(stored).toMatchObject({ ...created, status: 'Active', upload: 1 });
		}
		const stored = links.map((l: any) => sandbox.state.paymentLinks.get(l.data_id)!);
		expect(stored.map((l: any) => l.row)).toEqual([2, 3, 4]);
		// Typed values: numeric text to numbers, blank flags 0, Tip 0 unless Split Payment is 1.
		expect(stored[0].columns).toMatchObject({ Tip: 1, 'Split Payment': 1, 'End Date': day(30) });
		expect(stored[1].columns).toMatchObject({ Amount: 20.5, Tip: 0, 'Split Payment': 0 });
		expect(stored[2].columns).toMatchObject({ 'End Date': null, 'No Limit Per User': 0, Tip: 0 });

		const served = await fetch(answer.body.data.uploaded_file_url);
		expect(served.status).toBe(200);
		expect(Buffer.from(await served.arrayBuffer()).equals(file)).toBe(true);
		const listed = await api.call('/__sandbox/payment-links');
		expect(listed.body.data.uploads).toEqual([
			expect.objectContaining({
				upload: 1,
				file_name: 'links.xlsx',
				size: file.length,
				total_records: 3,
				failed_rows: [],
			}),
		]);
		expect(listed.body.data.links).toHaveLength(3);
		const page = await api.call(new URL(links[0].payment_link).pathname);
		expect([page.status, page.text.includes('AED 150.00')]).toEqual([200, true]);
	});

	test('blank rows are skipped and row numbers stay those of the sheet', async () => {
		sandbox.state.settings.paymentLinkStorageFailRows = [4];
		const answer = await upload(await workbook([row(), undefined, row(), row()]));
		expect(answer.body.data).toMatchObject({
			total_records: 3,
			links_created: 2,
			links_failed: 1,
			failed_rows: [{ row: 4, reason: 'Storage error' }],
		});
	});

	test('date cells, text cells and an upper-case extension', async () => {
		const endDate = new Date(`${day(10)}T00:00:00Z`);
		const file = await workbook([
			row({ 'End Date': endDate, 'Is Expiry': '1', 'Qty Per Transaction': '3', Tip: '0' }),
			row({ 'End Date': day(0) }),
		]);
		const answer = await upload(file, 'LINKS.XLSX');
		expect(answer.status).toBe(200);
		const first = sandbox.state.paymentLinks.get(answer.body.data.links[0].data_id)!;
		expect(first.columns).toMatchObject({
			'End Date': day(10),
			'Is Expiry': 1,
			'Qty Per Transaction': 3,
		});
	});
});

describe('payment link bulk upload: storage failures', () => {
	test('failed rows are listed; the other links are created and kept', async () => {
		const set = await api.send('PUT', '/__sandbox/settings', {
			paymentLinkStorageFailRows: [3, 5],
		});
		expect(set.status).toBe(200);
		const answer = await upload(await workbook([row(), row(), row(), row()]));
		expect(answer.status).toBe(200);
		expect(answer.body).toMatchObject({
			data: {
				total_records: 4,
				links_created: 2,
				links_failed: 2,
				failed_rows: [
					{ row: 3, reason: 'Storage error' },
					{ row: 5, reason: 'Storage error' },
				],
			},
			message: '2 payment link(s) created, 2 failed',
			status: 'success',
			code: '00',
		});
		expect(answer.body.data.links).toHaveLength(2);
		expect(sandbox.state.paymentLinks.size).toBe(2);
		expect(sandbox.state.paymentLinkUploads[0].failed_rows).toHaveLength(2);
	});

	test('the setting takes row numbers only', async () => {
		for (const bad of [[1], ['3'], 3, [2.5]]) {
			const answer = await api.send('PUT', '/__sandbox/settings', {
				paymentLinkStorageFailRows: bad,
			});
			expect(answer.status).toBe(400);
		}
		expect(sandbox.state.settings.paymentLinkStorageFailRows).toEqual([]);
	});
});

describe('payment link bulk upload: file checks', () => {
	test.each(['links.csv', 'links.xls', 'links', 'links.xlsx.pdf', ''])(
		'file name %j → E0035',
		async (name) => {
			const answer = await upload(await workbook([row()]), name);
			expect([answer.status, answer.body]).toEqual([400, E0035]);
			expect(sandbox.state.paymentLinks.size).toBe(0);
		},
	);

	test('an .xlsx name on bytes that are no workbook → E0035', async () => {
		const answer = await upload(Buffer.from('Currency,Amount\nAED,10\n'));
		expect([answer.status, answer.body]).toEqual([400, E0035]);
	});

	test('missing file part, wrong field name, not multipart', async () => {
		const message = 'payment_link_file is required (multipart/form-data file)';
		const missing = { status: 'fail', code: '400', message };
		const file = await workbook([row()]);
		expect((await upload(file, 'links.xlsx', 'file')).body).toEqual(missing);
		const json = await api.postJson('/payment-links/v1/bulk-upload', {}, sandbox.keys.paymentLink);
		expect([json.status, json.body]).toEqual([400, missing]);
	});

	test('above 2 MB → 400', async () => {
		const answer = await upload(Buffer.alloc(MAX_LINK_FILE_BYTES + 1));
		expect(answer.status).toBe(400);
		expect(answer.body).toEqual({
			status: 'fail',
			code: '400',
			message: `payment_link_file exceeds 2 MB (${MAX_LINK_FILE_BYTES + 1} bytes)`,
		});
	});

	test('only Payment Link keys', async () => {
		const answer = await api.call('/payment-links/v1/bulk-upload', {
			method: 'POST',
			keys: sandbox.keys.invoice,
		});
		expect(answer.status).toBe(401);
	});

	const swap = (i: number, j: number) => {
		const headers = [...BULK_LINK_HEADERS] as string[];
		[headers[i], headers[j]] = [headers[j], headers[i]];
		return headers;
	};
	const headerCases: [string, string[], RegExp][] = [
		[
			'lower-case header',
			['currency', ...BULK_LINK_HEADERS.slice(1)],
			/column 1 must be "Currency", got "currency"/,
		],
		[
			'changed spelling',
			BULK_LINK_HEADERS.map((h) => (h === 'No Limit Over All' ? 'No Limit Overall' : h)),
			/column 10 must be "No Limit Over All", got "No Limit Overall"/,
		],
		[
			'trailing space',
			BULK_LINK_HEADERS.map((h) => (h === 'Tip' ? 'Tip ' : h)),
			/column 20 must be "Tip", got "Tip "/,
		],
		[
			'missing column',
			BULK_LINK_HEADERS.filter((h) => h !== 'Tip'),
			/column 20 must be "Tip", got ""/,
		],
		['extra column', [...BULK_LINK_HEADERS, 'Notes'], /unexpected column 21 "Notes"/],
		['swapped columns', swap(1, 2), /column 2 must be "Amount", got "Shipping Fee"/],
	];
	test.each(headerCases)('header mismatch: %s → 400', async (_name, headers, detail) => {
		const answer = await upload(await workbook([row()], headers));
		expect(answer.status).toBe(400);
		expect(answer.body).toEqual({ status: 'fail', code: '400', message: expect.any(String) });
		expect(answer.body.message).toMatch(/^Invalid headers: row 1 must be exactly Currency, /);
		expect(answer.body.message).toMatch(detail);
		expect(sandbox.state.paymentLinks.size).toBe(0);
	});

	test('headers only → 400 no data rows', async () => {
		const answer = await upload(await workbook([undefined]));
		const message = 'The file has no data rows';
		expect(answer.body).toEqual({ status: 'fail', code: '400', message });
	});
});

describe('payment link bulk upload: row rules', () => {
	const R = {
		amount: 'number from 1 to 99999999',
		fee: 'number from 0 to 99999',
		count: 'whole number from 1 to 9999999',
		flag: 'blank, 0 or 1',
		freq: 'one of per_day, per_month, till_expiry',
	};
	const invalid: [BulkLinkHeader, unknown, string | RegExp][] = [
		['Currency', null, 'required'],
		['Currency', 'aed', '3-letter currency code'],
		['Currency', 'DIRHAM', '3-letter currency code'],
		['Amount', null, 'required'],
		['Amount', 0.99, R.amount],
		['Amount', 100_000_000, R.amount],
		['Amount', 'ten', R.amount],
		['Amount', '1,000', R.amount],
		['Shipping Fee', null, 'required'],
		['Shipping Fee', -1, R.fee],
		['Shipping Fee', 100_000, R.fee],
		['Convenience Fee', null, 'required'],
		['Convenience Fee', 99_999.01, R.fee],
		['Qty Per Transaction', null, 'required'],
		['Qty Per Transaction', 0, R.count],
		['Qty Per Transaction', 1.5, R.count],
		['Qty Per Transaction', 10_000_000, R.count],
		['No Of Transactions', null, 'required'],
		['No Of Transactions', 0, R.count],
		['No Of Transactions', 10_000_000, R.count],
		['No Limit Per User', 2, R.flag],
		['No Limit Per User', 'yes', R.flag],
		['Total Collection', null, 'required'],
		['Total Collection', 'per_week', R.freq],
		['Total Collection', 'PER_DAY', R.freq],
		['Overall Qty Allowed', null, 'required'],
		['Overall Qty Allowed', 0, R.count],
		['Overall Qty Allowed', 10_000_000, R.count],
		['No Limit Over All', -1, R.flag],
		['Qty Frequency', null, 'required'],
		['Qty Frequency', 'daily', R.freq],
		['Is Expiry', null, 'required'],
		['Is Expiry', 2, '0 or 1'],
		['Is Expiry', 'true', '0 or 1'],
		['End Date', null, 'required when Is Expiry is 1'],
		['End Date', '2030/01/01', 'date YYYY-MM-DD'],
		['End Date', '2030-02-30', 'date YYYY-MM-DD'],
		['End Date', 45000, 'date YYYY-MM-DD'],
		['End Date', day(-1), /^today \(\d{4}-\d{2}-\d{2}, UTC\) or later$/],
		['Description', 'd'.repeat(101), 'at most 100 characters'],
		['Error Message', 'e'.repeat(101), 'at most 100 characters'],
		['Customer Name', 'Jane', 'Firstname Lastname'],
		['Customer Name', 'Jane D0e', 'Firstname Lastname'],
		['Customer Name', `Jane ${'x'.repeat(46)}`, 'at most 50 characters'],
		['Customer Email', 'jane@', 'valid email address'],
		['Customer Email', `${'j'.repeat(39)}@example.com`, 'at most 50 characters'],
		['Product Details', 'p'.repeat(201), 'at most 200 characters'],
		['Split Payment', 3, R.flag],
		['Tip', 5, R.flag],
	];
	test.each(invalid)('%s = %j → %s; nothing created', async (column, value, rule) => {
		const answer = await upload(await workbook([row(), row({ [column]: value })]));
		const expected = rule instanceof RegExp ? expect.stringMatching(rule) : rule;
		expect(answer.status).toBe(400);
		expect(answer.body).toEqual({
			status: 'fail',
			code: '400',
			message: 'Validation failed: 1 row(s) have errors',
			errors: [{ row: 3, column, rule: expected, value }],
		});
		expect(sandbox.state.paymentLinks.size).toBe(0);
		expect(sandbox.state.paymentLinkUploads).toHaveLength(0);
	});

	const valid: [string, Row][] = [
		[
			'minimums',
			{
				Amount: 1,
				'Shipping Fee': 0,
				'Convenience Fee': 0,
				'Qty Per Transaction': 1,
				'No Of Transactions': 1,
				'Overall Qty Allowed': 1,
			},
		],
		[
			'maximums',
			{
				Amount: 99_999_999,
				'Shipping Fee': 99_999,
				'Convenience Fee': 99_999,
				'Qty Per Transaction': 9_999_999,
				'No Of Transactions': 9_999_999,
				'Overall Qty Allowed': 9_999_999,
			},
		],
		[
			'blank optional columns',
			{
				'No Limit Per User': null,
				'No Limit Over All': null,
				Description: null,
				'Error Message': null,
				'Customer Name': null,
				'Customer Email': null,
				'Product Details': null,
				'Split Payment': null,
				Tip: null,
			},
		],
		['no expiry, no end date', { 'Is Expiry': 0, 'End Date': null }],
		['no expiry with a future end date', { 'Is Expiry': 0 }],
		['end date today', { 'End Date': day(0) }],
		['per_day, 3 names', { 'Total Collection': 'per_day', 'Customer Name': 'Mary Ann Smith' }],
		[
			'full lengths',
			{
				Description: 'd'.repeat(100),
				'Error Message': 'e'.repeat(100),
				'Customer Name': `Jane ${'x'.repeat(45)}`,
				'Customer Email': `${'j'.repeat(38)}@example.com`,
				'Product Details': 'p'.repeat(200),
			},
		],
		['accented name', { 'Customer Name': 'José Núñez' }],
		['numbers as text', { Amount: '99.5', 'Overall Qty Allowed': '7', 'Split Payment': '1' }],
		['tip without split (stored as 0)', { 'Split Payment': 0, Tip: 1 }],
	];
	test.each(valid)('valid: %s', async (_name, change) => {
		const answer = await upload(await workbook([row(change)]));
		expect([answer.status, answer.body.data?.links_created]).toEqual([200, 1]);
	});

	test('one bad row among 50 rejects the whole upload; every error is listed', async () => {
		const rows = Array.from({ length: 50 }, (_, i) =>
			i === 36 ? row({ Amount: 0, 'Qty Frequency': 'weekly' }) : row(),
		);
		rows[9] = row({ Currency: null });
		const answer = await upload(await workbook(rows));
		expect(answer.status).toBe(400);
		expect(answer.body.message).toBe('Validation failed: 2 row(s) have errors');
		expect(answer.body.errors).toEqual([
			{ row: 11, column: 'Currency', rule: 'required', value: null },
			{ row: 38, column: 'Amount', rule: R.amount, value: 0 },
			{ row: 38, column: 'Qty Frequency', rule: R.freq, value: 'weekly' },
		]);
		expect(sandbox.state.paymentLinks.size).toBe(0);
	});
});

describe('payment link states', () => {
	async function links(count: number): Promise<string[]> {
		const answer = await upload(await workbook(Array.from({ length: count }, () => row())));
		return answer.body.data.links.map((l: { data_id: string }) => l.data_id);
	}
	const status = (dataId: string) => sandbox.state.paymentLinks.get(dataId)!.status;

	test('active → deactivated → reactivated → deactivated again', async () => {
		const [id] = await links(1);
		expect((await deactivate(id)).status).toBe(200);
		expect(status(id)).toBe('Deactivated');
		expect((await deactivate(id)).body).toEqual(E0021);
		const pathname = new URL(sandbox.state.paymentLinks.get(id)!.payment_link).pathname;
		expect((await api.call(pathname)).status).toBe(410);
		expect(sandbox.state.reactivateLink(id).status).toBe('Active');
		expect(() => sandbox.state.reactivateLink(id)).toThrow('Payment link is already active');
		expect((await deactivate(id)).status).toBe(200);
	});

	test('an expired link cannot be reactivated or deactivated', async () => {
		const [active, deactivated] = await links(2);
		await deactivate(deactivated);
		for (const id of [active, deactivated]) {
			expect(sandbox.state.expireLink(id).status).toBe('Expired');
			expect(() => sandbox.state.reactivateLink(id)).toThrow(
				'An expired payment link cannot be reactivated',
			);
			const answer = await deactivate(id);
			expect([answer.status, answer.body]).toEqual([400, E0021]);
		}
		expect(() => sandbox.state.expireLink('unknown')).toThrow('Payment link unknown not found');
		expect(() => sandbox.state.reactivateLink('unknown')).toThrow('not found');
	});

	test('over HTTP: /__sandbox/payment-links/:data_id/reactivate and /expire', async () => {
		const [id] = await links(1);
		const control = (action: string, dataId = id) =>
			api.call(`/__sandbox/payment-links/${dataId}/${action}`, { method: 'POST' });
		expect((await control('reactivate')).status).toBe(409);
		await deactivate(id);
		expect((await control('reactivate')).body.data.status).toBe('Active');
		expect((await control('expire')).body.data.status).toBe('Expired');
		const refused = await control('reactivate');
		expect([refused.status, refused.body.message]).toEqual([
			409,
			'An expired payment link cannot be reactivated',
		]);
		expect((await control('expire', 'nope')).status).toBe(404);
	});
});
