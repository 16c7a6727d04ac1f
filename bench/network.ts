// A real network path for the HTTPS figures: the sandbox behind TLS (a throw-away self-signed
// certificate, trusted by every process of the run through NODE_EXTRA_CA_CERTS) behind a TCP proxy
// that holds every chunk 20 ms in each direction, so a connection, a TLS handshake and a request
// each cost what they cost against a service 40 ms away.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:net';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Sandbox } from '../test/sandbox';
import { makeCertificate, startTlsFront } from '../test/workflows/tls-front';

export const ONE_WAY_MS = 20;

/** Forwards a stream's chunks after `delayMs`, in order. */
function delayed(from: Socket, to: Socket, delayMs: number): void {
	from.on('data', (chunk: Buffer) => setTimeout(() => to.write(chunk), delayMs));
	from.on('end', () => setTimeout(() => to.end(), delayMs));
	from.on('error', () => to.destroy());
}

async function startLatencyProxy(targetPort: number, delayMs: number): Promise<{ port: number; server: Server; sockets: Socket[] }> {
	const sockets: Socket[] = [];
	const server = createServer((client) => {
		client.setNoDelay(true);
		const upstream = connect(targetPort, '127.0.0.1');
		upstream.setNoDelay(true);
		sockets.push(client, upstream);
		delayed(client, upstream, delayMs);
		delayed(upstream, client, delayMs);
	});
	const port = await new Promise<number>((resolve) =>
		server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
	);
	return { port, server, sockets };
}

export interface NetworkPath {
	/** The sandbox as seen over the path: https://localhost:<proxy port>. */
	box: Sandbox;
	stop(): Promise<void>;
}

/**
 * Starts the path to `sandbox` and sets NODE_EXTRA_CA_CERTS for the processes started after it
 * (n8n, the fetch loop). The certificate file is public; the key stays in memory.
 */
export async function startNetworkPath(sandbox: Sandbox): Promise<NetworkPath> {
	const certificate = makeCertificate();
	const dir = mkdtempSync(join(tmpdir(), 'bench-ca-'));
	// Added to the certificates trusted already (a proxy's, for the npm registry): npm installs the
	// package's own dependencies when n8n's user folder is set up, after this.
	const trusted = process.env.NODE_EXTRA_CA_CERTS;
	const earlier = trusted && existsSync(trusted) ? `${readFileSync(trusted, 'utf8')}\n` : '';
	writeFileSync(join(dir, 'ca.pem'), `${earlier}${certificate.cert}`);
	process.env.NODE_EXTRA_CA_CERTS = join(dir, 'ca.pem');
	const front = await startTlsFront(sandbox.baseUrl, certificate);
	const proxy = await startLatencyProxy(Number(new URL(front.url).port), ONE_WAY_MS);
	const baseUrl = `https://localhost:${proxy.port}`;
	const box = { baseUrl, payoutUrl: sandbox.payoutUrl, keys: sandbox.keys, state: sandbox.state } as Sandbox;
	return {
		box,
		async stop() {
			for (const socket of proxy.sockets) socket.destroy();
			await new Promise((resolve) => proxy.server.close(resolve));
			await front.stop();
			rmSync(dir, { recursive: true, force: true });
		},
	};
}
