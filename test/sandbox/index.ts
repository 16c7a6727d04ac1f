import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { authenticate } from './core/auth';
import { DEFAULT_FAIL_BODY, FaultInjector, type Fault } from './core/faults';
import { badRequest, generalError, json, notFound, writeReply, type Reply } from './core/http';
import { createKeys, type SandboxKeys } from './core/keys';
import type { RequestLogEntry } from './core/log';
import { PAYOUT_PREFIX, Router, type RouteEnv, type RouteModule } from './core/router';
import { CHECKOUT_PREFIX, registerCheckoutRoutes } from './areas/checkout/routes';
import { CONTROL_PREFIX, registerControlRoutes } from './areas/control/routes';
import { registerPageRoutes } from './areas/control/pages';
import { registerDocumentRoutes } from './areas/documents/routes';
import { registerInvoiceRoutes } from './areas/invoiceItems/routes';
import { registerOrderRoutes } from './areas/orders/routes';
import { registerPaymentLinkRoutes } from './areas/paymentLinks/routes';
import { registerPayoutRoutes } from './areas/payouts/routes';
import { registerPosRoutes } from './areas/transactions/pos.routes';
import { registerSubscriptionRoutes } from './areas/subscriptions/routes';
import { seedInvoiceItem } from './areas/invoiceItems/model';
import { SandboxState } from './core/state';
import { WebhookDeliverer, type SandboxWebhooks } from './areas/webhooks/delivery';

export type { Fault, FaultKind } from './core/faults';
export { FaultInjector } from './core/faults';
export type { SandboxKeys, MerchantKeyPair, MerchantChannel, KeyChannel } from './core/keys';
export type { RequestLogEntry } from './core/log';
export { parseMultipart, type MultipartPart } from './core/multipart';
export { generateTransactions, mulberry32 } from './core/generate';
export { HttpError } from './core/http';
export { ORDER_CHANNELS } from './areas/orders/model';
export { validateCreate } from './areas/orders/request';
export {
	TEST_CARDS,
	THREE_DS_CODE,
	cardInfo,
	type CompleteOutcome,
	type CompleteResult,
} from './areas/payments/model';
export { MAX_DOCUMENT_BYTES } from './areas/documents/routes';
export {
	MAX_PAYOUT_FILE_BYTES,
	MAX_PAYOUT_ROWS,
	PAYMENT_MODES,
	PAYOUT_HEADERS,
	DEFAULT_REASONS,
	PAYOUT_OUTCOMES,
	payoutChecksum,
	payoutUtr,
	validatePayoutRows,
	type PayoutBatch,
	type PayoutCallbackAttempt,
	type PayoutColumn,
	type PayoutOutcome,
	type PayoutResultEntry,
	type PayoutRowResult,
	type PayoutStatus,
	type PayoutRow,
	type PayoutRowError,
} from './areas/payouts/model';
export * from './core/state';
export * from './areas/transactions/model';
export type { WebhookAddress, WebhookPayload } from './areas/webhooks/model';
export {
	WEBHOOK_RETRY_DELAYS_MS,
	isLoopbackHost,
	webhookRefusal,
	type DeliverOptions,
	type SandboxWebhooks,
} from './areas/webhooks/delivery';

export interface SandboxOptions {
	/** 0 = random free port (default). */
	port?: number;
	/** Default 127.0.0.1. */
	host?: string;
	/** PRNG seed of the generated data; default 1. */
	seed?: number;
	/** Generated transactions; default 250. */
	transactionCount?: number;
	/** Payout bearer token lifetime; default 3600. */
	tokenLifetimeSeconds?: number;
	/** Added to every service request (see Sandbox.latencyMs); default 0. */
	latencyMs?: number;
	/** Active invoice items created at start (names "Seeded item N"); default 0. */
	invoiceItemCount?: number;
}

