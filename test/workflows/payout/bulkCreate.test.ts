import CryptoJS from 'crypto-js';
import type { IDataObject } from 'n8n-workflow';

import { buildXlsx, readXlsx } from '../../../nodes/PaymentGateway/spreadsheet/xlsx';
import { requestsTo, runGateway, sandboxCredentials } from '../support';
import { bulkCreate, HEADERS, UPLOAD, useSandbox } from './support';

const TOKEN = '/payout/v1/token';

const sandbox = useSandbox();
let counter = 0;

/** A valid payout row of each mode, as a spreadsheet or database node would give it. */
function row(i: number, mode = ['NEFT', 'RTGS', 'IFT', 'IMPSP2A', 'IMPSP2P'][i % 5]): IDataObject {
	const base: IDataObject = {
		'Reference No': `PAY-${i}`,
		'Payment Mode': mode,
		Amount: 100 + i + 0.25,
		Remark: `Run ${i}`,
		'Beneficiary Name': 'Asha Rao',
		'Beneficiary Email': `asha${i}@example.com`,
	};
	if (mode === 'IFT')
		return { ...base, 'Beneficiary Account Number': '123456789', 'Beneficiary Branch': 'B001' };
	if (mode === 'IMPSP2P')
		return { ...base, 'Beneficiary Mobile': '9876543210', 'Beneficiary MMID': '1234567' };
	return {
		...base,
		'Beneficiary Account Number': '123456789012',
		'Beneficiary Account Type': 'SA',
		'Beneficiary IFSC': 'HDFC0001234',
	};
}

const requestId = () => `BATCH-${process.pid}-${++counter}`;

/** Versions 1-2 send one upload under the given or a random Request ID: saved workflows keep that. */
const payout = (
	items: IDataObject[],
	parameters: IDataObject = {},
	extra: {
		credentials?: ReturnType<typeof sandboxCredentials>;
		continueOnFail?: boolean;
		typeVersion?: number;
	} = {},
) => bulkCreate(sandbox(), items, parameters, { typeVersion: 2, ...extra });

/** The rows of an uploaded file, keyed by header, as strings or numbers. */
async function fileRows(file: Buffer) {
	const sheet = await readXlsx(file);
	return {
		headers: sheet.headers,
		rows: sheet.rows.map((r) => Object.fromEntries(HEADERS.map((h, i) => [h, r.values[i]]))),
	};
}

