import { Workbook } from 'exceljs';

import { startSandbox, type Sandbox } from '../..';
import { multipart, sandboxClient } from '../../testClient';
import {
	BASE,
	HEADERS,
	MODE,
	newToken,
	nextId,
	row,
	rowsOf,
	sha256,
	uploadTo,
	xlsx,
	type RowInput,
	type Upload,
} from './fixtures';

let sandbox: Sandbox;
let api: ReturnType<typeof sandboxClient>;
let token: string;

beforeAll(async () => {
	sandbox = await startSandbox({ transactionCount: 1 });
	api = sandboxClient(sandbox);
	token = await newToken(sandbox);
});
afterAll(() => sandbox.stop());
afterEach(() => sandbox.state.resetSettings());

const upload = (u: Upload = {}) => uploadTo(u.target ?? sandbox, u.bearer ?? token, u);

const bad = (message: string) => ({ message, status: 'fail', code: '400' });
const batchCount = () => sandbox.state.payoutBatches.size;

describe('bulk payouts: success', () => {
	test('500 rows → 200, every row queued, batch and file kept', async () => {
		// An empty row in the middle is skipped and not counted.
		const rows: (RowInput | null)[] = rowsOf(500);
		rows.splice(250, 0, null);
		const file = await xlsx(rows);
		const answer = await upload({ file, fileName: 'june.xlsx' });
		expect(answer.status).toBe(200);
		expect(answer.body).toEqual({
			data: { request_id: answer.requestId, total_records: 500, payouts_queued: 500 },
			message: 'Bulk payouts queued successfully',
			status: 'success',
			code: '00',
		});
		const batch = sandbox.state.payoutBatches.get(answer.requestId)!;
		expect(batch).toMatchObject({
			request_id: answer.requestId,
			currency: 'INR',
			remark: 'June payroll',
			callback_url: '',
			fileName: 'june.xlsx',
			callbackAttempts: [],
		});
		expect(batch.rows).toHaveLength(500);
		expect(batch.rows[0]).toEqual({ ...BASE, Amount: '1500.5' });
		expect(batch.rows[499]['Reference No']).toBe('REF-500');
		expect(Buffer.compare(batch.file, file)).toBe(0);

		const listed = await api.call('/__sandbox/payouts');
		const entry = listed.body.data.find((b: any) => b.request_id === answer.requestId);
		expect(entry).toMatchObject({ fileName: 'june.xlsx', fileSize: file.length });
		expect(entry.file).toBeUndefined();
		expect(entry.rows).toHaveLength(500);
		const bytes = await fetch(`${sandbox.baseUrl}/__sandbox/payouts/${answer.requestId}/file`);
		expect(bytes.headers.get('content-type')).toBe(
			'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
		);
		expect(Buffer.compare(Buffer.from(await bytes.arrayBuffer()), file)).toBe(0);
		const missing = await api.call('/__sandbox/payouts/nope/file');
		expect(missing.status).toBe(404);
	});

	test('edge values that pass, any cell type; text is trimmed', async () => {
		const rows: (RowInput | null)[] = [
			row(1, { Amount: 1, 'Beneficiary Email': '' }),
			row(2, { Amount: '0.01', 'Beneficiary Account Type': '' }),
			row(3, { Amount: '250.50', 'Beneficiary Account Type': 'NRE' }),
			row(4, { Amount: 500000000 }), // not above the LEI threshold
			row(5, { Amount: 500000000.01, 'Beneficiary LEI Code': 'ABCDEFGHIJ1234567890' }),
			row(6, { ...MODE.RTGS, Amount: 900000000 }), // LEI only for NEFT
			row(7, { 'Beneficiary Name': 'A'.repeat(35), 'Beneficiary NRE Flag': 'EX' }),
			row(8, { ...MODE.RTGS, 'Beneficiary Name': 'Abc', 'Beneficiary NRE Flag': 'EX' }),
			row(9, { 'Beneficiary Name': 'Asha  Rao', 'Beneficiary Account Number': '123456789' }),
			row(10, { 'Beneficiary Account Number': '1'.repeat(18), 'Beneficiary IFSC': 'SBIN0ABC123' }),
			row(11, { 'Beneficiary Account Number': 123456789012, 'Beneficiary Account Type': 'CA' }),
			row(12, { ...MODE.IMPSP2A, 'Beneficiary Account Type': 'OD' }),
			row(13, { ...MODE.IFT, 'Beneficiary Branch': 'ab12' }),
			row(14, { ...MODE.IMPSP2P, 'Beneficiary Mobile': '919876543210' }),
			row(15, { ...MODE.IMPSP2P, 'Beneficiary Mobile': 9876543210, 'Beneficiary MMID': '0012345' }),
			{ ...row(16), 'Reference No': `  ${'R'.repeat(35)}  `, Remark: 'x'.repeat(30) },
			row(17, { 'Beneficiary Email': { text: 'a.b@example.co.in', hyperlink: 'mailto:a.b' } }),
			row(18, { Remark: { richText: [{ text: 'Bon' }, { text: 'us' }] } }),
			row(19, { Amount: { formula: '1+1', result: 2 } }),
			row(20, { 'Beneficiary LEI Code': 'abcdefghij1234567890', 'Beneficiary Mobile': '' }),
			null,
			{ 'Reference No': '   ', Remark: ' ' }, // only blanks: skipped
		];
		const answer = await upload({ file: await xlsx(rows), fileName: 'UPPER.XLSX' });
		expect(answer.body).toMatchObject({ code: '00', data: { total_records: 20 } });
		const stored = sandbox.state.payoutBatches.get(answer.requestId)!.rows;
		expect(stored[10]['Beneficiary Account Number']).toBe('123456789012');
		expect(stored[14]['Beneficiary Mobile']).toBe('9876543210');
		expect(stored[15]['Reference No']).toBe('R'.repeat(35));
		expect(stored[16]['Beneficiary Email']).toBe('a.b@example.co.in');
		expect(stored[17].Remark).toBe('Bonus');
		expect(stored[18].Amount).toBe('2');
	});

	test('only the first worksheet counts', async () => {
		const good = await xlsx([row(1)], HEADERS, (workbook) => {
			workbook.addWorksheet('Notes').addRow(['anything']);
		});
		expect((await upload({ file: good })).status).toBe(200);
		const workbook = new Workbook();
		workbook.addWorksheet('Notes').addRow(['anything']);
		const second = workbook.addWorksheet('Payouts');
		second.addRow(HEADERS);
		second.addRow(HEADERS.map((h) => BASE[h]));
		const answer = await upload({ file: Buffer.from(await workbook.xlsx.writeBuffer()) });
		expect(answer.status).toBe(400);
		expect(answer.body.message).toContain('column A has "anything", expected "Reference No"');
	});

	test('empty remark and callback_url are accepted (checksum of "id||")', async () => {
		const answer = await upload({ request_id: 'R'.repeat(30), remark: '', callback_url: '' });
		expect(answer.status).toBe(200);
		expect(sandbox.state.payoutBatches.get('R'.repeat(30))).toMatchObject({ remark: '' });
	});
});

