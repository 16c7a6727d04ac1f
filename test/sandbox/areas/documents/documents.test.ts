import { startSandbox, type Sandbox, type TransactionRecord } from '../..';
import { orderData, sandboxClient, type MultipartField } from '../../testClient';

let sandbox: Sandbox;
let api: ReturnType<typeof sandboxClient>;

beforeAll(async () => {
	sandbox = await startSandbox();
	api = sandboxClient(sandbox);
});
afterAll(() => sandbox.stop());
afterEach(() => sandbox.state.resetSettings());

const PDF = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n%%EOF\n');
const JPG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46]);
const DOC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const DOCX = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0x06, 0]);
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A created order paid on the hosted page (SALE → CAPTURED). */
async function capturedOrder(extra: Record<string, unknown> = { action: 'SALE' }) {
	const { body } = await api.create(orderData(extra));
	const id = String(body.p_order_id);
	sandbox.state.completeOrder(id, 'pay');
	return sandbox.state.transactionsByPOrderId.get(id)!;
}

let refSeq = 0;
function fields(
	record: TransactionRecord,
	over: { type?: string; ref?: string; name?: string; data?: Buffer } = {},
): MultipartField[] {
	refSeq += 1;
	return [
		{ name: 'transaction_id', value: record.transaction_id },
		{ name: 'document_type', value: over.type ?? 'AWB' },
		{ name: 'document_ref', value: over.ref ?? `REF-${refSeq}` },
		{
			name: 'file',
			filename: over.name ?? 'doc.pdf',
			data: over.data ?? PDF,
			type: 'application/pdf',
		},
	];
}

const e0044 = (message: string) => ({ message, status: 'fail', code: 'E0044' });
const failed = (code: string, data: unknown = null) => ({
	status: 'failed',
	code,
	message: expect.any(String),
	data,
});

describe('document upload: success', () => {
	test('a PDF invoice on a captured order; document_type any case → upper case', async () => {
		const record = await capturedOrder();
		const answer = await api.upload(
			fields(record, { type: 'invoice', ref: 'INV-001', name: 'inv.PDF' }),
		);
		expect(answer.status).toBe(200);
		expect(answer.body).toEqual({
			status: 'success',
			code: '00',
			message: 'Document uploaded successfully',
			data: {
				m_order_id: record.m_order_id,
				p_order_id: record.p_order_id,
				transaction_id: record.transaction_id,
				document_type: 'INVOICE',
				document_ref: 'INV-001',
				psp: 'MPGS',
				file_name: 'inv.PDF',
			},
		});
		const stored = sandbox.state.documents.at(-1)!;
		expect(stored).toMatchObject({ ...answer.body.data, content_type: 'application/pdf' });
		expect(Buffer.compare(stored.data, PDF)).toBe(0);
		const listed = await api.call('/__sandbox/documents');
		expect(listed.body.data.at(-1)).toMatchObject({ document_ref: 'INV-001', size: PDF.length });
		expect(listed.body.data.at(-1).data).toBeUndefined();
	});

	test('jpg, jpeg, doc and docx with matching content; several AWBs per order', async () => {
		const record = await capturedOrder();
		for (const [name, data] of [
			['a.jpg', JPG],
			['b.jpeg', JPG],
			['c.doc', DOC],
			['d.docx', DOCX],
		] as const) {
			const answer = await api.upload(fields(record, { name, data }));
			expect([name, answer.body.status]).toEqual([name, 'success']);
		}
	});

	test('PARTIALLY_CAPTURE is eligible; SDK and S2S keys work, others not', async () => {
		const record = await capturedOrder({ action: 'AUTH', capture_method: 'MANUAL' });
		await api.manage({
			action: 'CAPTURE',
			transaction_id: record.transaction_id,
			amount: { currencyCode: 'AED', value: 30 },
		});
		expect(record.status).toBe('PARTIALLY_CAPTURE');
		expect((await api.upload(fields(record), sandbox.keys.sdk)).body.status).toBe('success');
		expect((await api.upload(fields(record), sandbox.keys.s2s)).body.status).toBe('success');
		expect((await api.upload(fields(record), sandbox.keys.invoice)).status).toBe(401);
	});
});

