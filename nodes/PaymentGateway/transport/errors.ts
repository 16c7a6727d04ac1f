import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

/** What the known service codes mean, in words a workflow builder can act on. */
export const KNOWN_CODES: Record<string, string> = {
	'401': 'Invalid key or secret: check that the credential holds the key pair of the right channel.',
	E0044:
		'The transaction is not in a state that allows this: not refundable or voidable, already refunded or voided, refund or void not enabled on the MID, or a document upload on a transaction that is not captured.',
	E0021:
		'The record already exists or cannot be found: a bulk payout request_id that was already used, or a payment link that does not exist or is already deactivated.',
	E0035: 'Invalid file format: the bulk payment link upload takes .xlsx files only.',
	PAYMENT_FAILED: 'The payment service provider declined the immediate payment with the saved card.',
	'101': 'Invalid document format: only pdf, doc, docx, jpg and jpeg are accepted.',
	'102': 'Invalid transaction status: documents can only be attached to captured transactions.',
	'103': 'The document upload failed at the payment service provider or internally; try again later.',
	'104': 'Invalid upload type: document_type must be INVOICE or AWB.',
	'105': 'The merchant is not enabled for the compliance mode this payment service provider requires.',
	'106': 'The file is too large: the service accepts at most 2 MB.',
	'107': 'Invalid payment service provider payment reference.',
	'108': 'Empty invoice or AWB id (document_ref).',
	'109': 'Empty file name or mandatory fields missing.',
	'201': 'An invoice was already uploaded for this order (one INVOICE per order).',
	'202': 'An AWB with this document_ref was already uploaded for this order.',
	'203': 'Document upload is not supported for this payment service provider.',
	'204': 'Order not found.',
	'205': 'Terminal credentials not found for this order.',
	'400': 'Bad request: a parameter is missing or invalid.',
	'403': 'Forbidden: the merchant account is not allowed to do this (for example the CAUTH MID is not enabled).',
	'404': 'Not found: check the Base URL and the identifier.',
	'422': 'Validation failed: for example an unsupported currency, an invalid payment token, or a token of another PSP.',
	'429': 'Too many requests: the rate limit was exceeded. Try again later or lower the request rate.',
	'500': 'The service had an internal error. Try again later.',
};

export function describeCode(code: string, httpStatus?: number): string | undefined {
	return (
		KNOWN_CODES[code] ??
		(httpStatus !== undefined ? KNOWN_CODES[String(httpStatus)] : undefined) ??
		(httpStatus !== undefined && httpStatus >= 500 ? KNOWN_CODES['500'] : undefined)
	);
}

const FAILED_STATUSES = new Set(['fail', 'failed', 'error']);

/** The service reports failures in the body too, sometimes with HTTP 200: check both. */
export function isFailure(httpStatus: number, body: unknown): boolean {
	if (httpStatus < 200 || httpStatus >= 300) return true;
	if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
	const record = body as IDataObject;
	if (record.success === false) return true;
	if (typeof record.status === 'string' && FAILED_STATUSES.has(record.status.toLowerCase())) return true;
	// A known error code with no success status (success bodies carry code 00).
	const code = record.code === undefined || record.code === null ? '' : String(record.code);
	const succeeded = typeof record.status === 'string' && record.status.toLowerCase() === 'success';
	return !succeeded && (/^E\d{4}$/.test(code) || code === 'PAYMENT_FAILED');
}

export interface ServiceFailure {
	httpStatus: number;
	code: string;
	message: string;
	body: unknown;
}

export function toServiceFailure(httpStatus: number, body: unknown): ServiceFailure {
	const record = (typeof body === 'object' && body !== null ? body : {}) as IDataObject;
	const hasCode = record.code !== undefined && record.code !== null && record.code !== '';
	// A failure body without a code on HTTP 2xx (for example an over-refund): not a status code.
	const fallback = httpStatus >= 200 && httpStatus < 300 ? 'FAILED' : String(httpStatus);
	const code = hasCode ? String(record.code) : fallback;
	let message = typeof record.message === 'string' && record.message ? record.message : '';
	if (!message && typeof body === 'string') {
		// An HTML error page from a proxy: keep its title, not the markup.
		const title = /<title>([^<]*)<\/title>/i.exec(body)?.[1]?.trim();
		message = title || `HTTP ${httpStatus}`;
	}
	return { httpStatus, code, message: message || `HTTP ${httpStatus}`, body };
}