export interface Sandbox {
	baseUrl: string;
	checkoutUrl: string;
	payoutUrl: string;
	keys: SandboxKeys;
	state: SandboxState;
	faults: FaultInjector;
	/** Every service request received (not the /__sandbox/ controls), oldest first. */
	requests: RequestLogEntry[];
	/** Also resets the in-flight peak. */
	clearRequests(): void;
	/** Added to every service request before it is answered (network and service latency). */
	latencyMs: number;
	/** Service requests being answered now, and the most at once since clearRequests(). */
	traffic: { inFlight: number; peak: number };
	/** Webhook delivery: idle(), deliverPending(), redeliver(), attempts. */
	webhooks: SandboxWebhooks;
	/** Also cancels webhook retries and aborts deliveries in flight. */
	stop(): Promise<void>;
}

const ROUTE_MODULES: RouteModule[] = [
	registerOrderRoutes,
	registerDocumentRoutes,
	registerCheckoutRoutes,
	registerPosRoutes,
	registerInvoiceRoutes,
	registerPaymentLinkRoutes,
	registerSubscriptionRoutes,
	registerPayoutRoutes,
	registerControlRoutes,
	registerPageRoutes,
];

/** Starts the in-memory simulator. Plain HTTP: the service's HTTPS rule is not simulated. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
	const state = new SandboxState({
		seed: options.seed ?? 1,
		transactionCount: options.transactionCount ?? 250,
		tokenLifetimeSeconds: options.tokenLifetimeSeconds ?? 3600,
	});
	for (let n = 1; n <= (options.invoiceItemCount ?? 0); n++) seedInvoiceItem(state, n);
	const keys = createKeys();
	const deliverer = new WebhookDeliverer(state, keys);
	state.onEvent = (event) => deliverer.onEvent(event);
	const env: RouteEnv = {
		state,
		keys,
		faults: new FaultInjector(),
		requests: [],
		webhooks: deliverer,
	};
	const router = new Router();
	for (const register of ROUTE_MODULES) register(router, env);
	const traffic = { inFlight: 0, peak: 0 };
	// Timers of requests held by "timeout" faults, cleared on stop.
	const held = new Set<NodeJS.Timeout>();

	const server = createServer((req, res) => {
		handle(req, res).catch((error: Error) => {
			if (res.headersSent) res.destroy();
			else writeReply(res, generalError(500, '500', `Sandbox error: ${error.message}`));
		});
	});

	async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		const time = Date.now();
		const body = await readBody(req);
		const method = req.method ?? 'GET';
		const [path, search = ''] = (req.url ?? '/').split(/\?(.*)/s, 2);
		const query = Object.fromEntries(new URLSearchParams(search));
		const headers: Record<string, string> = {};
		for (const [name, value] of Object.entries(req.headers)) {
			if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
		}

		let fault: Fault | undefined;
		if (!path.startsWith(CONTROL_PREFIX)) {
			env.requests.push({
				method,
				path,
				query,
				headers,
				body,
				time,
				connection: req.socket.remotePort ?? 0,
			});
			traffic.inFlight++;
			traffic.peak = Math.max(traffic.peak, traffic.inFlight);
			res.on('close', () => traffic.inFlight--);
			if (sandbox.latencyMs > 0) await new Promise((done) => setTimeout(done, sandbox.latencyMs));
			// Faults hit before routing and authentication, like a proxy or overloaded server would.
			fault = env.faults.take(path);
			if (fault?.kind === 'applyLate') {
				req.socket.destroy();
				await new Promise((done) => setTimeout(done, fault?.delayMs ?? 5000));
			} else if (fault && fault.kind !== 'dropAnswer') return applyFault(fault, req, res, headers);
		}

		// "Act, then drop the answer": the route runs, the client never hears back (applyLate: it
		// heard nothing long ago).
		const answer = (reply: Reply) =>
			fault?.kind === 'dropAnswer' || fault?.kind === 'applyLate'
				? req.socket.destroy()
				: writeReply(res, reply);
		const match = router.match(method, path);
		if (!match) return void answer(notFound());
		const denied = authenticate(match.route.auth, headers, env);
		if (denied) return void answer(denied);
		let parsed: unknown;
		if (match.route.body === 'json' && body.length > 0) {
			try {
				parsed = JSON.parse(body.toString('utf8'));
			} catch {
				return void answer(badRequest('Malformed JSON body'));
			}
		}
		const reply = await match.route.handler({
			method,
			path,
			params: match.params,
			query,
			headers,
			body,
			json: parsed,
		});
		answer(reply);
	}

	function applyFault(
		fault: Fault,
		req: IncomingMessage,
		res: ServerResponse,
		headers: Record<string, string>,
	): void {
		const replies: Partial<Record<Fault['kind'], () => Reply>> = {
			status429: () => ({
				...generalError(429, '429', 'Too many requests'),
				headers: { 'retry-after': String(fault.retryAfter ?? 1) },
			}),
			status500: () => generalError(500, '500', 'Internal server error'),
			html502: () => ({ status: 502, text: BAD_GATEWAY_PAGE, contentType: 'text/html' }),
			bodyFail: () => json(200, fault.body ?? DEFAULT_FAIL_BODY),
			redirect: () => ({ status: 302, text: '', headers: { location: fault.location ?? '/' } }),
			echoSecrets: () => echoSecrets(fault.status ?? 500, headers),
		};
		const reply = replies[fault.kind];
		if (reply) return writeReply(res, reply());
		if (fault.kind === 'reset') {
			req.socket.destroy();
			return;
		}
		// timeout: never answer; drop the connection after the delay.
		const timer = setTimeout(() => {
			held.delete(timer);
			req.socket.destroy();
		}, fault.delayMs ?? 60_000);
		held.add(timer);
		res.on('close', () => {
			clearTimeout(timer);
			held.delete(timer);
		});
	}

	const host = options.host ?? '127.0.0.1';
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject);
		server.listen(options.port ?? 0, host, () => {
			server.off('error', reject);
			resolve();
		});
	});
	const { port } = server.address() as AddressInfo;
	// A wildcard address is reached through loopback; IPv6 literals need brackets in URLs.
	const urlHost =
		host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
	const baseUrl = `http://${urlHost}:${port}`;
	env.state.attach(`${baseUrl}${CHECKOUT_PREFIX}`);

	const sandbox: Sandbox = {
		baseUrl,
		checkoutUrl: env.state.checkoutUrl,
		payoutUrl: `${baseUrl}${PAYOUT_PREFIX}`,
		keys: env.keys,
		state: env.state,
		faults: env.faults,
		requests: env.requests,
		clearRequests: () => {
			env.requests.length = 0;
			traffic.peak = traffic.inFlight;
		},
		latencyMs: options.latencyMs ?? 0,
		traffic,
		webhooks: deliverer.api(),
		stop: async () => {
			await deliverer.stop();
			await state.payoutCallbacks.stop();
			await new Promise<void>((resolve, reject) => {
				for (const timer of held) clearTimeout(timer);
				held.clear();
				server.close((error) => (error ? reject(error) : resolve()));
				server.closeAllConnections();
			});
		},
	};
	return sandbox;
}

/** What a careless upstream answers: the credentials it received, in the message and the body. */
function echoSecrets(status: number, headers: Record<string, string>): Reply {
	const echoed = ['merchant-key', 'merchant-secret', 'authorization']
		.filter((name) => headers[name] !== undefined)
		.map((name) => `${name}=${headers[name]}`)
		.join(' ');
	return json(status, {
		status: 'fail',
		code: String(status),
		message: `Rejected request (${echoed})`,
		request: { headers },
	});
}

function readBody(req: IncomingMessage): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => resolve(Buffer.concat(chunks)));
		req.on('error', reject);
	});
}

// What a reverse proxy in front of the service answers when the upstream is down.
const BAD_GATEWAY_PAGE = [
	'<html>',
	'<head><title>502 Bad Gateway</title></head>',
	'<body>',
	'<center><h1>502 Bad Gateway</h1></center>',
	'<hr><center>nginx</center>',
	'</body>',
	'</html>',
	'',
].join('\r\n');