describe('document upload: validation errors (HTTP 400, E0044)', () => {
	test('application/json is refused', async () => {
		const record = await capturedOrder();
		const answer = await api.postJson(
			'/orders/v1/transaction/documents',
			{ transaction_id: record.transaction_id, document_type: 'AWB', document_ref: 'R-1' },
			sandbox.keys.hosted,
		);
		expect([answer.status, answer.body]).toEqual([
			400,
			e0044('Content-Type must be multipart/form-data'),
		]);
	});

	type Edit = (f: MultipartField[], r: TransactionRecord) => MultipartField[];
	const without =
		(name: string): Edit =>
		(f) =>
			f.filter((p) => p.name !== name);
	const set =
		(name: string, value: string): Edit =>
		(f) =>
			f.map((p) => (p.name === name ? { ...p, value } : p));
	const TYPE_RULE = 'document_type must be INVOICE or AWB';
	const REF_RULE = 'document_ref must be 3-100 characters';
	const REF_REQUIRED = 'document_ref is required (3-100 characters)';
	const cases: [string, Edit, string][] = [
		['transaction_id missing', without('transaction_id'), 'transaction_id is required'],
		['transaction_id empty', set('transaction_id', ''), 'transaction_id is required'],
		['document_type missing', without('document_type'), `${TYPE_RULE}, got ""`],
		['document_type unknown', set('document_type', 'RECEIPT'), `${TYPE_RULE}, got "RECEIPT"`],
		['document_ref missing', without('document_ref'), REF_REQUIRED],
		['document_ref too short', set('document_ref', 'AB'), `${REF_RULE}, got 2`],
		['document_ref too long', set('document_ref', 'R'.repeat(101)), `${REF_RULE}, got 101`],
		['no file part', without('file'), 'file is required (a file part named file)'],
		[
			'file sent as a text field',
			(f) => [...without('file')(f, undefined as never), { name: 'file', value: '%PDF' }],
			'file is required (a file part named file)',
		],
		[
			'unknown transaction',
			set('transaction_id', '12345'),
			'Transaction 12345 not found for this merchant',
		],
		[
			'PNG file',
			(f) => f.map((p) => (p.name === 'file' ? { ...p, filename: 'scan.png', data: PNG } : p)),
			'Unsupported file extension "png": use pdf, doc, docx, jpg or jpeg',
		],
		[
			'no extension',
			(f) => f.map((p) => (p.name === 'file' ? { ...p, filename: 'scan' } : p)),
			'Unsupported file extension "": use pdf, doc, docx, jpg or jpeg',
		],
	];

	test.each(cases)('%s', async (_name, edit, message) => {
		const record = await capturedOrder();
		const before = sandbox.state.documents.length;
		const answer = await api.upload(edit(fields(record), record));
		expect(answer.status).toBe(400);
		expect(answer.body).toEqual(e0044(message));
		expect(sandbox.state.documents.length).toBe(before);
	});

	test('file above 2 MB; exactly 2 MB passes', async () => {
		const record = await capturedOrder();
		const limit = 2 * 1024 * 1024;
		const big = Buffer.alloc(limit + 1, 0x20);
		PDF.copy(big);
		const answer = await api.upload(fields(record, { data: big }));
		expect([answer.status, answer.body]).toEqual([
			400,
			e0044(`File exceeds 2 MB (${limit + 1} bytes)`),
		]);
		const edge = await api.upload(fields(record, { data: big.subarray(0, limit) }));
		expect(edge.body.status).toBe('success');
	});

	const NOT_CAPTURED = ['AUTHORISED', 'PENDING', 'FAILED', 'VOID'];
	test.each(NOT_CAPTURED)('a %s transaction is not captured', async (status) => {
		const record = sandbox.state.transactions.find((t) => t.status === status)!;
		const answer = await api.upload(fields(record));
		expect([answer.status, answer.body]).toEqual([
			400,
			e0044(`Document upload needs a captured transaction (status ${status})`),
		]);
	});

	test('an AUTH-only order (AUTH MANUAL, paid) is refused', async () => {
		const record = await capturedOrder({ action: 'AUTH', capture_method: 'MANUAL' });
		const answer = await api.upload(fields(record));
		expect(answer.body).toEqual(
			e0044('Document upload needs a captured transaction (status AUTHORISED)'),
		);
	});
});

