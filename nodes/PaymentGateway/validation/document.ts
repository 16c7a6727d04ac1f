import type { Violation } from './rules';

/** File types the document endpoint accepts (seed, Limits: "Document upload"). */
export const DOCUMENT_EXTENSIONS = ['pdf', 'doc', 'docx', 'jpg', 'jpeg'];

/** Largest document the service accepts: 2 MB. */
export const DOCUMENT_MAX_BYTES = 2 * 1024 * 1024;

export const DOCUMENT_TYPES = ['INVOICE', 'AWB'];

export const DOCUMENT_REF_MIN = 3;
export const DOCUMENT_REF_MAX = 100;

/** Content type of the file part, by the (already checked) extension. */
export const DOCUMENT_CONTENT_TYPES: Record<string, string> = {
	pdf: 'application/pdf',
	doc: 'application/msword',
	docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
	jpg: 'image/jpeg',
	jpeg: 'image/jpeg',
};

/** "must be a pdf, doc, docx, jpg or jpeg file" */
const EXTENSION_RULE = `must be a ${DOCUMENT_EXTENSIONS.slice(0, -1).join(', ')} or ${
	DOCUMENT_EXTENSIONS[DOCUMENT_EXTENSIONS.length - 1]
} file`;

/** Lower-case extension of a file name, '' when it has none. */
export function extensionOf(fileName: string): string {
	const dot = fileName.lastIndexOf('.');
	return dot > 0 && dot < fileName.length - 1 ? fileName.slice(dot + 1).toLowerCase() : '';
}

/** A document upload as it would be sent, plus the file's name and size in bytes. */
export interface DocumentUploadInput {
	transaction_id: string;
	document_type: string;
	document_ref: string;
	fileName: string;
	bytes: number;
}

/** Rules of POST /orders/v1/transaction/documents that can be checked without the service. */
export function validateDocumentUpload(input: DocumentUploadInput): Violation[] {
	const violations: Violation[] = [];
	if (input.transaction_id.trim() === '') {
		violations.push({ field: 'transaction_id', rule: 'is required', value: input.transaction_id });
	}
	if (!DOCUMENT_TYPES.includes(input.document_type)) {
		violations.push({
			field: 'document_type',
			rule: `must be ${DOCUMENT_TYPES.join(' or ')}`,
			value: input.document_type,
		});
	}
	const refLength = input.document_ref.length;
	if (refLength < DOCUMENT_REF_MIN || refLength > DOCUMENT_REF_MAX) {
		violations.push({
			field: 'document_ref',
			rule: `must be ${DOCUMENT_REF_MIN} to ${DOCUMENT_REF_MAX} characters long`,
			value: input.document_ref,
		});
	}
	if (input.fileName.trim() === '') {
		violations.push({ field: 'file', rule: 'must have a file name', value: input.fileName });
	} else if (!DOCUMENT_EXTENSIONS.includes(extensionOf(input.fileName))) {
		violations.push({
			field: 'file',
			rule: EXTENSION_RULE,
			value: input.fileName,
		});
	}
	if (input.bytes === 0) {
		violations.push({ field: 'file', rule: 'must not be empty', value: input.bytes });
	} else if (input.bytes > DOCUMENT_MAX_BYTES) {
		violations.push({
			field: 'file',
			rule: `must be at most 2 MB (${DOCUMENT_MAX_BYTES} bytes)`,
			value: input.bytes,
		});
	}
	return violations;
}
