// The trigger's figures: deliveries to Payment Gateway Trigger → No Operation against the same
// deliveries to n8n's own Webhook node (responding on receipt) → No Operation, in real n8n, regular
// mode (one process, SQLite) and queue mode (main + one `n8n webhook` process + two workers,
// PostgreSQL and Redis), one at a time and 20 at a time. A third contender, n8n's Webhook node with
// Header Auth on the same header, shows what n8n itself adds for a webhook that reads a credential.
// The contenders alternate within each round; each delivery is a distinct payment event, so every
// one of them starts an execution.
import { randomUUID } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';

import { deliveries, post } from '../test/e2e/burst';
import { N8n, TRIGGER_TYPE, type WorkflowJson } from '../test/e2e/n8n';
import { ClusterProcess, queueEnvironment } from '../test/e2e/queue';
import type { Figure } from './figure';
import { atMost, type Row } from './stats';

const ROOT = resolve(__dirname, '..');
const SECRET = `bench-${randomUUID()}`;
const CREDENTIAL = { id: 'benchWebhookCred1', name: 'Bench Webhook' };
const HEADER_AUTH = { id: 'benchHeaderAuth1', name: 'Bench Header Auth' };
const STARTED = '{"message":"Workflow was started"}';
const CONCURRENCY = 20;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface TriggerSizes {
	/** Deliveries sent one at a time, and sent 20 at a time, per contender and round. */
	triggerOne: number;
	triggerBurst: number;
}

type Side = 'trigger' | 'webhook' | 'webhookAuth';
type Target = Record<Side, string> & { dispose(): Promise<void> };

const chain = (from: string, to: string) => ({ [from]: { main: [[{ node: to, type: 'main', index: 0 }]] } });
const noOp = { id: randomUUID(), name: 'No Operation', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [220, 0], parameters: {} };

function workflows(triggerHook: string, webhookPath: string): WorkflowJson[] {
	const trigger = {
		id: randomUUID(),
		name: 'Payment Gateway Trigger',
		type: TRIGGER_TYPE,
		typeVersion: 1,
		position: [0, 0],
		webhookId: triggerHook,
		parameters: { events: ['*'] },
		credentials: { paymentGatewayWebhookApi: CREDENTIAL },
	};
	const webhook = {
		id: randomUUID(),
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 0],
		webhookId: randomUUID(),
		parameters: { httpMethod: 'POST', path: webhookPath, responseMode: 'onReceived', options: {} },
	};
	const webhookAuth = {
		...webhook,
		id: randomUUID(),
		webhookId: randomUUID(),
		parameters: { ...webhook.parameters, path: `${webhookPath}-auth`, authentication: 'headerAuth' },
		credentials: { httpHeaderAuth: HEADER_AUTH },
	};
	const base = { active: false, settings: { executionOrder: 'v1' } };
	return [
		{ ...base, id: 'benchWebhookAuthSpeed', name: 'Bench webhook with header auth', nodes: [webhookAuth, { ...noOp, id: randomUUID() }], connections: chain(webhook.name, noOp.name) },
		{ ...base, id: 'benchTriggerSpeed', name: 'Bench trigger', nodes: [trigger, noOp], connections: chain(trigger.name, noOp.name) },
		{ ...base, id: 'benchWebhookSpeed', name: 'Bench webhook', nodes: [webhook, { ...noOp, id: randomUUID() }], connections: chain(webhook.name, noOp.name) },
	];
}

/** Sets `env` for the n8n CLI processes `run` spawns (they spawn synchronously, before any await). */
async function withEnv<T>(env: Record<string, string>, run: () => Promise<T>): Promise<T> {
	const saved = { ...process.env };
	Object.assign(process.env, env);
	const promise = run();
	for (const name of Object.keys(env)) {
		if (saved[name] === undefined) delete process.env[name];
		else process.env[name] = saved[name];
	}
	return await promise;
}