describe('document upload: processing errors (HTTP 200, status failed)', () => {
	test('101: content does not match the extension', async () => {
		const record = await capturedOrder();
		for (const [name, data] of [
			['a.pdf', PNG],
			['b.jpg', PDF],
			['c.doc', DOCX],
			['d.docx', DOC],
		] as const) {
			const answer = await api.upload(fields(record, { name, data }));
			expect([name, answer.status, answer.body]).toEqual([name, 200, failed('101')]);
		}
		expect(sandbox.state.documents.filter((d) => d.p_order_id === record.p_order_id)).toEqual([]);
	});

	test('102: refunded transactions are not eligible', async () => {
		const record = await capturedOrder();
		const refund = (value: number) =>
			api.manage({
				action: 'REFUND',
				transaction_id: record.transaction_id,
				amount: { currencyCode: 'AED', value },
			});
		await refund(10);
		expect(record.status).toBe('PARTIALLY_REFUNDED');
		expect((await api.upload(fields(record))).body).toEqual(failed('102'));
		await refund(90);
		expect(record.status).toBe('REFUNDED');
		expect((await api.upload(fields(record))).body).toEqual(failed('102'));
	});

	test('103: the next N uploads fail when failNextDocumentUploads is set', async () => {
		const record = await capturedOrder();
		sandbox.state.settings.failNextDocumentUploads = 2;
		expect((await api.upload(fields(record))).body).toEqual(failed('103'));
		expect((await api.upload(fields(record))).body).toEqual(failed('103'));
		expect((await api.upload(fields(record))).body.status).toBe('success');
		expect(sandbox.state.settings.failNextDocumentUploads).toBe(0);
	});

	test('109: empty file name', async () => {
		const record = await capturedOrder();
		const answer = await api.upload(fields(record, { name: '' }));
		expect([answer.status, answer.body]).toEqual([200, failed('109')]);
	});

	test('201: a second INVOICE for the order', async () => {
		const record = await capturedOrder();
		expect((await api.upload(fields(record, { type: 'INVOICE', ref: 'INV-1' }))).body.status).toBe(
			'success',
		);
		const answer = await api.upload(fields(record, { type: 'Invoice', ref: 'INV-2' }));
		expect(answer.body).toEqual(
			failed('201', {
				document_type: 'INVOICE',
				document_ref: 'INV-2',
				p_order_id: record.p_order_id,
			}),
		);
	});

	test('202: an AWB with the same document_ref for the order', async () => {
		const record = await capturedOrder();
		expect((await api.upload(fields(record, { ref: 'AWB-1' }))).body.status).toBe('success');
		const answer = await api.upload(fields(record, { type: 'awb', ref: 'AWB-1' }));
		expect(answer.body).toEqual(
			failed('202', { document_type: 'AWB', document_ref: 'AWB-1', p_order_id: record.p_order_id }),
		);
		// The same ref on another order is fine.
		const other = await capturedOrder();
		expect((await api.upload(fields(other, { ref: 'AWB-1' }))).body.status).toBe('success');
	});

	test('203: PSP without document support; 205: terminal credentials missing', async () => {
		sandbox.state.settings.currentPsp = 'NI';
		const ni = await capturedOrder();
		expect(ni.psp).toBe('NI');
		expect((await api.upload(fields(ni))).body).toEqual(failed('203'));
		sandbox.state.settings.documentUnsupportedPsps = [];
		expect((await api.upload(fields(ni))).body.status).toBe('success');
		sandbox.state.settings.terminalMissingPsps = ['NI'];
		expect((await api.upload(fields(ni))).body).toEqual(failed('205'));
	});
});