describe('bulk payouts: row count', () => {
	test.each([
		[501, 'payout_file has 501 data rows; the maximum is 500'],
		[0, 'payout_file has no data rows'],
	])('%i rows → 400', async (count, message) => {
		const before = batchCount();
		const answer = await upload({ file: await xlsx(rowsOf(count)) });
		expect(answer.status).toBe(400);
		expect(answer.body).toEqual(bad(message));
		expect(batchCount()).toBe(before);
	});
});

describe('bulk payouts: row rules', () => {
	const R = 'Reference No';
	const NAME = 'Beneficiary Name';
	const ACCOUNT = 'Beneficiary Account Number';
	const TYPE = 'Beneficiary Account Type';
	const MODES = 'one of NEFT, RTGS, IFT, IMPSP2A, IMPSP2P';
	const IFSC = 'Beneficiary IFSC';
	const BRANCH = 'Beneficiary Branch';
	const EMAIL = 'Beneficiary Email';
	const MOBILE = 'Beneficiary Mobile';
	const MMID = 'Beneficiary MMID';
	const LEI = 'Beneficiary LEI Code';
	const NRE = 'Beneficiary NRE Flag';
	// [row overrides, column with the one error, rule, value as reported]
	const cases: [RowInput, string, string, string][] = [
		[{ [R]: '' }, R, 'required', ''],
		[{ [R]: 'R'.repeat(36) }, R, 'max 35 characters', 'R'.repeat(36)],
		[{ [R]: 'REF-1' }, R, 'unique in file', 'REF-1'],
		[{ 'Payment Mode': '' }, 'Payment Mode', 'required', ''],
		[{ 'Payment Mode': 'neft' }, 'Payment Mode', MODES, 'neft'],
		[{ 'Payment Mode': 'UPI' }, 'Payment Mode', MODES, 'UPI'],
		[{ Amount: '' }, 'Amount', 'required', ''],
		[{ Amount: 'abc' }, 'Amount', 'number', 'abc'],
		[{ Amount: '1,000' }, 'Amount', 'number', '1,000'],
		[{ Amount: 0 }, 'Amount', 'above 0', '0'],
		[{ Amount: '-5' }, 'Amount', 'above 0', '-5'],
		[{ Amount: 10.123 }, 'Amount', 'max 2 decimal places', '10.123'],
		[{ Amount: '10.005' }, 'Amount', 'max 2 decimal places', '10.005'],
		[{ Remark: '' }, 'Remark', 'required', ''],
		[{ Remark: 'x'.repeat(31) }, 'Remark', 'max 30 characters', 'x'.repeat(31)],
		[{ [NAME]: '' }, NAME, 'required', ''],
		[{ [NAME]: 'Al' }, NAME, '3-35 letters and spaces', 'Al'],
		[{ [NAME]: 'A'.repeat(36) }, NAME, '3-35 letters and spaces', 'A'.repeat(36)],
		[{ [NAME]: 'Asha R4o' }, NAME, '3-35 letters and spaces', 'Asha R4o'],
		[{ [NAME]: 'Asha-Rao' }, NAME, '3-35 letters and spaces', 'Asha-Rao'],
		[{ [EMAIL]: 'asha@' }, EMAIL, 'valid email', 'asha@'],
		[{ [EMAIL]: 'asha example.com' }, EMAIL, 'valid email', 'asha example.com'],
		[{ [EMAIL]: 'a@b' }, EMAIL, 'valid email', 'a@b'],
		[{ [ACCOUNT]: '12345678' }, ACCOUNT, '9-18 digits', '12345678'],
		[{ [ACCOUNT]: '1'.repeat(19) }, ACCOUNT, '9-18 digits', '1'.repeat(19)],
		[{ [ACCOUNT]: '12345ABC9' }, ACCOUNT, '9-18 digits', '12345ABC9'],
		[{ [TYPE]: 'sa' }, TYPE, '2-3 upper-case letters', 'sa'],
		[{ [TYPE]: 'SAVE' }, TYPE, '2-3 upper-case letters', 'SAVE'],
		[{ [TYPE]: 'S' }, TYPE, '2-3 upper-case letters', 'S'],
		[{ [IFSC]: 'HDFC1001234' }, IFSC, 'form XXXX0XXXXXX', 'HDFC1001234'],
		[{ [IFSC]: 'hdfc0001234' }, IFSC, 'form XXXX0XXXXXX', 'hdfc0001234'],
		[{ [IFSC]: 'HDFC000123' }, IFSC, 'form XXXX0XXXXXX', 'HDFC000123'],
		[{ [BRANCH]: 'AB1' }, BRANCH, '4 letters or digits', 'AB1'],
		[{ [BRANCH]: 'AB-1' }, BRANCH, '4 letters or digits', 'AB-1'],
		[{ [MOBILE]: '987654321' }, MOBILE, '10 or 12 digits', '987654321'],
		[{ [MOBILE]: '98765432101' }, MOBILE, '10 or 12 digits', '98765432101'],
		[{ [MOBILE]: '+919876543210' }, MOBILE, '10 or 12 digits', '+919876543210'],
		[{ [MMID]: '123456' }, MMID, '7 digits', '123456'],
		[{ [MMID]: 'ABCDEFG' }, MMID, '7 digits', 'ABCDEFG'],
		[{ [LEI]: 'ABC' }, LEI, '20 letters or digits', 'ABC'],
		[{ [LEI]: 'A'.repeat(21) }, LEI, '20 letters or digits', 'A'.repeat(21)],
		[{ [LEI]: `${'A'.repeat(19)}-` }, LEI, '20 letters or digits', `${'A'.repeat(19)}-`],
		[{ [NRE]: 'ex' }, NRE, 'EX or blank', 'ex'],
		[{ [NRE]: 'NO' }, NRE, 'EX or blank', 'NO'],
		[{ ...MODE.IFT, [NRE]: 'EX' }, NRE, 'only for NEFT or RTGS', 'EX'],
		[{ ...MODE.IMPSP2A, [NRE]: 'EX' }, NRE, 'only for NEFT or RTGS', 'EX'],
		[{ ...MODE.IMPSP2P, [NRE]: 'EX' }, NRE, 'only for NEFT or RTGS', 'EX'],
		// Conditional by mode.
		[{ [ACCOUNT]: '' }, ACCOUNT, 'required for NEFT', ''],
		[{ [IFSC]: '' }, IFSC, 'required for NEFT', ''],
		[{ ...MODE.RTGS, [ACCOUNT]: '' }, ACCOUNT, 'required for RTGS', ''],
		[{ ...MODE.RTGS, [IFSC]: '' }, IFSC, 'required for RTGS', ''],
		[{ ...MODE.IMPSP2A, [ACCOUNT]: '' }, ACCOUNT, 'required for IMPSP2A', ''],
		[{ ...MODE.IMPSP2A, [IFSC]: '' }, IFSC, 'required for IMPSP2A', ''],
		[{ ...MODE.IFT, [ACCOUNT]: '' }, ACCOUNT, 'required for IFT', ''],
		[{ ...MODE.IFT, [BRANCH]: '' }, BRANCH, 'required for IFT', ''],
		[{ ...MODE.IMPSP2P, [MOBILE]: '' }, MOBILE, 'required for IMPSP2P', ''],
		[{ ...MODE.IMPSP2P, [MMID]: '' }, MMID, 'required for IMPSP2P', ''],
		[{ Amount: 500000000.01 }, LEI, 'required for NEFT above 500000000', ''],
		[{ Amount: '750000000' }, LEI, 'required for NEFT above 500000000', ''],
	];

	test('each rule: one file, one failing row per case → 400 with every error', async () => {
		// Row 2 is valid (REF-1); case i is on spreadsheet row i + 3.
		const file = await xlsx([row(1), ...cases.map(([over], i) => row(i + 100, over))]);
		const before = batchCount();
		const answer = await upload({ file });
		expect(answer.status).toBe(400);
		expect(answer.body).toEqual({
			status: 'fail',
			code: '400',
			message: `Validation failed: ${cases.length} row(s) have errors`,
			errors: cases.map(([, column, rule, value], i) => ({ row: i + 3, column, rule, value })),
		});
		expect(batchCount()).toBe(before);
	});

	test.each(cases.slice(0, 3).map((c) => [c[2], c] as const))(
		'alone, %s is enough to reject the batch',
		async (_rule, [over, column, rule]) => {
			const answer = await upload({ file: await xlsx([row(1), row(2, over)]) });
			expect(answer.status).toBe(400);
			expect(answer.body.errors).toEqual([{ row: 3, column, rule, value: expect.any(String) }]);
		},
	);

	test('several errors in one row; row numbers count skipped empty rows', async () => {
		const file = await xlsx([
			null,
			row(1, { Amount: 'x', 'Beneficiary Name': '', 'Payment Mode': 'IFT' }),
		]);
		const answer = await upload({ file });
		expect(answer.body.message).toBe('Validation failed: 1 row(s) have errors');
		expect(answer.body.errors).toEqual([
			{ row: 3, column: 'Amount', rule: 'number', value: 'x' },
			{ row: 3, column: 'Beneficiary Branch', rule: 'required for IFT', value: '' },
			{ row: 3, column: 'Beneficiary Name', rule: 'required', value: '' },
		]);
	});
});