async function setUp(n8n: N8n, env: Record<string, string>): Promise<Record<Side, string>> {
	const hook = randomUUID();
	const path = `bench-webhook-${hook.slice(0, 8)}`;
	await withEnv(env, () =>
		n8n.importCredentials([
			{ ...CREDENTIAL, type: 'paymentGatewayWebhookApi', data: { notificationSecret: SECRET } },
			{ ...HEADER_AUTH, type: 'httpHeaderAuth', data: { name: 'notification-secret', value: SECRET } },
		]),
	);
	for (const workflow of workflows(hook, path)) {
		await withEnv(env, () => n8n.importWorkflow(workflow));
		await withEnv(env, () => n8n.publish(workflow.id));
	}
	return { trigger: `${hook}/payment-gateway`, webhook: path, webhookAuth: `${path}-auth` };
}

/** Waits until both URLs are registered (a wrong secret starts nothing; the webhook probe starts one execution). */
async function registered(target: Target): Promise<Target> {
	const deadline = Date.now() + 120_000;
	for (const [url, secret] of [[target.trigger, 'probe'], [target.webhook, SECRET], [target.webhookAuth, SECRET]]) {
		while ((await post(url, secret, { probe: true }).catch(() => ({ status: 0 }))).status === 404) {
			if (Date.now() > deadline) throw new Error(`not registered: ${url}`);
			await sleep(250);
		}
	}
	return target;
}

