import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingMessage, Server } from 'node:http';
import { createServer as createHttpServer, request as httpRequest } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A throw-away self-signed certificate for localhost, made for this run; no key is kept on disk. */
export function makeCertificate(): { key: string; cert: string } {
	const dir = mkdtempSync(join(tmpdir(), 'tls-front-'));
	try {
		execFileSync(
			'openssl',
			[
				'req',
				'-x509',
				'-newkey',
				'ec',
				'-pkeyopt',
				'ec_paramgen_curve:prime256v1',
				'-nodes',
				'-keyout',
				join(dir, 'key.pem'),
				'-out',
				join(dir, 'cert.pem'),
				'-days',
				'1',
				'-subj',
				'/CN=localhost',
				'-addext',
				'subjectAltName=DNS:localhost,IP:127.0.0.1',
			],
			{ stdio: 'ignore' },
		);
		return {
			key: readFileSync(join(dir, 'key.pem'), 'utf8'),
			cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
		};
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

const listen = async (server: Server): Promise<number> =>
	await new Promise((resolve) =>
		server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
	);

const closeAll = async (server: Server, sockets: Socket[]) => {
	for (const socket of sockets) socket.destroy();
	await new Promise((resolve) => server.close(resolve));
};

/** HTTPS in front of a plain-HTTP server (the sandbox), counting TLS connections. */
export async function startTlsFront(target: string, tls: { key: string; cert: string }) {
	const upstream = new URL(target);
	const sockets: Socket[] = [];
	const front = { url: '', tlsSessions: 0, stop: async () => await closeAll(server, sockets) };
	const server = createServer(tls, (req: IncomingMessage, res) => {
		const forward = httpRequest(
			{
				host: upstream.hostname,
				port: upstream.port,
				method: req.method,
				path: req.url,
				headers: req.headers,
			},
			(answer) => {
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(res);
			},
		);
		forward.on('error', () => res.destroy());
		req.pipe(forward);
	});
	server.on('secureConnection', (socket: Socket) => {
		front.tlsSessions++;
		sockets.push(socket);
	});
	front.url = `https://localhost:${await listen(server)}`;
	return front;
}

/** An HTTP CONNECT proxy on loopback, recording each tunnel's target. */
export async function startConnectProxy() {
	const sockets: Socket[] = [];
	const server = createHttpServer();
	const proxy = {
		url: '',
		tunnels: [] as string[],
		stop: async () => await closeAll(server, sockets),
	};
	server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
		proxy.tunnels.push(String(req.url));
		sockets.push(client);
		const [host, port] = String(req.url).split(':');
		const upstream = connect(Number(port), host === 'localhost' ? '127.0.0.1' : host, () => {
			client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
			upstream.write(head);
			upstream.pipe(client);
			client.pipe(upstream);
		});
		sockets.push(upstream);
		upstream.on('error', () => client.destroy());
		client.on('error', () => upstream.destroy());
	});
	proxy.url = `http://127.0.0.1:${await listen(server)}`;
	return proxy;
}