describe('bulk payouts: headers', () => {
	const replaced = (from: string, to: string) => HEADERS.map((h) => (h === from ? to : h));
	const swapped = [...HEADERS];
	[swapped[1], swapped[2]] = [swapped[2], swapped[1]];
	test.each([
		[
			'misspelt',
			replaced('Beneficiary Name', 'Benificiary Name'),
			'column I has "Benificiary Name", expected "Beneficiary Name"',
		],
		['wrong casing', replaced('Amount', 'amount'), 'column C has "amount", expected "Amount"'],
		['trailing space', replaced('Amount', 'Amount '), 'column C has "Amount ", expected "Amount"'],
		['missing last', HEADERS.slice(0, 13), 'column N is missing "Beneficiary NRE Flag"'],
		[
			'missing in the middle',
			HEADERS.filter((h) => h !== 'Remark'),
			'column D has "Beneficiary Account Number", expected "Remark"',
		],
		['extra', [...HEADERS, 'Notes'], 'column O has the extra header "Notes"'],
		['wrong order', swapped, 'column B has "Amount", expected "Payment Mode"'],
		['none', [], 'column A is missing "Reference No"'],
	])('%s → 400', async (_name, headers, detail) => {
		const answer = await upload({ file: await xlsx([row(1)], headers) });
		expect(answer.status).toBe(400);
		expect(answer.body).toEqual(
			bad(
				'payout_file row 1 must hold exactly these 14 headers in order: ' +
					`${HEADERS.join(', ')}; ${detail}`,
			),
		);
	});
});