describe('payout.bulkCreate from input items (version 2)', () => {
	it('sends 500 items in one request; the file holds the 14 headers and the 500 rows; the checksum matches', async () => {
		const items = Array.from({ length: 500 }, (_, i) => row(i));
		const id = requestId();
		const result = await payout(items, { requestId: id, remark: 'November', callbackUrl: '' });
		expect(result.error).toBeUndefined();
		expect(requestsTo(sandbox(), UPLOAD)).toHaveLength(1);

		const [out] = result.outputs.Gateway;
		expect(out.json).toMatchObject({ request_id: id, total_records: 500, payouts_queued: 500 });
		expect(out.pairedItem).toHaveLength(500);

		const batch = sandbox().state.payoutBatches.get(id)!;
		const { headers, rows } = await fileRows(batch.file);
		expect(headers).toEqual(HEADERS);
		expect(rows).toHaveLength(500);
		rows.forEach((r, i) => {
			for (const header of HEADERS) {
				const sent = items[i][header];
				expect(r[header] === undefined ? undefined : String(r[header])).toBe(
					sent === undefined ? undefined : String(sent),
				);
			}
		});
		expect(batch.callback_url).toBe('');
		const checksum = CryptoJS.SHA256(`${id}||November`).toString(CryptoJS.enc.Hex);
		expect(out.json.checksum).toBe(checksum);
		expect(await result.binary('Gateway', 0)).toEqual(batch.file);
	});

	it.each<[string, (items: IDataObject[]) => IDataObject[], RegExp]>([
		[
			'501 rows',
			(items) => [...items, ...Array.from({ length: 496 }, (_, i) => row(i + 10))],
			/^Payout file: may have at most 500 data rows in one upload: turn on Split Into Batches to send any number of rows in batches of 500/,
		],
		[
			'a duplicate Reference No',
			(items) => [...items, { ...items[0] }],
			/^Payout row 7 \(item 5\), Reference No: must be unique; row 2 has it too/,
		],
		[
			'a 3-decimal amount',
			(items) => items.map((r, i) => (i === 2 ? { ...r, Amount: 10.125 } : r)),
			/^Payout row 4 \(item 2\), Amount: must have at most 2 decimal places/,
		],
		[
			'a bad IFSC',
			(items) => items.map((r, i) => (i === 0 ? { ...r, 'Beneficiary IFSC': 'HDFC12345' } : r)),
			/^Payout row 2 \(item 0\), Beneficiary IFSC: must have the form XXXX0XXXXXX \(received "HDFC12345"\)$/,
		],
		[
			'an IMPSP2P row without MMID',
			(items) => items.map((r, i) => (i === 4 ? { ...r, 'Beneficiary MMID': '' } : r)),
			/^Payout row 6 \(item 4\), Beneficiary MMID: is required for IMPSP2P/,
		],
	])('stops before any request on %s, naming the row and rule', async (_label, change, message) => {
		const items = change(Array.from({ length: 5 }, (_, i) => row(i)));
		const result = await payout(items, { requestId: requestId() });
		expect(result.error?.constructor.name).toBe('NodeOperationError');
		expect(result.error?.message).toMatch(message);
		expect(sandbox().requests).toHaveLength(0);
	});

	it('lists every failing row, not just the first', async () => {
		const items = Array.from({ length: 5 }, (_, i) => ({ ...row(i), Amount: -1 }));
		const result = await payout(items, { requestId: requestId() });
		expect(result.error?.message).toMatch(
			/^5 invalid payout values: Payout row 2 \(item 0\), Amount/,
		);
		expect(
			(result.error as { description?: string }).description?.match(/Amount: must be above 0/g),
		).toHaveLength(5);
	});

	it('Validate Only sends nothing and returns the report and the file', async () => {
		const items = [row(0), { ...row(1), 'Beneficiary IFSC': 'bad' }];
		const result = await payout(items, { requestId: 'DRY-RUN-1', validateOnly: true });
		expect(sandbox().requests).toHaveLength(0);
		const [out] = result.outputs.Gateway;
		expect(out.json).toMatchObject({
			validateOnly: true,
			valid: false,
			request_id: 'DRY-RUN-1',
			total_records: 2,
			failing_rows: 1,
		});
		expect((out.json.violations as IDataObject[])[0]).toMatchObject({
			row: 3,
			item: 1,
			column: 'Beneficiary IFSC',
		});
		const { rows } = await fileRows(await result.binary('Gateway', 0));
		expect(rows.map((r) => r['Reference No'])).toEqual(['PAY-0', 'PAY-1']);
	});

	it('generates a request ID when none is given', async () => {
		const result = await payout([row(0)]);
		expect(result.outputs.Gateway[0].json.request_id).toMatch(/^n8n-\d{14}-[0-9a-f]{6}$/);
	});

	it('refuses batch fields that break the rules before sending', async () => {
		const result = await payout([row(0)], {
			requestId: 'X'.repeat(31),
			callbackUrl: 'http://example.com/cb',
		});
		expect(result.error?.message).toContain('request_id must be at most 30 characters');
		expect(result.error?.message).toContain(
			'callback_url must be an https:// URL (http:// only for localhost)',
		);
		expect(sandbox().requests).toHaveLength(0);
	});

	it('renews an expired token once and succeeds', async () => {
		const first = await payout([row(0)], { requestId: requestId() });
		const cached = first.credentials.get('paymentGatewayPayoutApi')!;
		const stored = sandboxCredentials(sandbox()).map((c) =>
			c.type === 'paymentGatewayPayoutApi' ? { ...c, data: cached } : c,
		);
		sandbox().state.expirePayoutTokens();
		sandbox().clearRequests();
		const id = requestId();
		const second = await payout([row(1)], { requestId: id }, { credentials: stored });
		expect(second.error).toBeUndefined();
		expect(requestsTo(sandbox(), TOKEN)).toHaveLength(1);
		expect(requestsTo(sandbox(), UPLOAD)).toHaveLength(2);
		expect(second.outputs.Gateway[0].json.payouts_queued).toBe(1);
		expect(sandbox().state.payoutBatches.has(id)).toBe(true);
	});

	it('reports a second submission of a request_id as already submitted; one batch only', async () => {
		const id = requestId();
		await payout([row(0)], { requestId: id });
		const again = await payout([row(0)], { requestId: id });
		expect(again.error?.message).toBe(
			`This batch was already submitted: request_id "${id}" exists [code E0021]`,
		);
		expect([...sandbox().state.payoutBatches.keys()].filter((k) => k === id)).toHaveLength(1);
	});

	it('retries an upload after a 500, since its request_id cannot be queued twice', async () => {
		const id = requestId();
		sandbox().faults.inject({ kind: 'status500', path: UPLOAD });
		const result = await payout([row(0)], { requestId: id });
		expect(requestsTo(sandbox(), UPLOAD).length).toBe(2);
		expect(result.error).toBeUndefined();
		expect(sandbox().state.payoutBatches.get(id)?.rows).toHaveLength(1);
	});
});

