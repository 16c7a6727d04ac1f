import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { HarnessBinaryInput } from '../../harness';
import { runWorkflow } from '../../harness';
import type { Sandbox, TransactionRecord } from '../../sandbox';
import { parseMultipart, startSandbox } from '../../sandbox';
import { GATEWAY, refusal, requestsTo, sandboxCredentials } from '../support';

const DOCUMENTS = '/orders/v1/transaction/documents';

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ seed: 9, transactionCount: 200 });
});
afterAll(async () => await sandbox.stop());
beforeEach(() => {
	sandbox.faults.clear();
	sandbox.clearRequests();
	sandbox.state.resetSettings();
});

const PDF = Buffer.from(
	'%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
);
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
const OLE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0]);
const DOCX = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0x06, 0, 0, 0, 0, 0]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);

const file = (
	fileName: string,
	data: Buffer = PDF,
	mimeType = 'application/pdf',
	property = 'data',
): HarnessBinaryInput => ({
	property,
	fileName,
	mimeType,
	base64: data.toString('base64'),
});

const records = () => sandbox.state.transactions as TransactionRecord[];
const used = new Set<string>();
/** A seeded transaction in `status`, of a PSP that supports documents, untouched by other tests. */
function fresh(status: string): TransactionRecord {
	const record = records().find(
		(r) =>
			r.status === status &&
			!sandbox.state.settings.documentUnsupportedPsps.includes(r.psp) &&
			!used.has(r.transaction_id),
	);
	if (!record) throw new Error(`no unused ${status} transaction in the seed`);
	used.add(record.transaction_id);
	return record;
}

interface UploadRun {
	binary?: HarnessBinaryInput[];
	items?: object[];
	continueOnFail?: boolean;
}