describe('bulk payouts: file', () => {
	test.each(['payouts.csv', 'payouts.xls', 'payouts.xlsx.pdf', 'payouts'])(
		'%s → 400 not .xlsx',
		async (fileName) => {
			const answer = await upload({ fileName });
			expect(answer.body).toEqual(bad('payout_file must be an .xlsx file'));
		},
	);

	test('above 2 MB → 400; exactly 2 MB passes the size check', async () => {
		const limit = 2 * 1024 * 1024;
		const over = await upload({ file: Buffer.alloc(limit + 1, 1) });
		expect(over.status).toBe(400);
		expect(over.body).toEqual(bad(`payout_file exceeds 2 MB (${limit + 1} bytes)`));
		const at = await upload({ file: Buffer.alloc(limit, 1) });
		expect(at.body).toEqual(bad('payout_file is not a readable .xlsx file'));
	});

	test('unreadable content → 400', async () => {
		const answer = await upload({ file: Buffer.from('Reference No,Amount\nR1,10\n') });
		expect(answer.body).toEqual(bad('payout_file is not a readable .xlsx file'));
	});

	test('payout_file sent as a text field is missing', async () => {
		const id = nextId();
		const fields = [
			{ name: 'request_id', value: id },
			{ name: 'currency', value: 'INR' },
			{ name: 'remark', value: '' },
			{ name: 'callback_url', value: '' },
			{ name: 'checksum', value: sha256(`${id}||`) },
			{ name: 'payout_file', value: 'payouts.xlsx' },
		];
		const { body, contentType } = multipart(fields);
		const answer = await api.call('/v1/bulk/payouts', {
			base: sandbox.payoutUrl,
			method: 'POST',
			headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
			body,
		});
		expect(answer.body).toEqual(bad('payout_file is required (a file part named payout_file)'));
	});
});

