import {
	contentTypeOf,
	extensionOf,
	fileNameAndSizeViolations,
	fileViolations,
} from '../../../../../nodes/PaymentGateway/actions/transaction/document';
import { MAX_UPLOAD_BYTES } from '../../../../../nodes/PaymentGateway/fields/limits';

const bytes = (...head: number[]) => Buffer.from([...head, 0x00, 0x01, 0x02, 0x03]);
const PDF = Buffer.from('%PDF-1.7\n');
const OLE = bytes(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1);
const ZIP = bytes(0x50, 0x4b, 0x03, 0x04);
const JPEG = bytes(0xff, 0xd8, 0xff, 0xe1);
const PNG = bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

describe('document file rules (seed, Limits: document upload)', () => {
	it.each([
		['invoice.pdf', PDF],
		['INVOICE.PDF', PDF],
		['letter.doc', OLE],
		['letter.docx', ZIP],
		['scan.jpg', JPEG],
		['scan.JPEG', JPEG],
	])('accepts %s whose first bytes match', (name, data) => {
		expect(fileViolations(name, data)).toEqual([]);
	});

	it.each([
		['invoice.pdf', PNG],
		['invoice.pdf', JPEG],
		['letter.doc', ZIP],
		['letter.docx', OLE],
		['letter.docx', PDF],
		['scan.jpg', PNG],
		['scan.jpeg', Buffer.from([0xff, 0xd8])],
		['invoice.pdf', Buffer.from('%PDF')],
	])('refuses %s whose first bytes say otherwise', (name, data) => {
		expect(fileViolations(name, data)).toEqual([
			{
				field: 'file',
				rule: expect.stringMatching(/^must be .* as its \.\w+ name says; its first bytes are /),
				value: name,
			},
		]);
	});

	it.each([
		['scan.png', 10, 'must be a pdf, doc, docx, jpg or jpeg file'],
		['invoice', 10, 'must be a pdf, doc, docx, jpg or jpeg file'],
		['invoice.pdf.exe', 10, 'must be a pdf, doc, docx, jpg or jpeg file'],
		[' ', 10, 'must have a file name'],
		['invoice.pdf', 0, 'must not be empty'],
		['invoice.pdf', MAX_UPLOAD_BYTES + 1, 'must be at most 2 MB (2097152 bytes)'],
	])('refuses %s of %d bytes by name and size alone', (name, size, rule) => {
		expect(fileNameAndSizeViolations(name, size).map((v) => v.rule)).toEqual([rule]);
	});

	it('takes a file of exactly 2 MB', () => {
		expect(fileNameAndSizeViolations('invoice.pdf', MAX_UPLOAD_BYTES)).toEqual([]);
	});

	it('names the content type by extension', () => {
		expect([extensionOf('a.Docx'), contentTypeOf('a.JPG'), contentTypeOf('a.doc')]).toEqual([
			'docx',
			'image/jpeg',
			'application/msword',
		]);
	});
});