describe('payout.bulkCreate: amounts and currencies from expressions (version 2)', () => {
	it.each([['NaN'], ['Infinity'], ['-Infinity'], ['1e-7']])(
		'refuses an Amount of %s on a NEFT row, naming the Amount column and no other',
		async (amount) => {
			const result = await payout([row(0, 'NEFT')], {
				requestId: requestId(),
				amount: `={{ ${amount} }}`,
			});
			expect(result.error?.message).toMatch(/^Payout row 2 \(item 0\), Amount: must/);
			const columns = (
				result.error as { context?: { rowViolations?: IDataObject[] } }
			).context?.rowViolations?.map((v) => v.column);
			expect(columns).toEqual(['Amount']);
			expect(sandbox().requests).toHaveLength(0);
		},
	);

	it('refuses a currency that is no ISO 4217 code (XYZ), and sends a lower-case code in capitals', async () => {
		const refused = await payout([row(0)], { requestId: requestId(), currency: '={{ "XYZ" }}' });
		expect(refused.error?.message).toBe(
			'Invalid currency must be an ISO 4217 currency code such as USD (received "XYZ")',
		);
		expect(sandbox().requests).toHaveLength(0);
		const id = requestId();
		const sent = await payout([row(0)], { requestId: id, currency: ' inr ' });
		expect(sent.error).toBeUndefined();
		expect(sandbox().state.payoutBatches.get(id)?.currency).toBe('INR');
	});

	it('writes padded text trimmed and a mobile number given as a JSON number as text', async () => {
		const id = requestId();
		const item = {
			...row(4, 'IMPSP2P'),
			Remark: '  Run 4  ',
			'Beneficiary Mobile': 9876543210,
			Amount: ' 104.25 ',
		};
		const result = await payout([item], { requestId: id });
		expect(result.error).toBeUndefined();
		const { rows } = await fileRows(sandbox().state.payoutBatches.get(id)!.file);
		expect(rows[0]).toMatchObject({
			Remark: 'Run 4',
			'Beneficiary Mobile': '9876543210',
			Amount: 104.25,
		});
	});

	it('refuses a request ID or remark given as an object, naming the field; nothing is sent', async () => {
		const result = await payout([{ ...row(0), meta: { id: 7 } }], {
			requestId: '={{ $json.meta }}',
		});
		expect(result.error?.message).toBe(
			'Invalid Request ID: request_id must be text, not a object (received {"id":7})',
		);
		expect(sandbox().requests).toHaveLength(0);
	});
});

describe('payout.bulkCreate from a binary file (version 2)', () => {
	it('reads, checks and sends an .xlsx made by another node', async () => {
		const rows = [row(0), row(4)];
		const file = await buildXlsx(
			'Sheet1',
			HEADERS,
			rows.map((r) => HEADERS.map((h) => r[h] as string | number | undefined)),
		);
		const id = requestId();
		const result = await payout([{}], { inputMode: 'binary', requestId: id }, {});
		expect(result.error?.message).toMatch(/binary|data/i);
		sandbox().clearRequests();

		const withFile = await runGateway(sandbox(), {
			typeVersion: 2,
			items: [{}],
			binary: [
				{
					property: 'data',
					fileName: 'payouts.xlsx',
					mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
					base64: file.toString('base64'),
				},
			],
			credentialType: 'paymentGatewayPayoutApi',
			parameters: {
				resource: 'payout',
				operation: 'bulkCreate',
				inputMode: 'binary',
				currency: 'INR',
				requestId: id,
			},
		});
		expect(withFile.error).toBeUndefined();
		expect(withFile.outputs.Gateway[0].json).toMatchObject({ request_id: id, payouts_queued: 2 });
		const { rows: sent } = await fileRows(sandbox().state.payoutBatches.get(id)!.file);
		expect(sent.map((r) => r['Reference No'])).toEqual(['PAY-0', 'PAY-4']);
	});

	it('refuses a file whose headers differ, naming them', async () => {
		const file = await buildXlsx(
			'Sheet1',
			['Reference', ...HEADERS.slice(1)],
			[HEADERS.map(() => 'x')],
		);
		const result = await runGateway(sandbox(), {
			items: [{}],
			binary: [{ property: 'data', fileName: 'payouts.xlsx', base64: file.toString('base64') }],
			credentialType: 'paymentGatewayPayoutApi',
			parameters: {
				resource: 'payout',
				operation: 'bulkCreate',
				inputMode: 'binary',
				currency: 'INR',
			},
		});
		expect(result.error?.message).toMatch(
			/Payout file headers: must be exactly: Reference No, Payment Mode/,
		);
		expect(sandbox().requests).toHaveLength(0);
	});
});