/** What a 400 usually means, for the request paths where the seed names the causes. */
const BAD_REQUEST_CAUSES: Array<[string, string]> = [
	['/orders/v1/create', 'for example the amount is missing or invalid, or the m_order_id was already used'],
	['/orders/v1/transaction', 'for example the amount, the currency or the transaction ID'],
	['/v1/bulk/payouts', 'for example a row of the payout file, the checksum or the request_id'],
	['/payment-links/v1/bulk-upload', 'for example a row of the payment link file'],
];

/** The description of a failure, said for the request that failed. */
export function describeFailure(failure: ServiceFailure, path: string): string | undefined {
	const described = describeCode(failure.code, failure.httpStatus);
	if (failure.httpStatus !== 400 || failure.code !== '400') return described;
	const cause = BAD_REQUEST_CAUSES.find(([prefix]) => path.endsWith(prefix) || path.startsWith(prefix));
	return cause ? `Bad request: a parameter is missing or invalid (${cause[1]}).` : described;
}

const MAX_LISTED_ROWS = 20;

/** The service's per-row errors of a rejected file upload, in words, when the body lists them. */
export function rowErrorsOf(body: unknown): string | undefined {
	const record = (typeof body === 'object' && body !== null ? body : {}) as IDataObject;
	const data = (typeof record.data === 'object' && record.data !== null ? record.data : {}) as IDataObject;
	const list = [record.errors, data.errors, record.failed_rows, data.failed_rows].find(Array.isArray) as
		| unknown[]
		| undefined;
	if (!list || list.length === 0) return undefined;
	const lines = list.slice(0, MAX_LISTED_ROWS).map((entry) => {
		if (typeof entry !== 'object' || entry === null) return String(entry);
		const row = entry as IDataObject;
		const where = [row.row !== undefined ? `row ${String(row.row)}` : '', row.column ? String(row.column) : '']
			.filter(Boolean)
			.join(', ');
		const what = [row.rule, row.message, row.error, row.reason].find((v) => typeof v === 'string') ?? JSON.stringify(row);
		const value = row.value !== undefined && row.value !== '' ? ` (value ${JSON.stringify(row.value)})` : '';
		return `${where ? `${where}: ` : ''}${String(what)}${value}`;
	});
	const more = list.length > MAX_LISTED_ROWS ? `; and ${list.length - MAX_LISTED_ROWS} more` : '';
	return `Rows the service rejected: ${lines.join('; ')}${more}.`;
}

/** A NodeApiError built from the service's answer only, so no request header (secret) leaks into it. */
export function serviceError(
	node: INode,
	failure: ServiceFailure,
	itemIndex: number,
	path = '',
): NodeApiError {
	const errorBody: JsonObject = {
		code: failure.code,
		message: failure.message,
		httpCode: String(failure.httpStatus),
	};
	if (typeof failure.body === 'object' && failure.body !== null) {
		errorBody.response = failure.body as JsonObject;
	}
	const message = `${failure.message} [code ${failure.code}]`;
	const error = new NodeApiError(node, errorBody, {
		message,
		description: [describeFailure(failure, path), rowErrorsOf(failure.body)].filter(Boolean).join(' ') || undefined,
		httpCode: String(failure.httpStatus),
		itemIndex,
	});
	// NodeApiError swaps messages that mention socket codes for generic text; keep the service's.
	error.message = message;
	error.context.serviceCode = failure.code;
	error.context.serviceMessage = failure.message;
	error.context.httpStatus = failure.httpStatus;
	return error;
}
