import type { IDataObject, INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

/**
 * What the service's general codes mean, in words a workflow builder can act on. Codes that belong
 * to one endpoint are declared by its operation (RequestSpec.codes).
 */
export const KNOWN_CODES: Record<string, string> = {
	'401':
		'Invalid key or secret: check that the credential holds the key pair of the right channel.',
	E0044: 'The transaction is not in a state that allows this.',
	'400': 'Bad request: a parameter is missing or invalid.',
	'403':
		'Forbidden: the merchant account is not allowed to do this (for example the CAUTH MID is not enabled).',
	'404': 'Not found: check the Base URL and the identifier.',
	'422':
		'Validation failed: for example an unsupported currency, an invalid payment token, or a token of another PSP.',
	'429':
		'Too many requests: the rate limit was exceeded. Try again later or lower the request rate.',
	'500': 'The service had an internal error. Try again later.',
};

export function describeCode(
	code: string,
	httpStatus?: number,
	endpointCodes: Record<string, string> = {},
): string | undefined {
	return (
		endpointCodes[code] ??
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
	if (typeof record.status === 'string' && FAILED_STATUSES.has(record.status.toLowerCase()))
		return true;
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

/** What the operation says about its endpoint's failures; see RequestSpec. */
export interface EndpointWords {
	badRequestCauses?: string;
	codes?: Record<string, string>;
}

/** The description of a failure, said for the endpoint that failed. */
export function describeFailure(
	failure: ServiceFailure,
	endpoint: EndpointWords = {},
): string | undefined {
	const described = describeCode(failure.code, failure.httpStatus, endpoint.codes);
	if (failure.httpStatus !== 400 || failure.code !== '400' || !endpoint.badRequestCauses)
		return described;
	return `Bad request: a parameter is missing or invalid (${endpoint.badRequestCauses}).`;
}

const MAX_LISTED_ROWS = 20;

/** The service's per-row errors of a rejected file upload, in words, when the body lists them. */
export function rowErrorsOf(body: unknown): string | undefined {
	const record = (typeof body === 'object' && body !== null ? body : {}) as IDataObject;
	const data = (
		typeof record.data === 'object' && record.data !== null ? record.data : {}
	) as IDataObject;
	const list = [record.errors, data.errors, record.failed_rows, data.failed_rows].find(
		Array.isArray,
	) as unknown[] | undefined;
	if (!list || list.length === 0) return undefined;
	const lines = list.slice(0, MAX_LISTED_ROWS).map((entry) => {
		if (typeof entry !== 'object' || entry === null) return String(entry);
		const row = entry as IDataObject;
		const where = [
			row.row !== undefined ? `row ${String(row.row)}` : '',
			row.column ? String(row.column) : '',
		]
			.filter(Boolean)
			.join(', ');
		const what =
			[row.rule, row.message, row.error, row.reason].find((v) => typeof v === 'string') ??
			JSON.stringify(row);
		const value =
			row.value !== undefined && row.value !== '' ? ` (value ${JSON.stringify(row.value)})` : '';
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
	endpoint: EndpointWords = {},
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
		description:
			[describeFailure(failure, endpoint), rowErrorsOf(failure.body)].filter(Boolean).join(' ') ||
			undefined,
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
