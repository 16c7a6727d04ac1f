import type { IncomingMessage, Server } from 'node:http';
import { createServer as createHttpServer } from 'node:http';
import type { Agent as HttpAgent } from 'node:http';
import type { Agent } from 'node:https';
import { createServer, request } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { connect } from 'node:net';

import {
	destroyPool,
	pooledAgent,
	proxyEnvOf,
	supportsProxyEnv,
} from '../../nodes/PaymentGateway/transport/pool';
import { makeCertificate } from '../workflows/tls-front';

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

const runIf = supportsProxyEnv() ? describe : describe.skip;

runIf('keep-alive connection pool', () => {
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
		destroyPool();
		tlsSessions = 0;
	});
	afterAll(async () => {
		for (const socket of sockets) socket.destroy();
		await new Promise((resolve) => server.close(resolve));
	});

	it('reuses one TLS connection for sequential requests', async () => {
		const agent = pooledAgent({ env: {}, tls: { ca: cert } });
		for (let i = 0; i < 20; i++) {
			expect(JSON.parse(await get(`https://localhost:${port}/r/${i}`, agent))).toEqual({
				path: `/r/${i}`,
			});
		}
		expect(tlsSessions).toBe(1);
		// The same key gives the same agent: later runs find the connection open.
		expect(pooledAgent({ env: {}, tls: { ca: cert } })).toBe(agent);
	});

	it('opens one connection per parallel slot, not one per request', async () => {
		const agent = pooledAgent({ env: {}, tls: { ca: cert } });
		const slots = 8;
		let next = 0;
		const worker = async () => {
			while (next < 80) await get(`https://localhost:${port}/p/${next++}`, agent);
		};
		await Promise.all(Array.from({ length: slots }, worker));
		expect(tlsSessions).toBeGreaterThanOrEqual(1);
		expect(tlsSessions).toBeLessThanOrEqual(slots);
	});

	it('goes through the proxy set in the environment, and keeps the tunnel', async () => {
		const tunnels: string[] = [];
		const proxy = createHttpServer();
		proxy.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
			tunnels.push(String(req.url));
			const [host, target] = String(req.url).split(':');
			const upstream = connect(Number(target), host === 'localhost' ? '127.0.0.1' : host, () => {
				client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
				upstream.write(head);
				upstream.pipe(client);
				client.pipe(upstream);
			});
			upstream.on('error', () => client.destroy());
			client.on('error', () => upstream.destroy());
		});
		const proxyPort = await listen(proxy);
		try {
			const env = { HTTPS_PROXY: `http://127.0.0.1:${proxyPort}` };
			const agent = pooledAgent({ env, tls: { ca: cert } });
			expect(pooledAgent({ env: {}, tls: { ca: cert } })).not.toBe(agent);
			for (let i = 0; i < 5; i++) await get(`https://localhost:${port}/x/${i}`, agent);
			expect(tunnels).toEqual([`localhost:${port}`]);
			expect(tlsSessions).toBe(1);
		} finally {
			destroyPool();
			await new Promise((resolve) => proxy.close(resolve));
		}
	});

	it('reads the proxy variables in either case, upper case first', () => {
		expect(
			proxyEnvOf({ https_proxy: 'http://a:1', NO_PROXY: 'x', HTTPS_PROXY: 'http://b:2' }),
		).toEqual({
			HTTPS_PROXY: 'http://b:2',
			NO_PROXY: 'x',
		});
		expect(proxyEnvOf({ http_proxy: 'http://c:3', PATH: '/bin' })).toEqual({
			HTTP_PROXY: 'http://c:3',
		});
	});
});

describe('proxyEnv support by Node.js version', () => {
	it('needs Node.js 24.5 or later', () => {
		expect(supportsProxyEnv('24.4.1')).toBe(false);
		expect(supportsProxyEnv('24.5.0')).toBe(true);
		expect(supportsProxyEnv('25.0.0')).toBe(true);
		expect(supportsProxyEnv('22.16.0')).toBe(false);
	});
});
