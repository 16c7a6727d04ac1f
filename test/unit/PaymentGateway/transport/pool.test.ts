import type { IncomingMessage, Server } from 'node:http';
import { createServer as createHttpServer } from 'node:http';
import type { Agent as HttpAgent } from 'node:http';
import type { Agent } from 'node:https';
import { createServer, request } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';

import type { IExecuteFunctions } from 'n8n-workflow';

import { pooledAgent } from '../../../../nodes/PaymentGateway/transport/pool';
import { ssrfFromEnvironment } from '../../../../nodes/n8n-internals/ssrf-setting';
import {
	NO_KEEP_ALIVE_NOTE,
	pooledRoute,
	proxySet,
} from '../../../../nodes/PaymentGateway/transport/pooled';
import { closeKeptConnections } from '../../../workflows/kept-connections';
import { makeCertificate } from '../../../workflows/tls-front';

const listen = async (server: Server): Promise<number> =>
	await new Promise((resolve) =>
		server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
	);

function get(url: string, agent: Agent | HttpAgent): Promise<string> {
	return new Promise((resolve, reject) => {
		const req = request(url, { agent }, (res: IncomingMessage) => {
			let body = '';
			res.setEncoding('utf8');
			res.on('data', (chunk: string) => (body += chunk));
			res.on('end', () => resolve(body));
		});
		req.on('error', reject);
		req.end();
	});
}

describe('keep-alive connection pool', () => {
	const { key, cert } = makeCertificate();
	let server: Server;
	let port = 0;
	let tlsSessions = 0;
	const sockets: Socket[] = [];

	beforeAll(async () => {
		server = createServer({ key, cert }, (req, res) => {
			// A little latency, so parallel requests overlap and need their own sockets.
			setTimeout(() => res.end(JSON.stringify({ path: req.url })), 15);
		});
		server.on('secureConnection', (socket: Socket) => {
			tlsSessions++;
			sockets.push(socket);
		});
		port = await listen(server);
	});
	afterEach(() => {
		closeKeptConnections();
		tlsSessions = 0;
	});
	afterAll(async () => {
		for (const socket of sockets) socket.destroy();
		await new Promise((resolve) => server.close(resolve));
	});

	it('reuses one TLS connection for sequential requests', async () => {
		const agent = pooledAgent({ tls: { ca: cert } });
		for (let i = 0; i < 20; i++) {
			expect(JSON.parse(await get(`https://localhost:${port}/r/${i}`, agent))).toEqual({
				path: `/r/${i}`,
			});
		}
		expect(tlsSessions).toBe(1);
		// The same key gives the same agent: later runs find the connection open.
		expect(pooledAgent({ tls: { ca: cert } })).toBe(agent);
	});

	it('opens one connection per parallel slot, not one per request', async () => {
		const agent = pooledAgent({ tls: { ca: cert } });
		const slots = 8;
		let next = 0;
		const worker = async () => {
			while (next < 80) await get(`https://localhost:${port}/p/${next++}`, agent);
		};
		await Promise.all(Array.from({ length: slots }, worker));
		expect(tlsSessions).toBeGreaterThanOrEqual(1);
		expect(tlsSessions).toBeLessThanOrEqual(slots);
	});

	it('keeps one agent per SSRF policy and protocol', () => {
		const policy = {};
		const lookup = jest.fn();
		const first = pooledAgent({ ssrf: { policy, lookup } });
		expect(pooledAgent({ ssrf: { policy, lookup } })).toBe(first);
		expect(lookup).toHaveBeenCalledTimes(1);
		expect(pooledAgent({ ssrf: { policy: {}, lookup } })).not.toBe(first);
		expect(pooledAgent({})).not.toBe(first);
		expect(pooledAgent({ protocol: 'http:' })).not.toBe(pooledAgent({}));
	});
});

