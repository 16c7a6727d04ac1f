import * as tls from 'node:tls';

import type { INodeParameters } from 'n8n-workflow';

import type { Sandbox, TransactionRecord } from '../sandbox';
import { startSandbox } from '../sandbox';
import { closeKeptConnections } from './kept-connections';
import { requestsTo, runGateway, sandboxCredentials } from './support';
import { makeCertificate, startConnectProxy, startTlsFront } from './tls-front';

/**
 * The node over HTTPS, through real n8n-core helpers: connections are kept across the requests of
 * a run and across runs, one per Parallel Requests slot, and a proxy set in the environment is used.
 * The sandbox sits behind a TLS front whose throw-away certificate is trusted the way
 * NODE_EXTRA_CA_CERTS would (added to Node's default trust store for this process).
 */
const LIST = '/orders/v1/transaction-list';
// The test trusts its throw-away CA through tls.setDefaultCACertificates (Node.js 22.15+).
const runIf = typeof tls.setDefaultCACertificates === 'function' ? describe : describe.skip;

runIf('connections kept alive over HTTPS', () => {
	let sandbox: Sandbox;
	let front: Awaited<ReturnType<typeof startTlsFront>>;
	let defaultCAs: string[] = [];

	beforeAll(async () => {
		defaultCAs = tls.getCACertificates('default');
		const certificate = makeCertificate();
		tls.setDefaultCACertificates([...defaultCAs, certificate.cert]);
		sandbox = await startSandbox({ seed: 5, transactionCount: 60 });
		front = await startTlsFront(sandbox.baseUrl, certificate);
	});
	afterAll(async () => {
		closeKeptConnections();
		await front.stop();
		await sandbox.stop();
		tls.setDefaultCACertificates(defaultCAs);
	});
	beforeEach(() => {
		closeKeptConnections();
		front.tlsSessions = 0;
		sandbox.clearRequests();
	});

	const lookups = (
		count: number,
		parallelRequests: number,
		requestOptions: INodeParameters = {},
	) => {
		const ids = (sandbox.state.transactions as TransactionRecord[])
			.slice(0, count)
			.map((r) => r.transaction_id);
		const credentials = sandboxCredentials(sandbox).map((c) => ({
			...c,
			data: { ...c.data, baseUrl: front.url },
		}));
		return runGateway(sandbox, {
			credentials,
			items: ids.map((id) => ({ id })),
			parameters: {
				resource: 'transaction',
				operation: 'getMany',
				limit: 1,
				filters: { transactionId: '={{ $json.id }}' },
				requestOptions: { parallelRequests, ...requestOptions },
			} as INodeParameters,
		}).then((result) => ({ result, ids }));
	};

	it('uses one TLS connection for every sequential request of a run, and of the next run', async () => {
		const { result, ids } = await lookups(30, 1);
		expect(result.error).toBeUndefined();
		expect(result.outputs.Gateway.map((item) => item.json.transaction_id)).toEqual(ids);
		expect(requestsTo(sandbox, LIST)).toHaveLength(30);
		expect(front.tlsSessions).toBe(1);

		expect((await lookups(10, 1)).result.error).toBeUndefined();
		expect(front.tlsSessions).toBe(1);
	});

	it('opens at most one connection per Parallel Requests slot, not one per request', async () => {
		sandbox.latencyMs = 10;
		try {
			const { result } = await lookups(48, 8);
			expect(result.error).toBeUndefined();
			expect(requestsTo(sandbox, LIST)).toHaveLength(48);
			expect(front.tlsSessions).toBeGreaterThanOrEqual(2);
			expect(front.tlsSessions).toBeLessThanOrEqual(8);
		} finally {
			sandbox.latencyMs = 0;
		}
	});

	it("honours the node's Timeout", async () => {
		sandbox.faults.inject({ kind: 'timeout', path: LIST, delayMs: 3000 });
		const { result } = await lookups(1, 1, { timeoutMs: 300, maxRetries: 0 });
		expect(result.error?.message).toBe('The service did not answer within 300 ms');
	});

	it.each(['status500', 'html502', 'bodyFail', 'status429'] as const)(
		"reports a %s answer exactly as over n8n's own helper",
		async (kind) => {
			const run = async (https: boolean) => {
				sandbox.faults.clear();
				sandbox.faults.inject({ kind, path: LIST, retryAfter: 0 });
				const credentials = sandboxCredentials(sandbox).map((c) =>
					https ? { ...c, data: { ...c.data, baseUrl: front.url } } : c,
				);
				const result = await runGateway(sandbox, {
					credentials,
					parameters: {
						resource: 'transaction',
						operation: 'getMany',
						limit: 1,
						requestOptions: { maxRetries: 0 },
					} as INodeParameters,
				});
				const error = result.error as
					| { message?: string; description?: string; httpCode?: string }
					| undefined;
				return {
					type: error?.constructor.name,
					message: error?.message,
					description: error?.description,
					httpCode: error?.httpCode,
					out: result.outputs.Gateway?.length,
				};
			};
			const overPool = await run(true);
			expect(overPool.type).toBe('NodeApiError');
			expect(front.tlsSessions).toBe(1);
			expect(overPool).toEqual(await run(false));
			sandbox.faults.clear();
		},
	);

	it('still goes through a proxy set in the environment', async () => {
		const proxy = await startConnectProxy();
		const saved = { HTTPS_PROXY: process.env.HTTPS_PROXY, NO_PROXY: process.env.NO_PROXY };
		process.env.HTTPS_PROXY = proxy.url;
		delete process.env.NO_PROXY;
		try {
			const { result } = await lookups(3, 1);
			expect(result.error).toBeUndefined();
			expect(requestsTo(sandbox, LIST)).toHaveLength(3);
			expect(proxy.tunnels.length).toBeGreaterThanOrEqual(1);
			expect(new Set(proxy.tunnels)).toEqual(new Set([new URL(front.url).host]));
		} finally {
			for (const [name, value] of Object.entries(saved)) {
				if (value === undefined) delete process.env[name];
				else process.env[name] = value;
			}
			await proxy.stop();
		}
	});
});

describe('connections kept alive over plain http to a loopback address', () => {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await startSandbox({ seed: 6, transactionCount: 40 });
	});
	afterAll(async () => {
		closeKeptConnections();
		await sandbox.stop();
	});

	it('sends every sequential request of a run over one connection', async () => {
		closeKeptConnections();
		const ids = (sandbox.state.transactions as TransactionRecord[])
			.slice(0, 20)
			.map((r) => r.transaction_id);
		const result = await runGateway(sandbox, {
			items: ids.map((id) => ({ id })),
			parameters: {
				resource: 'transaction',
				operation: 'getMany',
				limit: 1,
				filters: { transactionId: '={{ $json.id }}' },
			},
		});
		expect(result.error).toBeUndefined();
		const requests = requestsTo(sandbox, LIST);
		expect(requests).toHaveLength(20);
		expect(new Set(requests.map((r) => r.connection)).size).toBe(1);
	});
});
