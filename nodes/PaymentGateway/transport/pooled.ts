import type { Agent as HttpAgent } from 'node:http';
import { request as httpRequest } from 'node:http';
import type { Agent } from 'node:https';
import { request as httpsRequest } from 'node:https';

import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestOptions,
	NodeEgressFilter,
} from 'n8n-workflow';

import type { NodeContext } from '../helpers/context';
import { pooledAgent } from './pool';

export type FullResponse = { statusCode: number; headers: IDataObject; body: unknown };

type Scalar = string | number | boolean;
const isScalar = (value: unknown): value is Scalar =>
	typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

/**
 * Every variable n8n's helper takes a proxy from (the `proxy-from-env` rules n8n 1.x and 2.x use):
 * with any of them set, n8n's helper sends, so the proxy is used exactly as n8n uses it.
 */
const PROXY_VARIABLES = [
	'HTTPS_PROXY',
	'HTTP_PROXY',
	'ALL_PROXY',
	'npm_config_https_proxy',
	'npm_config_http_proxy',
	'npm_config_proxy',
];

/** True when a proxy is set in the environment (either case). */
export function proxySet(env: NodeJS.ProcessEnv = process.env): boolean {
	return PROXY_VARIABLES.some(
		(name) => !!(env[name] || env[name.toLowerCase()] || env[name.toUpperCase()]),
	);
}

export const NO_KEEP_ALIVE_NOTE =
	"Payment Gateway: n8n's SSRF protection is on, and this n8n applies its SSRF protection only to its own HTTP helper, so the node sends every request through it: protected, but each request opens a new connection (n8n releases that offer nodes their SSRF policy keep connections alive).";

let toldNoKeepAlive = false;

/**
 * The keep-alive route for one request (HTTPS, or plain http, which the credential check allows to
 * loopback addresses only), or undefined where n8n's own helper must send it: a proxy set in the
 * environment (n8n applies its proxy rules and guards the proxy's own address); a query or body
 * this route would not encode exactly as n8n does; SSRF protection switched on (`ssrfOn`, n8n's
 * setting as the door reads it) in an n8n that keeps it to its own helper (2.x releases before
 * `getSecureEgressFilter`: the node cannot apply it). Where n8n offers nodes its SSRF policy
 * (`getSecureEgressFilter`), every connection obeys it; n8n releases without SSRF protection, or
 * with it off, check nothing on their own helper either, so the route adds nothing.
 */
export function pooledRoute(
	ctx: NodeContext,
	options: IHttpRequestOptions,
	ssrfOn: boolean,
): (() => Promise<FullResponse>) | undefined {
	const protocol = options.url.startsWith('https://')
		? 'https:'
		: options.url.startsWith('http://')
			? 'http:'
			: undefined;
	if (!protocol || proxySet()) return undefined;
	const qs = Object.entries(options.qs ?? {}).filter(([, value]) => value !== undefined);
	if (!qs.every(([, value]) => isScalar(value))) return undefined;
	const body = options.body;
	if (body !== undefined && !(options.json && typeof body === 'object') && !Buffer.isBuffer(body))
		return undefined;

	const helpers = ctx.helpers as Partial<IExecuteFunctions['helpers']>;
	const offered = typeof helpers.getSecureEgressFilter === 'function';
	if (!offered && ssrfOn) {
		if (!toldNoKeepAlive) ctx.logger?.warn(NO_KEEP_ALIVE_NOTE);
		toldNoKeepAlive = true;
		return undefined;
	}
	const filter = offered ? helpers.getSecureEgressFilter!.call(ctx.helpers) : undefined;
	const agent = pooledAgent({
		protocol,
		...(filter && { ssrf: { policy: filter, lookup: () => filter.createSecureLookup() } }),
	});
	const url = new URL(options.url);
	for (const [name, value] of qs) url.searchParams.append(name, String(value));
	const payload = Buffer.isBuffer(body)
		? body
		: body === undefined
			? undefined
			: Buffer.from(JSON.stringify(body));
	return async () => await send(url, options, payload, agent, filter);
}

async function send(
	url: URL,
	options: IHttpRequestOptions,
	payload: Buffer | undefined,
	agent: Agent | HttpAgent,
	filter: NodeEgressFilter | undefined,
): Promise<FullResponse> {
	const allowed = await filter?.validateUrl(url);
	if (allowed && !allowed.ok) throw allowed.error;
	const headers: Record<string, string | number> = { 'user-agent': 'n8n' };
	for (const [name, value] of Object.entries(options.headers ?? {}))
		headers[name] = value as string;
	if (payload) headers['content-length'] = payload.length;
	const timeoutMs = options.timeout ?? 300_000;
	// The whole exchange, as axios counts it; an abort signal rather than a timer, so the same
	// code reports it as n8n's helper does (ECONNABORTED).
	const signal = AbortSignal.timeout(timeoutMs);
	return await new Promise<FullResponse>((resolve, reject) => {
		const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
		const req = request(url, { method: options.method ?? 'GET', headers, agent, signal }, (res) => {
			const chunks: Buffer[] = [];
			res.on('data', (chunk: Buffer) => chunks.push(chunk));
			res.on('error', (error) => reject(timedOut(signal, timeoutMs) ?? error));
			// parseBody in the transport turns JSON text into a value, as for n8n's answers.
			res.on('end', () =>
				resolve({
					statusCode: res.statusCode ?? 0,
					headers: res.headers as IDataObject,
					body: Buffer.concat(chunks).toString('utf8'),
				}),
			);
		});
		req.on('error', (error) => reject(timedOut(signal, timeoutMs) ?? error));
		req.end(payload);
	});
}

function timedOut(signal: AbortSignal, timeoutMs: number): Error | undefined {
	if (!signal.aborted) return undefined;
	return Object.assign(new Error(`timeout of ${timeoutMs}ms exceeded`), { code: 'ECONNABORTED' });
}