describe('the pooled route', () => {
	let server: Server;
	let port = 0;
	const connections = new Set<number>();

	beforeAll(async () => {
		server = createHttpServer((req, res) => {
			connections.add(req.socket.remotePort ?? 0);
			res.setHeader('content-type', 'application/json');
			res.end(JSON.stringify({ path: req.url }));
		});
		port = await listen(server);
	});
	afterAll(async () => {
		closeKeptConnections();
		server.closeAllConnections();
		await new Promise((resolve) => server.close(resolve));
	});

	const ctxOf = (helpers: object) => ({ helpers }) as unknown as IExecuteFunctions;

	it('keeps connections alive in an n8n without an SSRF policy (no getSecureEgressFilter)', async () => {
		connections.clear();
		const ctx = ctxOf({});
		for (let page = 1; page <= 3; page++) {
			const send = pooledRoute(ctx, { url: `http://127.0.0.1:${port}/list`, qs: { page } }, false);
			expect(send).toBeDefined();
			const answer = await send!();
			expect([answer.statusCode, JSON.parse(String(answer.body))]).toEqual([
				200,
				{ path: `/list?page=${page}` },
			]);
		}
		expect(connections.size).toBe(1);
	});

	it("obeys n8n's SSRF policy where there is one: a refused URL is not sent", async () => {
		connections.clear();
		const refused = new Error('Access to this address is not allowed');
		const filter = {
			validateUrl: jest.fn(async () => ({ ok: false, error: refused })),
			createSecureLookup: jest.fn(),
		};
		const send = pooledRoute(
			ctxOf({ getSecureEgressFilter: () => filter }),
			{ url: `http://127.0.0.1:${port}/x` },
			true,
		);
		await expect(send!()).rejects.toBe(refused);
		expect(filter.createSecureLookup).toHaveBeenCalledTimes(1);
		expect(connections.size).toBe(0);
	});

	it("leaves requests to n8n's helper when a proxy is set in the environment", () => {
		const saved = process.env.HTTPS_PROXY;
		process.env.HTTPS_PROXY = 'http://127.0.0.1:9';
		try {
			expect(pooledRoute(ctxOf({}), { url: 'https://example.com/x' }, false)).toBeUndefined();
		} finally {
			if (saved === undefined) delete process.env.HTTPS_PROXY;
			else process.env.HTTPS_PROXY = saved;
		}
	});

	it("leaves requests to n8n's helper where SSRF protection is on but not offered to nodes (n8n 2.1–2.2x), and says so once", () => {
		const warn = jest.fn();
		const ctx = { helpers: {}, logger: { warn } } as unknown as IExecuteFunctions;
		expect(pooledRoute(ctx, { url: `http://127.0.0.1:${port}/x` }, true)).toBeUndefined();
		expect(pooledRoute(ctx, { url: `http://127.0.0.1:${port}/y` }, true)).toBeUndefined();
		expect(warn.mock.calls).toEqual([[NO_KEEP_ALIVE_NOTE]]);
		expect(pooledRoute(ctx, { url: `http://127.0.0.1:${port}/w` }, false)).toBeDefined();
		// Where n8n offers its policy, the pool applies it whatever the setting.
		const filter = { validateUrl: jest.fn(), createSecureLookup: jest.fn() };
		const offered = ctxOf({ getSecureEgressFilter: () => filter });
		expect(pooledRoute(offered, { url: `http://127.0.0.1:${port}/z` }, true)).toBeDefined();
	});

	it("reads n8n's SSRF switch as n8n does where no n8n parsed it (the variable or its _FILE form)", () => {
		expect(ssrfFromEnvironment({ N8N_SSRF_PROTECTION_ENABLED: 'false' })).toBe(false);
		expect(ssrfFromEnvironment({ N8N_SSRF_PROTECTION_ENABLED: 'TRUE' })).toBe(true);
		expect(ssrfFromEnvironment({})).toBe(false);
		expect(ssrfFromEnvironment({ N8N_SSRF_PROTECTION_ENABLED_FILE: '/run/secrets/x' })).toBe(true);
	});

	it('reads the proxy variables in either case', () => {
		expect(proxySet({ https_proxy: 'http://a:1' })).toBe(true);
		expect(proxySet({ HTTP_PROXY: 'http://c:3' })).toBe(true);
		expect(proxySet({ all_proxy: 'http://d:4' })).toBe(true);
		expect(proxySet({ npm_config_proxy: 'http://e:5' })).toBe(true);
		expect(proxySet({ NO_PROXY: 'x', PATH: '/bin' })).toBe(false);
	});
});
