// n8n's HTTP request and response as a webhook sees them, faked for the harness (express's shape).
import { EventEmitter } from 'node:events';
import { parse as parseQueryString } from 'node:querystring';

import { jsonParse, UserError } from 'n8n-workflow';

export interface IncomingRequest {
	method: string;
	/** Path and query string, as on the request line. */
	url: string;
	headers: Record<string, string | string[] | undefined>;
	query: Record<string, unknown>;
	rawBody: Buffer;
}

/** Content type and charset the way n8n reads them (type lower-cased, charset default utf-8). */
function contentTypeOf(headers: IncomingRequest['headers']) {
	const header = headers['content-type'];
	if (typeof header !== 'string' || header.trim() === '') {
		return { type: undefined, charset: 'utf-8' };
	}
	const [type, ...parameters] = header.split(';');
	const charset = parameters
		.map((parameter) => parameter.trim().split('='))
		.find(([name]) => name.trim().toLowerCase() === 'charset')?.[1]
		?.trim()
		.replace(/^"|"$/g, '')
		.toLowerCase();
	return { type: type.trim().toLowerCase(), charset: charset ?? 'utf-8' };
}

class BodyParseError extends Error {}

/**
 * n8n's parseBody for webhooks: JSON, form-urlencoded and text/plain are parsed; an unparsable
 * body is refused before the node runs. n8n leaves other bodies unparsed (XML is parsed there,
 * not here); the node then sees an empty object.
 */
export function parseBody(request: IncomingRequest): unknown {
	const { type, charset } = contentTypeOf(request.headers);
	if (request.rawBody.length === 0) return {};
	const encoding = (Buffer.isEncoding(charset) ? charset : 'utf-8') as BufferEncoding;
	const text = () => request.rawBody.toString(encoding);
	try {
		if (type === 'application/json') return jsonParse(text());
		if (type === 'application/x-www-form-urlencoded') {
			return { ...parseQueryString(text(), undefined, undefined, { maxKeys: 1000 }) };
		}
		if (type === 'text/plain') return text();
	} catch (error) {
		throw new BodyParseError((error as Error).message);
	}
	return {};
}

/** Just enough of express's Request for WebhookContext and nodes reading the request. */
export function fakeRequest(request: IncomingRequest, body: unknown) {
	const { type, charset } = contentTypeOf(request.headers);
	const path = request.url.split('?')[0];
	const header = (name: string) => request.headers[name.toLowerCase()];
	return {
		method: request.method,
		url: request.url,
		originalUrl: request.url,
		path,
		headers: request.headers,
		query: request.query,
		params: {},
		body,
		rawBody: request.rawBody,
		contentType: type,
		encoding: charset,
		get: header,
		header,
		// The body was read already, as n8n's rawBodyReader does before the node runs.
		readRawBody: async () => {},
	};
}

/** Captures what a node (or the harness, answering for n8n) writes to express's Response. */
export class CapturedResponse {
	statusCode = 200;

	readonly headers: Record<string, string> = {};

	/** What the sender reads: parsed JSON or text. */
	body: unknown;

	/** What goes on the wire. */
	payload: string | Buffer = '';

	headersSent = false;

	writableEnded = false;

	closed = false;

	status(code: number) {
		this.statusCode = code;
		return this;
	}

	sendStatus(code: number) {
		return this.status(code).send(String(code));
	}

	setHeader(name: string, value: string | number | readonly string[]) {
		this.headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
		return this;
	}

	getHeader(name: string) {
		return this.headers[name.toLowerCase()];
	}

	removeHeader(name: string) {
		delete this.headers[name.toLowerCase()];
	}

	header(name: string | Record<string, string>, value?: string) {
		if (typeof name === 'string') return this.setHeader(name, value ?? '');
		for (const [key, entry] of Object.entries(name)) this.setHeader(key, entry);
		return this;
	}

	set(name: string | Record<string, string>, value?: string) {
		return this.header(name, value);
	}

	type(contentType: string) {
		return this.setHeader('content-type', contentType);
	}

	writeHead(code: number, headers?: Record<string, string>) {
		this.status(code);
		if (headers) this.header(headers);
		this.headersSent = true;
		return this;
	}

	json(body: unknown) {
		this.headers['content-type'] ??= 'application/json; charset=utf-8';
		const payload = JSON.stringify(body) ?? '';
		return this.finish(payload, payload === '' ? undefined : JSON.parse(payload));
	}

	send(body?: unknown) {
		if (typeof body === 'string') {
			this.headers['content-type'] ??= 'text/html; charset=utf-8';
			return this.finish(body, body);
		}
		if (Buffer.isBuffer(body)) {
			this.headers['content-type'] ??= 'application/octet-stream';
			return this.finish(body, body);
		}
		if (body === undefined || body === null) return this.finish('', undefined);
		return this.json(body);
	}

	write(chunk: string | Buffer) {
		this.headersSent = true;
		this.payload = Buffer.concat([Buffer.from(this.payload), Buffer.from(chunk)]);
		return true;
	}

	end(chunk?: string | Buffer) {
		if (this.writableEnded) return this;
		if (chunk !== undefined) this.write(chunk);
		const text = this.payload.toString();
		return this.finish(this.payload, text === '' ? this.body : text);
	}

	// express's Response is an event emitter: 'finish' fires once the answer is written (the
	// trigger forgets a delivery it answered with an error then); nothing else fires.
	private readonly events = new EventEmitter();

	on(event: string, listener: (...args: unknown[]) => void) {
		this.events.on(event, listener);
		return this;
	}

	once(event: string, listener: (...args: unknown[]) => void) {
		this.events.once(event, listener);
		return this;
	}

	off(event: string, listener: (...args: unknown[]) => void) {
		this.events.off(event, listener);
		return this;
	}

	private finish(payload: string | Buffer, body: unknown) {
		// express throws too: a node answering twice is a bug worth seeing.
		if (this.writableEnded) throw new UserError('Cannot send a webhook response twice');
		this.payload = payload;
		this.body = body;
		this.headersSent = true;
		this.writableEnded = true;
		this.events.emit('finish');
		return this;
	}
}

export function respond(response: CapturedResponse, status: number, body: unknown): void {
	response.status(status);
	if (typeof body === 'string') response.send(body);
	else response.json(body);
}
