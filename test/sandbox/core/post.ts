// One outgoing POST of the service (webhooks, payout results): status or why none came.
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';

export const isLoopbackHost = (hostname: string): boolean =>
	hostname === 'localhost' ||
	hostname.endsWith('.localhost') ||
	hostname === '[::1]' ||
	/^127\.\d+\.\d+\.\d+$/.test(hostname);

// RFC 2606 / 6761 names never reach a merchant; failing them at once keeps tests off the network.
const RESERVED_HOST = /(^|\.)(example|invalid|test)$|(^|\.)example\.(com|net|org)$/i;

export interface PostOutcome {
	status?: number;
	error?: string;
}

export interface PostOptions {
	body: string;
	headers: Record<string, string>;
	/** Connect to end of response. */
	timeoutMs: number;
	/** Requests in flight, so the owner can destroy them on stop. */
	inFlight: Set<ClientRequest>;
}

/** POSTs once on a fresh connection (nothing pooled outlives a stop); never rejects. */
export function postOnce(target: string, options: PostOptions): Promise<PostOutcome> {
	const url = new URL(target);
	if (RESERVED_HOST.test(url.hostname)) {
		return Promise.resolve({ error: `ENOTFOUND ${url.hostname} (reserved name, not looked up)` });
	}
	const { body, timeoutMs, inFlight } = options;
	const https = url.protocol === 'https:';
	return new Promise((resolve) => {
		let settled = false;
		const finish = (outcome: PostOutcome) => {
			if (settled) return;
			settled = true;
			clearTimeout(timer);
			inFlight.delete(request);
			resolve(outcome);
		};
		const send = https ? httpsRequest : httpRequest;
		const request = send(
			url,
			{
				method: 'POST',
				agent: false,
				headers: { ...options.headers, 'content-length': Buffer.byteLength(body) },
				// Local HTTPS receivers use self-signed certificates.
				...(https && isLoopbackHost(url.hostname) && { rejectUnauthorized: false }),
			},
			(response: IncomingMessage) => {
				const status = response.statusCode;
				response.on('error', () => undefined);
				response.on('end', () => finish({ status }));
				response.on('close', () =>
					finish(response.complete ? { status } : { status, error: 'response cut off' }),
				);
				response.resume();
			},
		);
		const timer = setTimeout(() => {
			finish({ error: `timeout after ${timeoutMs} ms` });
			request.destroy();
		}, timeoutMs);
		request.on('error', (error: NodeJS.ErrnoException) =>
			finish({ error: error.message || error.code || String(error) }),
		);
		inFlight.add(request);
		request.end(body);
	});
}
