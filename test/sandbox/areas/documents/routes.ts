import { generalError, json, type Reply } from '../../core/http';
import { parseMultipart, type MultipartPart } from '../../core/multipart';
import type { RouteModule } from '../../core/router';
import { DOCUMENT_UPLOAD } from '../orders/rules';
import { ruleAt, textFits } from '../../rules/types';

const RULES = DOCUMENT_UPLOAD.fields;
import type { StoredDocument } from '../../core/state';

export const MAX_DOCUMENT_BYTES = 2 * 1024 * 1024;

/** Accepted extensions and the leading bytes their content must start with. */
const SIGNATURES: Record<string, number[]> = {
	pdf: [0x25, 0x50, 0x44, 0x46], // %PDF
	jpg: [0xff, 0xd8, 0xff],
	jpeg: [0xff, 0xd8, 0xff],
	doc: [0xd0, 0xcf, 0x11, 0xe0], // OLE compound file
	docx: [0x50, 0x4b], // PK (zip)
};

/** Validation errors: HTTP 400, code E0044 (spec: Errors). */
const rejected = (message: string): Reply => generalError(400, 'E0044', message);

/** Processing errors: HTTP 200 with status failed (our reading; the spec gives no status). */
const failed = (code: string, message: string, data: object | null = null): Reply =>
	json(200, { status: 'failed', code, message, data });

/** POST /orders/v1/transaction/documents: multipart upload of an INVOICE or AWB document. */
export const registerDocumentRoutes: RouteModule = (router, env) => {
	router.add({
		method: 'POST',
		path: '/orders/v1/transaction/documents',
		auth: { keys: ['hosted', 'sdk', 's2s'] },
		handler: ({ headers, body }) => {
			if (!/^multipart\/form-data\b/i.test(headers['content-type'] ?? '')) {
				return rejected('Content-Type must be multipart/form-data');
			}
			const parts = parseMultipart(body, headers['content-type']);
			if (!parts) return rejected('Malformed multipart/form-data body');
			const field = (name: string): string | undefined => {
				const part = parts.find((p) => p.name === name && p.filename === undefined);
				return part?.data.toString('utf8').trim();
			};

			const transactionId = field('transaction_id');
			if (!transactionId) return rejected('transaction_id is required');
			const type = field('document_type');
			const typeRule = ruleAt(RULES, 'document_type');
			// Case-insensitive, normalized to upper case (spec: Transaction document).
			if (type === undefined || !textFits(typeRule, type)) {
				const allowed = typeRule.oneOf?.join(' or ');
				return rejected(`document_type must be ${allowed}, got ${JSON.stringify(type ?? '')}`);
			}
			const documentType = type.toUpperCase() as 'INVOICE' | 'AWB';
			const ref = field('document_ref');
			const { minLength, maxLength } = ruleAt(RULES, 'document_ref');
			const lengths = `${minLength}-${maxLength} characters`;
			if (!ref) return rejected(`document_ref is required (${lengths})`);
			if (!textFits(ruleAt(RULES, 'document_ref'), ref)) {
				return rejected(`document_ref must be ${lengths}, got ${ref.length}`);
			}
			const file: MultipartPart | undefined = parts.find(
				(p) => p.name === 'file' && p.filename !== undefined,
			);
			if (!file) return rejected('file is required (a file part named file)');
			const state = env.state;
			// Every transaction belongs to the one sandbox merchant, so "not owned" is "unknown".
			const record = state.transactionsById.get(transactionId);
			if (!record) return rejected(`Transaction ${transactionId} not found for this merchant`);
			const fileName = file.filename as string;
			const extension = /\.([^.]+)$/.exec(fileName)?.[1].toLowerCase() ?? '';
			if (fileName !== '' && !textFits(ruleAt(RULES, 'file'), fileName)) {
				const shown = JSON.stringify(extension);
				return rejected(`Unsupported file extension ${shown}: use pdf, doc, docx, jpg or jpeg`);
			}
			if (file.data.length > MAX_DOCUMENT_BYTES) {
				return rejected(`File exceeds 2 MB (${file.data.length} bytes)`);
			}
			const wasCaptured = ['CAPTURED', 'PARTIALLY_CAPTURE', 'PARTIALLY_REFUNDED', 'REFUNDED'];
			if (!wasCaptured.includes(record.status)) {
				return rejected(`Document upload needs a captured transaction (status ${record.status})`);
			}

			// Processing checks, in this order (README).
			if (fileName === '') return failed('109', 'Empty file name or mandatory fields missing');
			if (record.status !== 'CAPTURED' && record.status !== 'PARTIALLY_CAPTURE') {
				return failed('102', `Invalid transaction status ${record.status} for document upload`);
			}
			const { settings } = state;
			if (settings.documentUnsupportedPsps.includes(record.psp)) {
				return failed('203', `Upload not supported for this PSP (${record.psp})`);
			}
			if (settings.terminalMissingPsps.includes(record.psp)) {
				return failed('205', `Terminal credentials not found (${record.psp})`);
			}
			const signature = SIGNATURES[extension];
			if (!signature.every((byte, i) => file.data[i] === byte)) {
				return failed('101', `Invalid format: the content is not a ${extension} file`);
			}
			const ofOrder = state.documents.filter((d) => d.p_order_id === record.p_order_id);
			const duplicate = {
				document_type: documentType,
				document_ref: ref,
				p_order_id: record.p_order_id,
			};
			if (documentType === 'INVOICE' && ofOrder.some((d) => d.document_type === 'INVOICE')) {
				return failed('201', 'Invoice already uploaded for this order', duplicate);
			}
			const sameAwb = (d: StoredDocument) => d.document_type === 'AWB' && d.document_ref === ref;
			if (documentType === 'AWB' && ofOrder.some(sameAwb)) {
				return failed('202', 'AWB with this document_ref already uploaded', duplicate);
			}
			if (settings.failNextDocumentUploads > 0) {
				settings.failNextDocumentUploads -= 1;
				return failed('103', 'Failed to upload the document');
			}

			const data: Omit<StoredDocument, 'content_type' | 'data' | 'uploadedAt'> = {
				m_order_id: record.m_order_id,
				p_order_id: record.p_order_id,
				transaction_id: record.transaction_id,
				document_type: documentType,
				document_ref: ref,
				psp: record.psp,
				file_name: fileName,
			};
			state.documents.push({
				...data,
				content_type: file.contentType ?? '',
				data: Buffer.from(file.data),
				uploadedAt: Date.now(),
			});
			return json(200, {
				status: 'success',
				code: '00',
				message: 'Document uploaded successfully',
				data,
			});
		},
	});
};
