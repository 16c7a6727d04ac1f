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

/**
 * A claim taken: `orphanSince` is set when an earlier claim of the key was never settled (its
 * process died before n8n's answer), with the time that claim was first taken.
 */
export interface Taken {
	orphanSince?: number;
}

export interface ClaimStore {
	/**
	 * SET key pending:token NX PX ttl, and a mark `<key>:since` kept for `keepMs` that only settling
	 * removes: the claim taken, else who holds the key.
	 */
	claim(
		key: string,
		token: string,
		ttlMs: number,
		keepMs: number,
		now: number,
	): Promise<Taken | Holder>;
	/** Extends a pending claim still held by `token`. */
	renew(key: string, token: string, ttlMs: number): Promise<boolean>;
	/** Turns a pending claim held by `token` into `done`, kept for `keepMs`; removes the mark. */
	confirm(key: string, token: string, keepMs: number): Promise<boolean>;
	/** Deletes a pending claim held by `token`, and the mark unless `keepMark`. */
	release(key: string, token: string, keepMark?: boolean): Promise<void>;
	/** The Redis key of a delivery key, under n8n's prefix (a hash tag in cluster mode). */
	keyFor(scope: string, deliveryKey: string): string;
}

const COMMAND_TIMEOUT_MS = 2000;
// KEYS[1] the claim, KEYS[2] its mark; the mark keeps the first claim's time until settled.
const CLAIM = `local held = redis.call('GET', KEYS[1])
if held then if held == 'done' then return 'done' else return 'pending' end end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
local since = redis.call('GET', KEYS[2])
if since then redis.call('PEXPIRE', KEYS[2], ARGV[3]) return 'orphan:' .. since end
redis.call('SET', KEYS[2], ARGV[4], 'PX', ARGV[3])
return 'taken'`;
const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end`;
const CONFIRM = `if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('SET', KEYS[1], 'done', 'PX', ARGV[2]) redis.call('DEL', KEYS[2]) return 1 else return 0 end`;
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then if ARGV[2] == '0' then redis.call('DEL', KEYS[2]) end return redis.call('DEL', KEYS[1]) else return 0 end`;
const mark = (key: string) => `${key}:since`;

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
		async claim(key, token, ttlMs, keepMs, now) {
			await ready(client);
			const held = String(
				await client.eval(CLAIM, 2, key, mark(key), `pending:${token}`, ttlMs, keepMs, now),
			);
			if (held === 'done' || held === 'pending') return held;
			return held.startsWith('orphan:') ? { orphanSince: Number(held.slice(7)) } : {};
		},
		async renew(key, token, ttlMs) {
			return (await client.eval(RENEW, 1, key, `pending:${token}`, ttlMs)) === 1;
		},
		async confirm(key, token, keepMs) {
			return (await client.eval(CONFIRM, 2, key, mark(key), `pending:${token}`, keepMs)) === 1;
		},
		async release(key, token, keepMark = false) {
			await client.eval(RELEASE, 2, key, mark(key), `pending:${token}`, keepMark ? '1' : '0');
		},
		keyFor(scope, deliveryKey) {
			return `${prefix}:${createHash('sha256').update(`${scope}\u0000${deliveryKey}`).digest('hex')}`;
		},
	};
}