/** BENCH_CPU_PROF=<folder>: the process receiving the deliveries writes a CPU profile there when it stops. */
const profiled = (): Record<string, string> =>
	process.env.BENCH_CPU_PROF ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${resolve(process.env.BENCH_CPU_PROF)}` } : {};

async function regularMode(): Promise<Target> {
	const n8n = await N8n.create();
	const paths = await setUp(n8n, {});
	await withEnv(profiled(), () => n8n.start());
	const url = (path: string) => `${n8n.baseUrl}/webhook/${path}`;
	return await registered({ trigger: url(paths.trigger), webhook: url(paths.webhook), webhookAuth: url(paths.webhookAuth), dispose: () => n8n.dispose() });
}

/** Throw-away PostgreSQL and Redis (scripts/queue-services.sh), main, one webhook process, two workers. */
async function queueMode(): Promise<Target> {
	const services = mkdtempSync(join(process.env.TMPDIR ?? tmpdir(), 'n8n-bench-services-'));
	const script = join(ROOT, 'scripts/queue-services.sh');
	const started = spawnSync('bash', [script, 'start', services], { encoding: 'utf8' });
	if (started.status !== 0) throw new Error(`queue services (redis-server, postgresql): ${started.stderr}`);
	for (const [, name, value] of started.stdout.matchAll(/(QUEUE_\w+)=(\d+)/g)) process.env[name] = value;
	const env = queueEnvironment();
	const processes: ClusterProcess[] = [];
	const main = await N8n.create();
	const dispose = async () => {
		await Promise.all(processes.map(async (p) => await p.stop()));
		await main.dispose();
		spawnSync('bash', [script, 'stop', services]);
	};
	try {
		const paths = await setUp(main, env);
		await withEnv(env, () => main.start());
		processes.push(await ClusterProcess.start('webhook', 10, await N8n.create(), { ...env, ...profiled() }));
		for (let i = 0; i < 2; i++) processes.push(await ClusterProcess.start('worker', 10, await N8n.create(), env));
		const url = (path: string) => `${processes[0].n8n.baseUrl}/webhook/${path}`;
		return await registered({ trigger: url(paths.trigger), webhook: url(paths.webhook), webhookAuth: url(paths.webhookAuth), dispose });
	} catch (error) {
		await dispose();
		throw error;
	}
}

let nextId = 9_000_000;

const retried: Record<string, number> = {};

/**
 * Sends `count` distinct deliveries, `concurrency` in flight; ms per delivery. An error answer (a
 * busy machine: n8n's "Database is not ready", the trigger's 503) is delivered again after 1 s, as
 * the service retries, and counted; every final answer must say the workflow started.
 */
async function load(url: string, count: number, concurrency: number, tally: string): Promise<number> {
	const list = deliveries(nextId, count);
	nextId += count;
	let next = 0;
	const wrong: string[] = [];
	const deliver = async (payload: unknown) => {
		for (let attempt = 1; ; attempt++) {
			const answer = await post(url, SECRET, payload).catch((error: Error) => ({ status: 599, body: error.message }));
			if (answer.status < 500 || attempt === 4) return answer;
			retried[tally] = (retried[tally] ?? 0) + 1;
			await sleep(1000);
		}
	};
	const started = performance.now();
	const worker = async () => {
		while (next < list.length) {
			const answer = await deliver(list[next++].payload);
			if (answer.status !== 200 || answer.body !== STARTED) wrong.push(`${answer.status} ${answer.body.slice(0, 200)}`);
		}
	};
	await Promise.all(Array.from({ length: concurrency }, worker));
	const ms = performance.now() - started;
	if (wrong.length) throw new Error(`${url}: ${wrong.length} of ${count} answers not "Workflow was started", e.g. ${wrong[0]}`);
	return ms / count;
}

type Mode = 'regular' | 'queue';
/** BENCH_TRIGGER_MODES=regular (or queue): one mode only, e.g. while profiling. */
const MODES = (process.env.BENCH_TRIGGER_MODES ?? 'regular,queue').split(',') as Mode[];
type Load = 'one' | 'burst';

/** Error answers delivered again, when there were any (they count in the time). */
function retriesNote(rows: string): string | undefined {
	const [trigger, webhook, auth] = ['trigger', 'webhook', 'webhookAuth'].map((side) => retried[`${rows} ${side}`] ?? 0);
	return trigger + webhook + auth ? `error answers delivered again: trigger ${trigger}, Webhook node ${webhook}, with Header Auth ${auth}` : undefined;
}

export function triggerSpeedFigure(sizes: TriggerSizes): Figure {
	const targets = new Map<Mode, Target>();
	const ms: Record<string, number[]> = {};
	const push = (key: string, value: number) => (ms[key] ??= []).push(value);
	const loads: Array<[Load, number, number]> = [
		['one', sizes.triggerOne, 1],
		['burst', sizes.triggerBurst, CONCURRENCY],
	];
	const target = async (mode: Mode) => {
		let found = targets.get(mode);
		if (!found) {
			found = mode === 'regular' ? await regularMode() : await queueMode();
			targets.set(mode, found);
			// Warm-up, not measured: code loaded, connections open, credential read once.
			for (const url of [found.trigger, found.webhook, found.webhookAuth]) await load(url, 20, 4, 'warm-up');
		}
		return found;
	};
	return {
		key: 'trigger',
		workflows: () => [],
		async round(_n8n, round) {
			for (const mode of MODES) {
				const urls = await target(mode);
				for (const [name, count, concurrency] of loads) {
					const sides: Side[] = ['trigger', 'webhook', 'webhookAuth'];
					const order = [...sides.slice(round % 3), ...sides.slice(0, round % 3)];
					for (const side of order) push(`${mode} ${name} ${side}`, await load(urls[side], count, concurrency, `${mode} ${name} ${side}`));
				}
			}
		},
		rows: (): Row[] =>
			MODES.flatMap((mode) =>
				loads
					.filter(([name]) => ms[`${mode} ${name} trigger`])
					.flatMap(([name, count, concurrency]) => {
						const what = `Payment Gateway Trigger → No Operation, ${count} deliveries ${concurrency === 1 ? 'one at a time' : `${concurrency} at a time`}, ${mode} mode${mode === 'queue' ? ' (webhook process, 2 workers, PostgreSQL, Redis)' : ' (SQLite)'}: per delivery`;
						const against = (side: Side, anchor: string) =>
							atMost(what, anchor, ms[`${mode} ${name} trigger`], ms[`${mode} ${name} ${side}`], 'ms', 1.2, retriesNote(`${mode} ${name}`));
						return [
							against('webhook', "n8n's Webhook node (responding on receipt) → No Operation, same deliveries"),
							against('webhookAuth', "n8n's Webhook node with Header Auth on the same header (a credential read per delivery) → No Operation"),
						];
					}),
			),
		async dispose() {
			for (const found of targets.values()) await found.dispose();
		},
	};
}
