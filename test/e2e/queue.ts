// n8n in queue mode for the queue suite: main, `n8n webhook` and `n8n worker` processes sharing one
// PostgreSQL database and one Redis (started by scripts/queue-services.sh), binary data in the
// database. Each process has its own user folder with the package linked, like separate hosts.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';

import { N8n } from './n8n';

const ROOT = resolve(__dirname, '../..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A PostgreSQL database and a Redis database of the suite's own: the queue suites run one after
 * another on one PostgreSQL and one Redis, and a suite must not find what an earlier one left
 * (its executions of a workflow of the same id, its published workflows, its claims). Numbered by
 * a counter in Redis's database 0 (n8n's is another).
 */
function suiteDatabases(pg: string, redis: string): { database: string; redisDb: string } {
	const number = Number(
		execFileSync('redis-cli', ['-h', '127.0.0.1', '-p', redis, 'INCR', 'e2e:queue-suites'], {
			encoding: 'utf8',
		}).trim(),
	);
	const database = `n8n_suite_${number}`;
	execFileSync('psql', ['-h', '127.0.0.1', '-p', pg, '-v', 'ON_ERROR_STOP=1'], {
		input: `CREATE DATABASE ${database};`,
		env: { ...process.env, PGUSER: 'postgres', PGDATABASE: 'postgres' },
		stdio: ['pipe', 'ignore', 'pipe'],
	});
	// Redis has databases 0–15; 0 keeps the counter.
	return { database, redisDb: String(((number - 1) % 15) + 1) };
}

/**
 * The environment every process of the cluster shares (n8n reads it at start); called once per
 * suite, before its first process starts.
 */
export function queueEnvironment(): Record<string, string> {
	const pg = process.env.QUEUE_PG_PORT;
	const redis = process.env.QUEUE_REDIS_PORT;
	if (!pg || !redis)
		throw new Error('QUEUE_PG_PORT / QUEUE_REDIS_PORT unset: run through npm run test:queue');
	const { database, redisDb } = suiteDatabases(pg, redis);
	return {
		EXECUTIONS_MODE: 'queue',
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: pg,
		DB_POSTGRESDB_DATABASE: database,
		DB_POSTGRESDB_USER: 'postgres',
		DB_POSTGRESDB_PASSWORD: '',
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: redis,
		QUEUE_BULL_REDIS_DB: redisDb,
		// n8n's default pool is 2 connections: under a burst its database health check then waits
		// behind webhook queries and n8n answers 503 "Database is not ready!".
		DB_POSTGRESDB_POOL_SIZE: '10',
		N8N_DEFAULT_BINARY_DATA_MODE: 'database',
		// Executions started from the editor or API run in workers too.
		OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
	};
}

/** A long-running `n8n webhook` or `n8n worker` process, with what it printed. */
export class ClusterProcess {
	private readonly output: string[] = [];

	private exited = false;

	private constructor(
		readonly n8n: N8n,
		readonly role: 'webhook' | 'worker',
		private readonly child: ChildProcess,
	) {
		const keep = (chunk: Buffer) => {
			this.output.push(chunk.toString());
			if (this.output.length > 4000) this.output.splice(0, 1000);
		};
		child.stdout!.on('data', keep);
		child.stderr!.on('data', keep);
		child.once('exit', () => (this.exited = true));
	}

	/** `n8n`: a user folder made beforehand, when its port must be known first (WEBHOOK_URL). */
	static async start(
		role: 'webhook' | 'worker',
		concurrency = 10,
		n8n?: N8n,
		env: Record<string, string> = {},
	): Promise<ClusterProcess> {
		n8n ??= await N8n.create();
		const args = role === 'worker' ? ['worker', `--concurrency=${concurrency}`] : ['webhook'];
		const child = spawn(
			'bash',
			[
				join(ROOT, 'scripts/node24.sh'),
				'bash',
				join(ROOT, 'scripts/n8n.sh'),
				'run',
				n8n.userFolder,
				String(n8n.port),
				...args,
			],
			{
				detached: true,
				stdio: ['ignore', 'pipe', 'pipe'],
				env: {
					...process.env,
					N8N_LOG_FORMAT: 'json',
					N8N_LOG_LEVEL: 'info',
					N8N_DISABLE_UI: 'true',
					N8N_WATCH_PID: String(process.pid),
					...env,
				},
			},
		);
		const started = new ClusterProcess(n8n, role, child);
		await started.ready();
		return started;
	}

	log(): string {
		return this.output.join('');
	}

