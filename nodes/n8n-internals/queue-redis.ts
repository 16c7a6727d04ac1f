/**
 * Capability "queue Redis": n8n's parsed configuration (@n8n/di + @n8n/config GlobalConfig:
 * EXECUTIONS_MODE, QUEUE_BULL_REDIS_*, N8N_REDIS_KEY_PREFIX, `_FILE` secrets already read) and the
 * ioredis n8n itself connects with. Why ioredis and not a RESP client of our own: docs/trigger.md.
 */
import { sleep } from 'n8n-workflow';

import { absent, asFault, changed, found, isAbsent, loadModule, type Capability } from './load';

export const QUEUE_REDIS = 'queue Redis (n8n settings + ioredis)';

/** Lua scripts on n8n's Redis, under n8n's key prefix. */
export interface QueueRedis {
	/** `N8N_REDIS_KEY_PREFIX`, as a hash tag in cluster mode (every key of a script in one slot). */
	prefix: string;
	/** Bull's key prefix (`QUEUE_BULL_PREFIX`), as n8n's queue writes its jobs under it. */
	bullPrefix: string;
	/** Waits for the connection (first use, or after Redis came back), at most 2 s, else rejects. */
	ready(): Promise<void>;
	/** EVAL, failing at once while Redis is not connected. */
	eval(script: string, keys: number, ...args: Array<string | number>): Promise<unknown>;
}

const COMMAND_TIMEOUT_MS = 2000;

interface RedisClient {
	status: string;
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
	dualStack?: boolean;
}
interface N8nConfig {
	executions: { mode: string };
	redis: { prefix: string };
	queue: { bull: { prefix: string; redis: RedisSettings } };
}

/**
 * n8n's GlobalConfig, undefined outside n8n (no @n8n/di or @n8n/config to load); without them,
 * rejects naming `capability`.
 */
export async function n8nConfig<C = Partial<N8nConfig>>(
	capability = QUEUE_REDIS,
): Promise<C | undefined> {
	const di = await loadModule('@n8n/di', async () => await import('@n8n/di'));
	const config = await loadModule('@n8n/config', async () => await import('@n8n/config'));
	if (isAbsent(di) || isAbsent(config)) return undefined;
	if (typeof di.Container?.get !== 'function' || !config.GlobalConfig)
		return await changed(capability, '@n8n/di Container or @n8n/config GlobalConfig missing');
	return di.Container.get(config.GlobalConfig) as C;
}

/**
 * The settings n8n connects its queue with, checked field by field: those every supported release
 * has (1.123 to 2.41), the TLS details when TLS is on; `dualStack` may be missing (older releases).
 */
async function redisSettings(config: Partial<N8nConfig>): Promise<RedisSettings> {
	const settings = (config.queue?.bull?.redis ?? {}) as Partial<RedisSettings>;
	const shape: Array<[keyof RedisSettings, string]> = [
		['host', 'string'],
		['port', 'number'],
		['db', 'number'],
		['username', 'string'],
		['password', 'string'],
		['tls', 'boolean'],
		['clusterNodes', 'string'],
	];
	if (settings.tls === true) shape.push(['tlsConfig', 'object']);
	const wrong = shape
		.filter(([field, type]) => typeof settings[field] !== type)
		.map(([field]) => `queue.bull.redis.${field}`);
	if (typeof config.redis?.prefix !== 'string') wrong.push('redis.prefix');
	if (typeof config.queue?.bull?.prefix !== 'string') wrong.push('queue.bull.prefix');
	if (wrong.length > 0)
		await changed(QUEUE_REDIS, `settings missing or renamed: ${wrong.join(', ')}`);
	return settings as RedisSettings;
}

let probed: Promise<Capability<QueueRedis>> | undefined;

/**
 * n8n's Redis in queue mode. Absent in regular mode or outside n8n; a changed n8n rejects with the
 * capability named (the trigger then answers 503, never runs unchecked). Connects once per process.
 */
export async function queueRedis(): Promise<Capability<QueueRedis>> {
	probed ??= probe().catch(async (error: unknown) => {
		probed = undefined;
		return await Promise.reject(error);
	});
	return await probed;
}

async function probe(): Promise<Capability<QueueRedis>> {
	const config = await n8nConfig();
	if (!config) return absent('not inside n8n');
	const mode = config.executions?.mode;
	if (typeof mode !== 'string') return await changed(QUEUE_REDIS, 'executions.mode missing');
	if (mode !== 'queue') return absent(`${mode} mode`);
	const settings = await redisSettings(config);
	// n8n's own dependency, resolved from n8n's install at run time; not installed for development.
	// eslint-disable-next-line import-x/no-unresolved
	const ioredis = await loadModule('ioredis', async () => await import('ioredis'));
	const Redis = (isAbsent(ioredis) ? undefined : ioredis.default) as RedisConstructor | undefined;
	if (typeof Redis !== 'function' || typeof Redis.Cluster !== 'function')
		return await changed(QUEUE_REDIS, 'ioredis (n8n connects its queue with it) not found');
	const { redis, queue } = config as N8nConfig;
	return found(connect(Redis, settings, redis.prefix, queue.bull.prefix));
}

function connect(
	Redis: RedisConstructor,
	settings: RedisSettings,
	keyPrefix: string,
	bullPrefix: string,
): QueueRedis {
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
	// Connected on first use: a process that never receives a delivery opens no connection.
	let client: RedisClient | undefined;
	const open = () =>
		nodes.length > 0
			? new Redis.Cluster(nodes, {
					redisOptions: options,
					enableOfflineQueue: false,
					clusterRetryStrategy: () => 1000,
				})
			: new Redis({ ...options, host: settings.host, port: settings.port });
	const connected = () => {
		if (client) return client;
		client = open();
		// Errors surface on the commands; an unhandled 'error' event would end the process.
		client.on('error', () => undefined);
		return client;
	};
	// As n8n's RedisClientService.toValidPrefix: a hash tag in cluster mode.
	const tagged = (name: string) => (nodes.length > 0 ? `{${name.replace(/^\{|\}$/g, '')}}` : name);
	return {
		prefix: tagged(keyPrefix || 'n8n'),
		bullPrefix: tagged(bullPrefix || 'bull'),
		ready: async () => await asFault(QUEUE_REDIS, async () => await ready(connected())),
		eval: async (script, keys, ...args) =>
			await asFault(QUEUE_REDIS, async () => await connected().eval(script, keys, ...args)),
	};
}

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