describe('bulk payouts: fields and checksum', () => {
	test.each([
		['request_id', 'request_id is required'],
		['currency', 'currency is required'],
		['remark', 'remark is required (it may be empty)'],
		['callback_url', 'callback_url is required (it may be empty)'],
		['checksum', 'checksum is required'],
		['payout_file', 'payout_file is required (a file part named payout_file)'],
	])('missing %s → 400', async (name, message) => {
		const answer = await upload({ omit: [name] });
		expect(answer.status).toBe(400);
		expect(answer.body).toEqual(bad(message));
	});

	const HTTPS_ONLY = 'callback_url must be an https:// URL (http:// only for localhost)';
	test.each([
		[{ request_id: 'R'.repeat(31) }, 'request_id must be at most 30 characters'],
		[{ currency: 'IN' }, 'currency must be a 3-letter ISO code, got "IN"'],
		[{ currency: 'inr' }, 'currency must be a 3-letter ISO code, got "inr"'],
		[{ currency: 'INR1' }, 'currency must be a 3-letter ISO code, got "INR1"'],
		[{ remark: 'x'.repeat(31) }, 'remark must be at most 30 characters'],
		[{ callback_url: 'http://merchant.example/cb' }, HTTPS_ONLY],
		[{ callback_url: 'ftp://merchant.example/cb' }, HTTPS_ONLY],
		[{ callback_url: 'merchant.example/cb' }, HTTPS_ONLY],
		[
			{ callback_url: `https://merchant.example/${'a'.repeat(76)}` },
			'callback_url must be at most 100 characters',
		],
		[{ checksum: 'A'.repeat(64) }, 'checksum must be 64 lower-case hex characters (SHA-256)'],
		[{ checksum: 'a'.repeat(63) }, 'checksum must be 64 lower-case hex characters (SHA-256)'],
		[{ checksum: sha256('other text') }, 'Checksum mismatch'],
	] as [Upload, string][])('%j → 400', async (over, message) => {
		const answer = await upload(over);
		expect(answer.status).toBe(400);
		expect(answer.body).toEqual(bad(message));
	});

	test('checksum over request_id|callback_url|remark, not another order', async () => {
		const id = nextId();
		const url = 'https://merchant.example/cb';
		const wrong = await upload({
			request_id: id,
			callback_url: url,
			remark: 'r',
			checksum: sha256(`${id}|r|${url}`),
		});
		expect(wrong.body).toEqual(bad('Checksum mismatch'));
		const right = await upload({ request_id: id, callback_url: url, remark: 'r' });
		expect(right.status).toBe(200);
	});

	test('http:// is fine for loopback callback hosts', async () => {
		// Another sandbox, whose stop() drops these never-due callbacks.
		const other = await startSandbox({ transactionCount: 1 });
		try {
			other.state.settings.payoutCallbackDelayMs = 60_000;
			const bearer = await newToken(other);
			for (const host of ['localhost', '127.0.0.1', '[::1]']) {
				const answer = await upload({ target: other, bearer, callback_url: `http://${host}:9/cb` });
				expect(answer.status).toBe(200);
			}
		} finally {
			await other.stop();
		}
	});

	test('order of checks: fields → checksum → file → rows', async () => {
		const badRows = await xlsx([row(1, { Amount: 'x' })]);
		const checks: [Upload, string][] = [
			[{ currency: 'x', checksum: 'bad', fileName: 'a.csv' }, 'currency must be'],
			[{ checksum: sha256('x'), fileName: 'a.csv' }, 'Checksum mismatch'],
			[{ fileName: 'a.csv', file: badRows }, 'payout_file must be an .xlsx file'],
			[{ file: badRows }, 'Validation failed'],
		];
		for (const [over, message] of checks) {
			expect((await upload(over)).body.message).toContain(message);
		}
	});

	test('not multipart → 400', async () => {
		const answer = await api.call('/v1/bulk/payouts', {
			base: sandbox.payoutUrl,
			method: 'POST',
			headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
			body: JSON.stringify({ request_id: 'x' }),
		});
		expect(answer.body).toEqual(bad('Content-Type must be multipart/form-data'));
	});
});