	/** Worker: its "ready" line; webhook process: its /healthz (a safety net: minutes when loaded). */
	private async ready(timeoutMs = 600_000): Promise<void> {
		const deadline = Date.now() + timeoutMs;
		while (Date.now() < deadline) {
			if (this.exited)
				throw new Error(`n8n ${this.role} exited early:\n${this.log().slice(-4000)}`);
			if (this.role === 'worker' && this.log().includes('n8n worker is now ready')) return;
			if (this.role === 'webhook' && this.log().includes('Webhook listener waiting for requests')) {
				const status = await fetch(`${this.n8n.baseUrl}/healthz`).then(
					(r) => r.status,
					() => 0,
				);
				if (status === 200) return;
			}
			await sleep(250);
		}
		throw new Error(
			`n8n ${this.role} not ready after ${timeoutMs} ms:\n${this.log().slice(-4000)}`,
		);
	}

	/** SIGKILL to its process group, at once (a crashed host); the user folder stays until stop(). */
	async kill(): Promise<void> {
		const gone = new Promise((done) => this.child.once('exit', done));
		try {
			process.kill(-this.child.pid!, 'SIGKILL');
		} catch {
			return;
		}
		if (!this.exited) await gone;
	}

	/** SIGTERM to its process group, SIGKILL after 15 s; then its user folder goes. */
	async stop(): Promise<void> {
		const pid = this.child.pid!;
		if (!this.exited) {
			const gone = new Promise((done) => {
				this.child.once('exit', done);
				setTimeout(done, 15_000).unref();
			});
			try {
				process.kill(-pid, 'SIGTERM');
			} catch {
				// already gone
			}
			await gone;
		}
		try {
			process.kill(-pid, 'SIGKILL');
		} catch {
			// already gone
		}
		await this.n8n.dispose();
	}
}

/**
 * Stops the suite's Redis (SHUTDOWN SAVE: its data kept, as a production Redis with persistence
 * keeps it) and starts it again on the same port, folder and pid file after `ms`.
 */
export async function pauseRedis(ms: number): Promise<void> {
	const port = process.env.QUEUE_REDIS_PORT!;
	const cli = (...args: string[]) =>
		execFileSync('redis-cli', ['-h', '127.0.0.1', '-p', port, ...args], {
			encoding: 'utf8',
		}).trim();
	const setting = (name: string) => cli('CONFIG', 'GET', name).split('\n')[1] ?? '';
	const [dir, pidfile, logfile] = ['dir', 'pidfile', 'logfile'].map(setting);
	try {
		cli('SHUTDOWN', 'SAVE');
	} catch {
		// redis-cli reports the closed connection
	}
	await sleep(ms);
	const args = [
		'--port',
		port,
		'--bind',
		'127.0.0.1',
		'--save',
		'',
		'--appendonly',
		'no',
		'--dir',
		dir,
		'--daemonize',
		'yes',
		'--pidfile',
		pidfile,
		'--logfile',
		logfile,
	];
	execFileSync('redis-server', args);
	const up = () => {
		try {
			return cli('PING').includes('PONG');
		} catch {
			return false;
		}
	};
	for (let i = 0; i < 50 && !up(); i++) await sleep(100);
}

/** redis-cli's choice of the suite's Redis database (queueEnvironment's), none before it is set. */
const suiteRedisDb = () =>
	process.env.QUEUE_BULL_REDIS_DB ? ['-n', process.env.QUEUE_BULL_REDIS_DB] : [];

/** One command to the suite's Redis, its answer as redis-cli prints it. */
export function redisCommand(...args: string[]): string {
	return execFileSync(
		'redis-cli',
		['-h', '127.0.0.1', '-p', process.env.QUEUE_REDIS_PORT!, ...suiteRedisDb(), ...args],
		{
			encoding: 'utf8',
		},
	).trim();
}

/** How many keys of the suite's Redis match `pattern` (SCAN). */
export function redisKeyCount(pattern: string): number {
	const out = execFileSync(
		'redis-cli',
		[
			'-h',
			'127.0.0.1',
			'-p',
			process.env.QUEUE_REDIS_PORT!,
			...suiteRedisDb(),
			'--scan',
			'--pattern',
			pattern,
		],
		{ encoding: 'utf8' },
	);
	return out.split('\n').filter((line) => line.trim() !== '').length;
}

/** One SQL statement on the suite's PostgreSQL database, its rows as psql prints them unaligned. */
export function pgQuery(sql: string): string {
	return execFileSync(
		'psql',
		['-At', '-v', 'ON_ERROR_STOP=1', '-h', '127.0.0.1', '-p', process.env.QUEUE_PG_PORT!],
		{
			encoding: 'utf8',
			input: sql,
			env: {
				...process.env,
				PGUSER: 'postgres',
				PGDATABASE: process.env.DB_POSTGRESDB_DATABASE ?? 'n8n',
			},
		},
	).trim();
}
