// The harness's webhooks over real HTTP (a local server handing each request to the harness as
// n8n's webhook server would), and a test's in-process request in the same shape.
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse as parseQueryString } from 'node:querystring';

import type { CapturedResponse, IncomingRequest } from './http-fakes';

/** What a test asks a webhook to receive. */
export interface WebhookRequest {
	/** Defaults to the webhook's method (POST for most triggers). */
	method?: string;
	headers?: Record<string, string>;
	/** An object is sent as JSON; a string or Buffer is sent as is (strings as text/plain). */
	body?: unknown;
	query?: Record<string, string>;
}

export interface HttpServer {
	port: number;
	stop(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of request) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks);
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
	return Object.fromEntries(
		Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]),
	);
}

/** A test's request to the webhook at `path`, as it would arrive over HTTP. */
export function incomingRequest(
	request: WebhookRequest,
	path: string,
	httpMethod: string,
): IncomingRequest {
	const headers = lowerCaseKeys(request.headers ?? {});
	let rawBody: Buffer = Buffer.alloc(0);
	if (Buffer.isBuffer(request.body)) rawBody = request.body;
	else if (typeof request.body === 'string') {
		rawBody = Buffer.from(request.body);
		headers['content-type'] ??= 'text/plain;charset=UTF-8';
	} else if (request.body !== undefined) {
		rawBody = Buffer.from(JSON.stringify(request.body));
		headers['content-type'] ??= 'application/json';
	}
	const query = new URLSearchParams(request.query ?? {}).toString();
	return {
		method: (request.method ?? httpMethod).toUpperCase(),
		url: `/webhook/${path}${query ? `?${query}` : ''}`,
		headers,
		query: { ...(request.query ?? {}) },
		rawBody,
	};
}

/** Listens on a free local port; every request goes to `answer`, its response back as is. */
export async function startHttpServer(
	answer: (request: IncomingRequest) => Promise<CapturedResponse>,
): Promise<HttpServer> {
	const onHttpRequest = async (req: IncomingMessage, res: ServerResponse) => {
		try {
			const rawBody = await readBody(req);
			const url = req.url ?? '/';
			const search = url.includes('?') ? url.slice(url.indexOf('?') + 1) : '';
			const response = await answer({
				method: (req.method ?? 'GET').toUpperCase(),
				url,
				headers: { ...req.headers },
				query: { ...parseQueryString(search) },
				rawBody,
			});
			res.writeHead(response.statusCode, response.headers);
			res.end(response.payload);
		} catch (error) {
			res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
			res.end(JSON.stringify({ code: 0, message: (error as Error).message }));
		}
	};
	const server: Server = createServer((req, res) => void onHttpRequest(req, res));
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		port: (server.address() as AddressInfo).port,
		async stop() {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
