import type { ServerResponse } from 'node:http';

/** What a route handler answers; the core writes it to the socket. */
export interface Reply {
	status: number;
	/** Serialised as JSON unless `text` is set. */
	body?: unknown;
	/** Sent as is; a Buffer for binary replies (contentType then needed). */
	text?: string | Buffer;
	contentType?: string;
	headers?: Record<string, string>;
}

export function json(status: number, body: unknown, headers?: Record<string, string>): Reply {
	return { status, body, headers };
}

/** The spec's general error body: { message, status: fail, code }. */
export function generalError(httpStatus: number, code: string, message: string): Reply {
	return json(httpStatus, { message, status: 'fail', code });
}

export function badRequest(message: string): Reply {
	return generalError(400, '400', message);
}

/** Thrown by request logic; routes answer it with the general error body. */
export class HttpError extends Error {
	constructor(
		readonly status: number,
		message: string,
		readonly code = String(status),
	) {
		super(message);
	}
}

export const errorReply = (error: HttpError): Reply =>
	generalError(error.status, error.code, error.message);

/** Runs request logic, turning an HttpError into its reply; other errors propagate (500). */
export function replyOrError(run: () => Reply): Reply {
	try {
		return run();
	} catch (error) {
		if (error instanceof HttpError) return errorReply(error);
		throw error;
	}
}

export const invalidKeys = (): Reply => generalError(401, '401', 'Invalid merchant key and secret');

export const notFound = (): Reply =>
	json(404, { status: 'fail', code: '404', message: 'Not found' });

export function writeReply(res: ServerResponse, reply: Reply): void {
	const isText = reply.text !== undefined;
	const payload = isText ? (reply.text as string | Buffer) : JSON.stringify(reply.body ?? {});
	const defaultType = isText ? 'text/plain; charset=utf-8' : 'application/json';
	res.writeHead(reply.status, {
		'content-type': reply.contentType ?? defaultType,
		'content-length': Buffer.byteLength(payload),
		...reply.headers,
	});
	res.end(payload);
}

/** Quotes a client-supplied value for an error message. */
export const quote = (value: unknown): string => JSON.stringify(String(value));
