import {
	DOCUMENT_MAX_BYTES,
	extensionOf,
	validateDocumentUpload,
} from '../../nodes/PaymentGateway/validation/document';
import type { ManagePaymentInput } from '../../nodes/PaymentGateway/validation/payment';
import { validateManagePayment } from '../../nodes/PaymentGateway/validation/payment';

describe('manage payment rules (seed: Manage payment, Limits)', () => {
	const valid: ManagePaymentInput = {
		action: 'REFUND',
		transaction_id: '2600000123',
		currencyCode: 'AED',
		value: 10,
	};
	const fieldsOf = (change: Partial<ManagePaymentInput>) =>
		validateManagePayment({ ...valid, ...change }).map((v) => `${v.field}: ${v.rule}`);

	it.each([
		['REFUND', 1],
		['REFUND', '12.50'],
		['CAPTURE', 0.01],
		['VOID', 250],
	] as const)('accepts %s of %j', (action, value) => {
		expect(fieldsOf({ action, value })).toEqual([]);
	});

	it.each([
		['empty transaction_id', { transaction_id: '  ' }, 'transaction_id: is required'],
		['refund below 1', { value: 0.99 }, 'amount.value: must be at least 1 for a refund'],
		['capture of 0', { action: 'CAPTURE', value: 0 }, 'amount.value: must be above 0 for a capture'],
		['negative void', { action: 'VOID', value: -5 }, 'amount.value: must be above 0 for a void'],
		['amount with a symbol', { value: 'AED 10' }, 'amount.value: must be a plain number (no currency symbol, commas or spaces)'],
		['amount with commas', { value: '1,000' }, 'amount.value: must be a plain number (no currency symbol, commas or spaces)'],
		['no amount', { value: undefined }, 'amount.value: must be a plain number (no currency symbol, commas or spaces)'],
		['unsupported currency', { currencyCode: 'JPY' }, 'amount.currencyCode: must be one of the supported currencies AED, USD, EUR, GBP, INR, SAR, QAR, KWD, BHD, OMR'],
	] as Array<[string, Partial<ManagePaymentInput>, string]>)('flags %s', (_, change, expected) => {
		expect(fieldsOf(change)).toEqual([expected]);
	});

	it('names field, rule and value', () => {
		expect(validateManagePayment({ ...valid, value: 0.5 })).toEqual([
			{ field: 'amount.value', rule: 'must be at least 1 for a refund', value: 0.5 },
		]);
	});
});

describe('document upload rules (seed: Transaction document, Limits)', () => {
	const valid = {
		transaction_id: '2600000123',
		document_type: 'INVOICE',
		document_ref: 'INV-001',
		fileName: 'invoice.pdf',
		bytes: 1000,
	};
	const fieldsOf = (change: Partial<typeof valid>) =>
		validateDocumentUpload({ ...valid, ...change }).map((v) => `${v.field}: ${v.rule}`);

	it.each(['a.pdf', 'a.DOC', 'a.docx', 'photo.JPG', 'scan.jpeg'])('accepts %s', (fileName) => {
		expect(fieldsOf({ fileName })).toEqual([]);
	});

	it('accepts AWB, 3 and 100 character references, and exactly 2 MB', () => {
		expect(fieldsOf({ document_type: 'AWB', document_ref: 'abc' })).toEqual([]);
		expect(fieldsOf({ document_ref: 'x'.repeat(100), bytes: DOCUMENT_MAX_BYTES })).toEqual([]);
	});

	it.each([
		['a PNG', { fileName: 'scan.png' }, 'file: must be a pdf, doc, docx, jpg or jpeg file'],
		['no extension', { fileName: 'invoice' }, 'file: must be a pdf, doc, docx, jpg or jpeg file'],
		['no file name', { fileName: '' }, 'file: must have a file name'],
		['more than 2 MB', { bytes: DOCUMENT_MAX_BYTES + 1 }, 'file: must be at most 2 MB (2097152 bytes)'],
		['an empty file', { bytes: 0 }, 'file: must not be empty'],
		['a 2 character reference', { document_ref: 'ab' }, 'document_ref: must be 3 to 100 characters long'],
		['a 101 character reference', { document_ref: 'x'.repeat(101) }, 'document_ref: must be 3 to 100 characters long'],
		['another type', { document_type: 'RECEIPT' }, 'document_type: must be INVOICE or AWB'],
		['an empty transaction_id', { transaction_id: '' }, 'transaction_id: is required'],
	] as Array<[string, Partial<typeof valid>, string]>)('flags %s', (_, change, expected) => {
		expect(fieldsOf(change)).toEqual([expected]);
	});

	it('reads extensions case-insensitively, and none from a leading dot', () => {
		expect(extensionOf('Invoice.Final.PDF')).toBe('pdf');
		expect(extensionOf('.pdf')).toBe('');
		expect(extensionOf('name.')).toBe('');
	});
});