describe('bulk payouts: request_id uniqueness', () => {
	const e0021 = { message: 'request_id already exists', status: 'fail', code: 'E0021' };

	test('a second upload with the same request_id → 409 E0021; one batch kept', async () => {
		const id = nextId();
		const first = await xlsx([row(1)]);
		expect((await upload({ request_id: id, file: first })).status).toBe(200);
		const again = await upload({ request_id: id, file: await xlsx([row(1), row(2)]) });
		expect(again.status).toBe(409);
		expect(again.body).toEqual(e0021);
		const batches = [...sandbox.state.payoutBatches.values()].filter((b) => b.request_id === id);
		expect(batches).toHaveLength(1);
		expect(Buffer.compare(batches[0].file, first)).toBe(0);
	});

	test('concurrent uploads of one request_id: one 200, one 409', async () => {
		const id = nextId();
		const file = await xlsx(rowsOf(50));
		const answers = await Promise.all([1, 2].map(() => upload({ request_id: id, file })));
		expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
		expect(sandbox.state.payoutBatches.get(id)!.rows).toHaveLength(50);
	});

	test('a rejected batch may be corrected and re-uploaded with the same request_id', async () => {
		const id = nextId();
		const file = await xlsx([row(1, { Amount: 1.001 })]);
		const rejected = await upload({ request_id: id, file });
		expect(rejected.status).toBe(400);
		expect(sandbox.state.payoutBatches.has(id)).toBe(false);
		expect((await upload({ request_id: id })).status).toBe(200);
	});
});

describe('bulk payouts: bearer token', () => {
	const invalid = { message: 'Invalid or expired access token', status: 'fail', code: '401' };

	test('missing, unknown or expired token → 401 before any other check', async () => {
		const before = batchCount();
		for (const bearer of ['', 'made-up']) {
			const answer = await upload({ bearer });
			expect(answer.status).toBe(401);
			expect(answer.body).toEqual(invalid);
		}
		const old = await newToken(sandbox);
		expect((await upload({ bearer: old })).status).toBe(200);
		sandbox.state.expirePayoutTokens();
		const expired = await upload({ bearer: old, omit: ['currency', 'payout_file'] });
		expect(expired.status).toBe(401);
		expect(expired.body).toEqual(invalid);
		expect(batchCount()).toBe(before + 1);
		token = await newToken(sandbox);
		expect((await upload()).status).toBe(200);
	});
});
