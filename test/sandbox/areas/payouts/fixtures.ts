// Shared by the payout tests: valid rows, .xlsx files and uploads to a sandbox's payout API.
import CryptoJS from 'crypto-js';
import { Workbook, type CellValue, type Worksheet } from 'exceljs';

import type { Sandbox } from '../..';
import { multipart, sandboxClient, type MultipartField } from '../../testClient';

// Spelt out here, not imported, so a typo in the sandbox's list fails the tests.
export const HEADERS = [
	'Reference No',
	'Payment Mode',
	'Amount',
	'Remark',
	'Beneficiary Account Number',
	'Beneficiary Account Type',
	'Beneficiary IFSC',
	'Beneficiary Branch',
	'Beneficiary Name',
	'Beneficiary Email',
	'Beneficiary Mobile',
	'Beneficiary MMID',
	'Beneficiary LEI Code',
	'Beneficiary NRE Flag',
];
export type RowInput = Record<string, CellValue>;

export async function newToken(target: Sandbox): Promise<string> {
	const answer = await sandboxClient(target).call('/v1/token', {
		base: target.payoutUrl,
		keys: target.keys.payout,
	});
	return answer.body.data.access_token;
}

/** A valid NEFT row. */
export const BASE: RowInput = {
	'Reference No': 'REF-1',
	'Payment Mode': 'NEFT',
	Amount: 1500.5,
	Remark: 'Salary June',
	'Beneficiary Account Number': '123456789012',
	'Beneficiary Account Type': 'SA',
	'Beneficiary IFSC': 'HDFC0001234',
	'Beneficiary Branch': '',
	'Beneficiary Name': 'Asha Rao',
	'Beneficiary Email': 'asha@example.com',
	'Beneficiary Mobile': '',
	'Beneficiary MMID': '',
	'Beneficiary LEI Code': '',
	'Beneficiary NRE Flag': '',
};
export const row = (n: number, over: RowInput = {}): RowInput => ({
	...BASE,
	'Reference No': `REF-${n}`,
	...over,
});
export const rowsOf = (count: number) => Array.from({ length: count }, (_, i) => row(i + 1));

/** Mode-specific fields that make a row of that mode valid. */
export const MODE: Record<string, RowInput> = {
	NEFT: {},
	RTGS: { 'Payment Mode': 'RTGS' },
	IMPSP2A: { 'Payment Mode': 'IMPSP2A' },
	IFT: { 'Payment Mode': 'IFT', 'Beneficiary IFSC': '', 'Beneficiary Branch': '0001' },
	IMPSP2P: {
		'Payment Mode': 'IMPSP2P',
		'Beneficiary Account Number': '',
		'Beneficiary IFSC': '',
		'Beneficiary Mobile': '9876543210',
		'Beneficiary MMID': '1234567',
	},
};

/** An .xlsx with the given header row and data rows (null = an empty row). */
export async function xlsx(
	rows: (RowInput | null)[],
	headers: string[] = HEADERS,
	more?: (workbook: Workbook, sheet: Worksheet) => void,
): Promise<Buffer> {
	const workbook = new Workbook();
	const sheet = workbook.addWorksheet('Payouts');
	sheet.addRow(headers);
	for (const values of rows) sheet.addRow(values ? HEADERS.map((h) => values[h] ?? null) : []);
	more?.(workbook, sheet);
	return Buffer.from(await workbook.xlsx.writeBuffer());
}

export const sha256 = (text: string) => CryptoJS.SHA256(text).toString(CryptoJS.enc.Hex);

let idSeq = 0;
export const nextId = () => `REQ-${Date.now()}-${++idSeq}`;

export interface Upload {
	request_id?: string;
	currency?: string;
	remark?: string;
	callback_url?: string;
	checksum?: string;
	file?: Buffer;
	fileName?: string;
	omit?: string[];
	bearer?: string;
	target?: Sandbox;
}

/** POST {payout_url}/v1/bulk/payouts; checksum computed with crypto-js unless given. */
export async function uploadTo(target: Sandbox, bearer: string, u: Upload = {}) {
	const values: Record<string, string> = {
		request_id: u.request_id ?? nextId(),
		currency: u.currency ?? 'INR',
		remark: u.remark ?? 'June payroll',
		callback_url: u.callback_url ?? '',
	};
	values.checksum =
		u.checksum ?? sha256(`${values.request_id}|${values.callback_url}|${values.remark}`);
	const omit = u.omit ?? [];
	const fields: MultipartField[] = Object.entries(values)
		.filter(([name]) => !omit.includes(name))
		.map(([name, value]) => ({ name, value }));
	if (!omit.includes('payout_file')) {
		fields.push({
			name: 'payout_file',
			filename: u.fileName ?? 'payouts.xlsx',
			data: u.file ?? (await xlsx([row(1)])),
		});
	}
	const { body, contentType } = multipart(fields);
	const answer = await sandboxClient(target).call('/v1/bulk/payouts', {
		base: target.payoutUrl,
		method: 'POST',
		headers: { authorization: `Bearer ${bearer}`, 'content-type': contentType },
		body,
	});
	return { ...answer, requestId: values.request_id };
}
