/**
 * The shared claim's connection to Redis: the only module of the package that reaches outside
 * n8n-workflow for it. It loads, from the running n8n's own install, n8n's parsed configuration
 * (@n8n/di + @n8n/config: EXECUTIONS_MODE, QUEUE_BULL_REDIS_*, N8N_REDIS_KEY_PREFIX, with n8n's
 * `_FILE` secrets already read) and the ioredis client n8n itself uses. Why ioredis and not our
 * own RESP client: docs/trigger.md.
 */
import { createHash } from 'node:crypto';

import { sleep } from 'n8n-workflow';

/** What a key held when a set-if-absent found it taken. */
export type Holder = 'done' | 'pending';

export interface ClaimStore {
	/** SET key pending:token NX PX ttl: true when this call took the key, else who holds it. */
	claim(key: string, token: string, ttlMs: number): Promise<true | Holder>;
	/** Extends a pending claim still held by `token`. */
	renew(key: string, token: string, ttlMs: number): Promise<boolean>;
	/** Turns a pending claim held by `token` into `done`, kept for `keepMs`. */
	confirm(key: string, token: string, keepMs: number): Promise<boolean>;
	/** Deletes a pending claim held by `token`. */
	release(key: string, token: string): Promise<void>;
	/** The Redis key of a delivery key, under n8n's prefix (a hash tag in cluster mode). */
	keyFor(scope: string, deliveryKey: string): string;
}

const COMMAND_TIMEOUT_MS = 2000;
const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end`;
const CONFIRM = `if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('SET', KEYS[1], 'done', 'PX', ARGV[2]) return 1 else return 0 end`;
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

interface RedisClient {
	status: string;
	set(...args: Array<string | number>): Promise<string | null>;
	get(key: string): Promise<string | null>;
	eval(script: string, keys: number, ...args: Array<string | number>): Promise<unknown>;
	once(event: string, listener: (...args: unknown[]) => void): unknown;
	on(event: string, listener: (...args: unknown[]) => void): unknown;
	removeListener(event: string, listener: (...args: unknown[]) => void): unknown;
}
type RedisConstructor = (new (options: object) => RedisClient) & {
	Cluster: new (nodes: Array<{ host: string; port: number }>, options: object) => RedisClient;
};
interface RedisSettings {
	host: string;
	port: number;
	db: number;
	username: string;
	password: string;
	tls: boolean;
	tlsConfig: { serverName: string; rejectUnauthorized: boolean };
	clusterNodes: string;
	dualStack: boolean;
}
interface N8nConfig {
	executions: { mode: string };
	redis: { prefix: string };
	queue: { bull: { redis: RedisSettings } };
}

let store: Promise<ClaimStore | undefined> | undefined;

/**
 * The shared store in queue mode, undefined in regular mode (or outside n8n). In queue mode a
 * failure to load or connect rejects: the caller answers with an error, never runs unchecked.
 */
export async function sharedClaimStore(): Promise<ClaimStore | undefined> {
	store ??= open().catch((error: unknown) => {
		store = undefined;
		throw error;
	});
	return await store;
}

async function n8nConfig(): Promise<N8nConfig | undefined> {
	try {
		const [{ Container }, { GlobalConfig }] = await Promise.all([
			import('@n8n/di'),
			import('@n8n/config'),
		]);
		return (Container as { get(token: unknown): unknown }).get(GlobalConfig) as N8nConfig;
	} catch {
		return undefined;
	}
}

async function open(): Promise<ClaimStore | undefined> {
	const config = await n8nConfig();
	if (config?.executions.mode !== 'queue') return undefined;
	// n8n's own dependency, resolved from n8n's install at run time; not installed for development.
	// eslint-disable-next-line import-x/no-unresolved
	const Redis = ((await import('ioredis')) as unknown as { default: RedisConstructor }).default;
	const settings = config.queue.bull.redis;
	const nodes = settings.clusterNodes
		.split(',')
		.filter((pair) => pair.trim() !== '')
		.map((pair) => ({ host: pair.split(':')[0], port: Number(pair.split(':')[1]) }));
	// As n8n's RedisClientService builds its clients, but failing fast: no offline queue, a
	// command time-out, and reconnecting every second without ever exiting the process.
	const options = {
		username: settings.username || undefined,
		password: settings.password || undefined,
		db: settings.db,
		enableReadyCheck: false,
		enableOfflineQueue: false,
		maxRetriesPerRequest: 0,
		commandTimeout: COMMAND_TIMEOUT_MS,
		retryStrategy: () => 1000,
		...(settings.dualStack ? { family: 0 } : {}),
		...(settings.tls
			? {
					tls: {
						servername: settings.tlsConfig.serverName || undefined,
						rejectUnauthorized: settings.tlsConfig.rejectUnauthorized,
					},
				}
			: {}),
	};
	const client =
		nodes.length > 0
			? new Redis.Cluster(nodes, {
					redisOptions: options,
					enableOfflineQueue: false,
					clusterRetryStrategy: () => 1000,
				})
			: new Redis({ ...options, host: settings.host, port: settings.port });
	// Errors surface on the commands; an unhandled 'error' event would end the process.
	client.on('error', () => undefined);
	let prefix = config.redis.prefix || 'n8n';
	if (nodes.length > 0) prefix = `{${prefix.replace(/^\{|\}$/g, '')}}`;
	return commands(client, `${prefix}:payment-gateway-trigger`);
}

/** Waits for the connection (first use, or after Redis came back), at most the command time-out. */
async function ready(client: RedisClient): Promise<void> {
	if (client.status === 'ready') return;
	let connected = false;
	let onReady = () => undefined as void;
	await Promise.race([
		new Promise<void>((resolve) => {
			onReady = () => {
				connected = true;
				resolve();
			};
			client.once('ready', onReady);
		}),
		sleep(COMMAND_TIMEOUT_MS),
	]);
	client.removeListener('ready', onReady);
	if (!connected) throw new Error(`Redis not reachable (${client.status})`);
}

function commands(client: RedisClient, prefix: string): ClaimStore {
	return {
		async claim(key, token, ttlMs) {
			await ready(client);
			if ((await client.set(key, `pending:${token}`, 'PX', ttlMs, 'NX')) === 'OK') return true;
			return (await client.get(key)) === 'done' ? 'done' : 'pending';
		},
		async renew(key, token, ttlMs) {
			return (await client.eval(RENEW, 1, key, `pending:${token}`, ttlMs)) === 1;
		},
		async confirm(key, token, keepMs) {
			return (await client.eval(CONFIRM, 1, key, `pending:${token}`, keepMs)) === 1;
		},
		async release(key, token) {
			await client.eval(RELEASE, 1, key, `pending:${token}`);
		},
		keyFor(scope, deliveryKey) {
			return `${prefix}:${createHash('sha256').update(`${scope}\u0000${deliveryKey}`).digest('hex')}`;
		},
	};
}
