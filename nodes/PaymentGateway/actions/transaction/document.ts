import type { Violation } from '../../fields/types';
import { MAX_UPLOAD_BYTES } from '../../fields/limits';

/** What the document endpoint takes: type, content type, first bytes. */
const DOCUMENT_FORMATS: Record<string, { contentType: string; signature: number[]; what: string }> =
	{
		pdf: {
			contentType: 'application/pdf',
			signature: [...Buffer.from('%PDF-')],
			what: 'a PDF (%PDF-)',
		},
		doc: {
			contentType: 'application/msword',
			signature: [0xd0, 0xcf, 0x11, 0xe0],
			what: 'a Word 97-2003 file (D0 CF 11 E0)',
		},
		docx: {
			contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
			signature: [0x50, 0x4b, 0x03, 0x04],
			what: 'a zip-based Word file (PK 03 04)',
		},
		jpg: {
			contentType: 'image/jpeg',
			signature: [0xff, 0xd8, 0xff],
			what: 'a JPEG image (FF D8 FF)',
		},
		jpeg: {
			contentType: 'image/jpeg',
			signature: [0xff, 0xd8, 0xff],
			what: 'a JPEG image (FF D8 FF)',
		},
	};

export const DOCUMENT_EXTENSIONS = Object.keys(DOCUMENT_FORMATS);

/** "must be a pdf, doc, docx, jpg or jpeg file" */
export const EXTENSION_RULE = `must be a ${DOCUMENT_EXTENSIONS.slice(0, -1).join(', ')} or ${DOCUMENT_EXTENSIONS.at(-1)} file`;

/** A file name ending in an accepted extension, any case, with a name before it (not a bare ".pdf"). */
export const DOCUMENT_NAME = new RegExp(`.\\.(${DOCUMENT_EXTENSIONS.join('|')})$`, 'i');

/** Lower-case extension of a file name, '' when it has none. */
export function extensionOf(fileName: string): string {
	const dot = fileName.lastIndexOf('.');
	return dot > 0 && dot < fileName.length - 1 ? fileName.slice(dot + 1).toLowerCase() : '';
}

/** Content type of the file part, by the (already checked) extension. */
export const contentTypeOf = (fileName: string) =>
	DOCUMENT_FORMATS[extensionOf(fileName)]?.contentType;

const SIZE_RULE = `must be at most 2 MB (${MAX_UPLOAD_BYTES} bytes)`;

/** The file's name and size, checked before its content is read (a known oversize file is never loaded). */
export function fileNameAndSizeViolations(
	fileName: string,
	bytes: number | undefined,
): Violation[] {
	if (fileName.trim() === '')
		return [{ field: 'file', rule: 'must have a file name', value: fileName }];
	if (!DOCUMENT_NAME.test(fileName))
		return [{ field: 'file', rule: EXTENSION_RULE, value: fileName }];
	if (bytes === 0) return [{ field: 'file', rule: 'must not be empty', value: bytes }];
	if (bytes !== undefined && bytes > MAX_UPLOAD_BYTES)
		return [{ field: 'file', rule: SIZE_RULE, value: bytes }];
	return [];
}

/** The file as it would be sent: name, size, and leading bytes that match the extension. */
export function fileViolations(fileName: string, file: Buffer): Violation[] {
	const early = fileNameAndSizeViolations(fileName, file.length);
	if (early.length > 0) return early;
	const format = DOCUMENT_FORMATS[extensionOf(fileName)];
	const matches = format.signature.every((byte, i) => file[i] === byte);
	if (matches) return [];
	const head = [...file.subarray(0, 8)]
		.map((b) => b.toString(16).padStart(2, '0').toUpperCase())
		.join(' ');
	return [
		{
			field: 'file',
			rule: `must be ${format.what} as its .${extensionOf(fileName)} name says; its first bytes are ${head}`,
			value: fileName,
		},
	];
}

/** What the document endpoint's own error codes mean. */
export const DOCUMENT_CODES: Record<string, string> = {
	E0044: 'The transaction is not in a state that allows a document upload: it must be captured.',
	'101': 'Invalid document format: only pdf, doc, docx, jpg and jpeg are accepted.',
	'102': 'Invalid transaction status: documents can only be attached to captured transactions.',
	'103':
		'The document upload failed at the payment service provider or internally; try again later.',
	'104': 'Invalid upload type: document_type must be INVOICE or AWB.',
	'105':
		'The merchant is not enabled for the compliance mode this payment service provider requires.',
	'106': 'The file is too large: the service accepts at most 2 MB.',
	'107': 'Invalid payment service provider payment reference.',
	'108': 'Empty invoice or AWB id (document_ref).',
	'109': 'Empty file name or mandatory fields missing.',
	'201': 'An invoice was already uploaded for this order (one INVOICE per order).',
	'202': 'An AWB with this document_ref was already uploaded for this order.',
	'203': 'Document upload is not supported for this payment service provider.',
	'204': 'Order not found.',
	'205': 'Terminal credentials not found for this order.',
};