/** Start (items + binary) → Payment Gateway, Transaction > Upload Document. */
const upload = (parameters: INodeParameters, run: UploadRun = {}) => {
	const credentials = sandboxCredentials(sandbox);
	return runWorkflow(
		{
			nodes: [
				{
					name: 'Start',
					type: 'harness.start',
					parameters: {
						items: (run.items ?? [{}]) as INodeParameters[],
						binary: (run.binary ?? [file('invoice.pdf')]) as unknown as INodeParameters[],
					},
				},
				{
					name: 'Gateway',
					type: GATEWAY,
					parameters: { resource: 'transaction', operation: 'uploadDocument', ...parameters },
					credentials: {
						paymentGatewayHostedApi: {
							id: 'paymentGatewayHostedApi',
							name: 'paymentGatewayHostedApi',
						},
					},
					...(run.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
				},
			],
			connections: { Start: { main: [[{ node: 'Gateway', type: 'main', index: 0 }]] } },
		},
		{ credentials },
	);
};

const invoice = (
	record: TransactionRecord,
	ref = `INV-${record.transaction_id}`,
): INodeParameters => ({
	transactionId: record.transaction_id,
	documentType: 'INVOICE',
	documentRef: ref,
});

const sentParts = (index = 0) => {
	const request = requestsTo(sandbox, DOCUMENTS)[index];
	return parseMultipart(request.body, request.headers['content-type'])!;
};

describe('transaction.uploadDocument: accepted uploads', () => {
	it('uploads a PDF invoice to a captured transaction as multipart with exactly four fields', async () => {
		const record = fresh('CAPTURED');
		const result = await upload(invoice(record, 'INV-2026-0001'));

		expect(result.error).toBeUndefined();
		expect(result.outputs.Gateway).toEqual([
			{
				json: {
					m_order_id: record.m_order_id,
					p_order_id: record.p_order_id,
					transaction_id: record.transaction_id,
					document_type: 'INVOICE',
					document_ref: 'INV-2026-0001',
					psp: record.psp,
					file_name: 'invoice.pdf',
				},
				pairedItem: { item: 0 },
			},
		]);

		const [request] = requestsTo(sandbox, DOCUMENTS);
		expect(request.method).toBe('POST');
		expect(request.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
		expect(request.headers['merchant-key']).toBe(sandbox.keys.hosted.merchantKey);
		const parts = sentParts();
		expect(parts.map((p) => p.name)).toEqual([
			'transaction_id',
			'document_type',
			'document_ref',
			'file',
		]);
		expect(parts.slice(0, 3).map((p) => [p.filename, p.data.toString()])).toEqual([
			[undefined, record.transaction_id],
			[undefined, 'INVOICE'],
			[undefined, 'INV-2026-0001'],
		]);
		expect(parts[3]).toMatchObject({ filename: 'invoice.pdf', contentType: 'application/pdf' });
		expect(parts[3].data.equals(PDF)).toBe(true);

		const stored = sandbox.state.documents.at(-1)!;
		expect(stored).toMatchObject({
			transaction_id: record.transaction_id,
			document_type: 'INVOICE',
		});
		expect(stored.data.equals(PDF)).toBe(true);
	});

	it('upper-cases a document type given in another case by an expression, and reads another binary field', async () => {
		const record = fresh('CAPTURED');
		const result = await upload(
			{
				transactionId: '={{ $json.id }}',
				documentType: '={{ $json.type }}',
				documentRef: 'AWB123456',
				binaryPropertyName: 'awb',
			},
			{
				items: [{ id: Number(record.transaction_id), type: 'awb' }],
				binary: [file('Waybill.JPG', JPEG, 'image/jpeg', 'awb')],
			},
		);
		expect(result.error).toBeUndefined();
		expect(result.outputs.Gateway[0].json).toMatchObject({
			document_type: 'AWB',
			file_name: 'Waybill.JPG',
		});
		const parts = sentParts();
		expect(parts[1].data.toString()).toBe('AWB');
		expect(parts[3].contentType).toBe('image/jpeg');
	});

	it('sends the File Name option instead of the binary file name', async () => {
		const record = fresh('CAPTURED');
		const result = await upload(
			{ ...invoice(record), options: { fileName: 'INV-77.pdf' } },
			{ binary: [file('export.bin', PDF, 'application/octet-stream')] },
		);
		expect(result.error).toBeUndefined();
		expect(result.outputs.Gateway[0].json.file_name).toBe('INV-77.pdf');
		expect(sentParts()[3]).toMatchObject({
			filename: 'INV-77.pdf',
			contentType: 'application/pdf',
		});
	});

	it.each([
		['a Word 97-2003 .doc', 'letter.doc', OLE, 'application/msword'],
		[
			'a .docx',
			'letter.docx',
			DOCX,
			'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
		],
		['a .jpeg', 'scan.jpeg', JPEG, 'image/jpeg'],
	])('uploads %s whose first bytes match its extension', async (_, name, data, contentType) => {
		const record = fresh('CAPTURED');
		const result = await upload(invoice(record), {
			binary: [file(name, data, 'application/octet-stream')],
		});
		expect(result.error).toBeUndefined();
		expect(sentParts()[3]).toMatchObject({ filename: name, contentType });
		expect(sentParts()[3].data.equals(data)).toBe(true);
	});

	it('accepts several AWBs per order, each with its own reference', async () => {
		const record = fresh('CAPTURED');
		const awb = (ref: string) => ({
			transactionId: record.transaction_id,
			documentType: 'AWB',
			documentRef: ref,
		});
		expect((await upload(awb('AWB-0001'))).error).toBeUndefined();
		expect((await upload(awb('AWB-0002'))).error).toBeUndefined();
	});
});

describe('transaction.uploadDocument: refused before sending', () => {
	const record = { transaction_id: '2600000001' } as TransactionRecord;

	it.each([
		[
			'a PNG',
			{},
			[file('scan.png', PNG, 'image/png')],
			'file',
			'must be a pdf, doc, docx, jpg or jpeg file',
			'scan.png',
		],
		[
			'a file over 2 MB',
			{},
			[file('big.pdf', Buffer.concat([PDF, Buffer.alloc(2 * 1024 * 1024)]))],
			'file',
			'must be at most 2 MB (2097152 bytes)',
			2 * 1024 * 1024 + PDF.length,
		],
		[
			'a 2 character reference',
			{ documentRef: 'ab' },
			undefined,
			'document_ref',
			'must be at least 3 characters',
			'ab',
		],
		[
			'a 101 character reference',
			{ documentRef: 'R'.repeat(101) },
			undefined,
			'document_ref',
			'must be at most 100 characters',
			'R'.repeat(101),
		],
		[
			'another document type',
			{ documentType: '={{ "receipt" }}' },
			undefined,
			'document_type',
			'must be one of INVOICE, AWB',
			'receipt',
		],
		[
			'a PNG named invoice.pdf',
			{},
			[file('invoice.pdf', PNG, 'application/pdf')],
			'file',
			'must be a PDF (%PDF-) as its .pdf name says; its first bytes are 89 50 4E 47 0D 0A 1A 0A',
			'invoice.pdf',
		],
		[
			'text named invoice.pdf',
			{},
			[file('invoice.pdf', Buffer.from('plain text'))],
			'file',
			'must be a PDF (%PDF-) as its .pdf name says; its first bytes are 70 6C 61 69 6E 20 74 65',
			'invoice.pdf',
		],
		[
			'a PDF named scan.jpg',
			{},
			[file('scan.jpg', PDF, 'image/jpeg')],
			'file',
			'must be a JPEG image (FF D8 FF) as its .jpg name says; its first bytes are 25 50 44 46 2D 31 2E 34',
			'scan.jpg',
		],
		[
			'a PDF named letter.doc',
			{},
			[file('letter.doc', PDF)],
			'file',
			'must be a Word 97-2003 file (D0 CF 11 E0) as its .doc name says; its first bytes are 25 50 44 46 2D 31 2E 34',
			'letter.doc',
		],
		[
			'an OLE .doc named letter.docx',
			{},
			[file('letter.docx', OLE)],
			'file',
			'must be a zip-based Word file (PK 03 04) as its .docx name says; its first bytes are D0 CF 11 E0 A1 B1 1A E1',
			'letter.docx',
		],
		['an empty file', {}, [file('invoice.pdf', Buffer.alloc(0))], 'file', 'must not be empty', 0],
		[
			'a PDF whose File Name option says jpeg',
			{ options: { fileName: 'photo.jpeg' } },
			undefined,
			'file',
			'must be a JPEG image (FF D8 FF) as its .jpeg name says; its first bytes are 25 50 44 46 2D 31 2E 34',
			'photo.jpeg',
		],
		[
			'an empty transaction ID',
			{ transactionId: '={{ "" }}' },
			undefined,
			'transaction_id',
			'is required',
			'',
		],
		[
			'a File Name option without an accepted extension',
			{ options: { fileName: 'invoice.txt' } },
			undefined,
			'file',
			'must be a pdf, doc, docx, jpg or jpeg file',
			'invoice.txt',
		],
		[
			'a binary file named only .pdf',
			{},
			[file('.pdf')],
			'file',
			'must be a pdf, doc, docx, jpg or jpeg file',
			'.pdf',
		],
		[
			'a File Name option of only .pdf',
			{ options: { fileName: '.pdf' } },
			undefined,
			'file',
			'must be a pdf, doc, docx, jpg or jpeg file',
			'.pdf',
		],
	] as Array<[string, INodeParameters, HarnessBinaryInput[] | undefined, string, string, unknown]>)(
		'refuses %s, naming field, rule and value; nothing is sent',
		async (_, change, binary, field, rule, value) => {
			const result = await upload({ ...invoice(record), ...change }, { binary });
			expect(result.error?.constructor.name).toBe('NodeOperationError');
			expect(result.error?.message).toMatch(refusal(field, rule, value));
			expect((result.error as { description?: string }).description).toMatch(/^Nothing was sent/);
			expect(sandbox.requests).toHaveLength(0);
		},
	);

	it('says which binary field is missing, and sends nothing', async () => {
		const result = await upload({ ...invoice(record), binaryPropertyName: 'document' });
		expect(result.error?.message).toMatch(/document/);
		expect(sandbox.requests).toHaveLength(0);
	});
});

/** What the node says for each refusal, written out here rather than read from the node. */
const SAID: Record<string, string> = {
	'201': 'An invoice was already uploaded for this order (one INVOICE per order).',
	'202': 'An AWB with this document_ref was already uploaded for this order.',
	E0044: 'The transaction is not in a state that allows a document upload: it must be captured.',
	'203': 'Document upload is not supported for this payment service provider.',
};

describe('transaction.uploadDocument: the service refuses', () => {
	const expectCode = (error: unknown, code: string, httpCode: string) => {
		expect((error as Error).constructor.name).toBe('NodeApiError');
		expect((error as Error).message).toContain(`[code ${code}]`);
		expect((error as { description?: string }).description).toBe(SAID[code]);
		expect((error as { httpCode?: string }).httpCode).toBe(httpCode);
	};

	it('a second INVOICE for the order is code 201', async () => {
		const record = fresh('CAPTURED');
		expect((await upload(invoice(record, 'INV-A1'))).error).toBeUndefined();
		const result = await upload(invoice(record, 'INV-A2'));
		expectCode(result.error, '201', '200');
		expect(result.error?.message).toContain('Invoice already uploaded for this order');
		expect(
			sandbox.state.documents.filter((d) => d.transaction_id === record.transaction_id),
		).toHaveLength(1);
	});

	it('an AWB reference already uploaded for the order is code 202', async () => {
		const record = fresh('CAPTURED');
		const awb = {
			transactionId: record.transaction_id,
			documentType: 'AWB',
			documentRef: 'AWB-DUP-1',
		};
		expect((await upload(awb)).error).toBeUndefined();
		expectCode((await upload(awb)).error, '202', '200');
	});

	it('an AUTH-only transaction is E0044 with the human description', async () => {
		const record = fresh('AUTHORISED');
		const result = await upload(invoice(record));
		expectCode(result.error, 'E0044', '400');
		expect(result.error?.message).toContain('needs a captured transaction (status AUTHORISED)');
		expect(requestsTo(sandbox, DOCUMENTS)).toHaveLength(1);
	});

	it('a PSP without document support is code 203', async () => {
		const record = records().find(
			(r) =>
				r.status === 'CAPTURED' && sandbox.state.settings.documentUnsupportedPsps.includes(r.psp),
		)!;
		expectCode((await upload(invoice(record))).error, '203', '200');
	});

	it('is sent again after an HTTP 500 and stored once: the service refuses a second invoice', async () => {
		const record = fresh('CAPTURED');
		sandbox.faults.inject({ kind: 'status500', path: DOCUMENTS });
		const result = await upload(invoice(record));
		expect(result.error).toBeUndefined();
		expect(requestsTo(sandbox, DOCUMENTS)).toHaveLength(2);
		const stored = sandbox.state.documents.filter(
			(d) => d.transaction_id === record.transaction_id,
		);
		expect(stored).toHaveLength(1);
	});
});

describe('transaction.uploadDocument: Continue On Fail', () => {
	it('gives failed items paired to their inputs while the other items succeed', async () => {
		const record = fresh('CAPTURED');
		const result = await upload(
			{
				transactionId: record.transaction_id,
				documentType: '={{ $json.type }}',
				documentRef: '={{ $json.ref }}',
			},
			{
				continueOnFail: true,
				items: [
					{ type: 'INVOICE', ref: 'INV-C1' },
					{ type: 'AWB', ref: 'ab' },
					{ type: 'INVOICE', ref: 'INV-C2' },
					{ type: 'AWB', ref: 'AWB-C1' },
				],
			},
		);
		expect(result.error).toBeUndefined();
		const out = result.outputs.Gateway;
		expect(out.map((i) => i.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
			{ item: 3 },
		]);
		expect(out[0].json).toMatchObject({ document_type: 'INVOICE', document_ref: 'INV-C1' });
		expect(out[1].json.violations).toEqual([
			{
				field: 'document_ref',
				displayName: 'Document Reference',
				rule: 'must be at least 3 characters',
				value: 'ab',
			},
		]);
		expect(out[2].json).toMatchObject({ code: '201', httpCode: 200 });
		expect(out[2].json.description).toBe(
			'An invoice was already uploaded for this order (one INVOICE per order).',
		);
		expect(out[3].json).toMatchObject({ document_type: 'AWB', document_ref: 'AWB-C1' });
		// The item refused before sending never reached the service.
		expect(requestsTo(sandbox, DOCUMENTS).map((r) => sentRef(r as never))).toEqual([
			'INV-C1',
			'INV-C2',
			'AWB-C1',
		]);
	});
});

function sentRef(request: { body: Buffer; headers: IDataObject }): string {
	const parts = parseMultipart(request.body, request.headers['content-type'] as string)!;
	return parts.find((p) => p.name === 'document_ref')!.data.toString();
}
