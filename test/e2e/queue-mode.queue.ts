// The Payment Gateway Trigger on n8n's distributed engine: main + one `n8n webhook` + two
// `n8n worker`s, queue mode, PostgreSQL. The trigger fires through the webhook process; a burst with
// re-sends at concurrency 1 and 50 counts executions per delivery key; then three processes receive
// it at once, with a process killed, Redis paused or PostgreSQL's pool exhausted. The same cluster
// runs the action workflows in workers first (queue-actions.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import type { Sandbox } from '../sandbox';
import {
	deliveries,
	judge,
	runBurst,
	post,
	settledKeys,
	type BurstFigures,
	type Delivery,
} from './burst';
import { TRIGGER_PATH } from './fixtures';
import type { N8n } from './n8n';
import { sleep } from './n8n-process';
import { actionWorkflows, describeActionWorkflows } from './queue-actions';
import { ClusterProcess, pauseRedis, pgQuery, redisCommand, redisKeyCount } from './queue';
import { errorLines as errorLinesOf, startCluster, stopCluster } from './queue-mode.cluster';
import {
	DUPLICATE,
	EVENTS_ID,
	TRIGGER,
	claimKey,
	eventsHook,
	eventsWorkflow,
	executionOf,
	expectEachOnce,
	leaveClaimsUnsettled,
} from './queue-mode.trigger';
import { spreadBurst, type Spread } from './receivers';
import { N8N_VERSION } from './version';

const AT_ONE = deliveries(8_000_000, 150);
const AT_FIFTY = deliveries(8_000_150, 150);
/** Every delivery sent to the trigger so far, by the tests that ran (a run may select some). */
const sent: Delivery[] = [];
// Claims present before the suite's first delivery are not its own (each suite has a Redis database
// of its own: none are expected).
let keysBefore = 0;
const figures: Array<BurstFigures | Record<string, unknown>> = [];

let sandbox: Sandbox;
let main: N8n;
let webhook: ClusterProcess;
/** The second `n8n webhook` process of the three-receiver cases. */
let second: ClusterProcess;
let workers: ClusterProcess[] = [];
let eventsUrl: string;

beforeAll(async () => {
	({ sandbox, main, webhook, workers } = await startCluster([
		eventsWorkflow(),
		...actionWorkflows(),
	]));
	keysBefore = redisKeyCount('n8n:payment-gateway-trigger:*');
	eventsUrl = `${webhook.n8n.baseUrl}/webhook/${eventsHook}/${TRIGGER_PATH}`;
	const deadline = Date.now() + 60_000;
	while ((await post(eventsUrl, 'probe', { probe: true })).status === 404) {
		if (Date.now() > deadline)
			throw new Error(`trigger never registered at ${eventsUrl}:\n${webhook.log().slice(-3000)}`);
		await sleep(250);
	}
}, 900_000);

afterAll(async () => {
	await stopCluster({ sandbox, main, webhook, workers });
	const file = resolve(__dirname, '../../.tools/burst-queue.json');
	mkdirSync(join(file, '..'), { recursive: true });
	writeFileSync(file, `${JSON.stringify(figures, null, 2)}\n`);
}, 120_000);

describeActionWorkflows(() => ({ sandbox, main, webhook, workers }));

/** The first error lines n8n's processes logged (JSON logs), for the figures. */
const errorLines = () => errorLinesOf([main, webhook, second]);

async function burst(list: Delivery[], concurrency: number): Promise<void> {
	const target = {
		url: eventsUrl,
		secret: sandbox.keys.webhook.notificationSecret,
		n8n: main,
		workflowId: EVENTS_ID,
		trigger: TRIGGER,
		timeoutMs: 300_000,
	};
	const run = await runBurst(target, list, concurrency, [...sent]);
	sent.push(...list);
	const { result, lost, twice, extra } = run;
	figures.push(result);
	console.log(`queue mode burst: ${JSON.stringify(result)}\n${errorLines()}`);
	expectEachOnce({ lost, twice, extra });
	// A retried delivery whose first attempt got through is answered as a duplicate: count both.
	expect(result.other).toEqual([]);
	expect(result.started + result.dropped).toBe(run.sent);
}

describe('queue mode: the trigger through the webhook process under burst', () => {
	it("the webhook process's log names, once, the internals found and the mode: Redis claim + execution check", () => {
		const lines = webhook
			.log()
			.split('\n')
			.filter((line) => line.includes('Payment Gateway nodes on n8n'));
		expect(lines).toHaveLength(1);
		const { level, message } = JSON.parse(lines[0]) as { level: string; message: string };
		expect(level).toBe('info');
		expect(message).toContain(
			`Payment Gateway nodes on n8n ${N8N_VERSION}: exactly-once mode of the trigger: Redis claim + execution check.`,
		);
		expect(message).toContain('queue Redis: yes; execution check: yes');
	});

	it('concurrency 1: every distinct delivery runs once (in the workers), every re-send is dropped', async () => {
		await burst(AT_ONE, 1);
		expect(workers.every((w) => w.log().includes('Worker started execution'))).toBe(true);
	});

	it('concurrency 50, re-sends in flight with their originals: 0 lost, 0 processed twice', async () => {
		await burst(AT_FIFTY, 50);
	});

	it('after the webhook process restarts, re-sends of the 1st and the 300th delivery are dropped', async () => {
		await webhook.stop();
		webhook = await ClusterProcess.start('webhook');
		eventsUrl = `${webhook.n8n.baseUrl}/webhook/${eventsHook}/${TRIGGER_PATH}`;
		for (const delivery of [AT_ONE[0], AT_FIFTY[AT_FIFTY.length - 1]]) {
			expect(
				await post(eventsUrl, sandbox.keys.webhook.notificationSecret, delivery.payload),
			).toEqual({ status: 200, body: DUPLICATE });
		}
		await sleep(2000);
		const keys = await settledKeys(main, EVENTS_ID, TRIGGER, [...AT_ONE, ...AT_FIFTY]);
		expect(keys).toHaveLength(AT_ONE.length + AT_FIFTY.length);
	});
});

describe('queue mode: three processes receiving the trigger (main + two webhook processes)', () => {
	const urls = () =>
		[
			eventsUrl,
			second?.n8n.baseUrl && `${second.n8n.baseUrl}/webhook/${eventsHook}/${TRIGGER_PATH}`,
			main.webhookUrl(eventsHook, TRIGGER_PATH),
		].filter((u): u is string => Boolean(u));
	const earlier = sent;

	beforeAll(async () => {
		second = await ClusterProcess.start('webhook');
	}, 180_000);

	afterAll(async () => await second?.stop(), 60_000);

	async function spread(
		list: Delivery[],
		concurrency: number,
		name: string,
		during?: Spread['during'],
	) {
		const target = {
			urls,
			secret: sandbox.keys.webhook.notificationSecret,
			n8n: main,
			workflowId: EVENTS_ID,
			trigger: TRIGGER,
			before: earlier,
			during,
		};
		const run = await spreadBurst(target, list, concurrency);
		figures.push({ case: name, ...run.figures });
		console.log(
			`queue mode, ${name}: ${JSON.stringify(run.figures)}\n${run.lost.join('\n')}\n${errorLines()}`,
		);
		earlier.push(...list);
		expectEachOnce(run);
		expect(run.figures.other).toEqual([]);
		return run;
	}

	it('concurrency 1, 20 % sent to two processes at the same moment: 0 lost, 0 processed twice', async () => {
		await spread(deliveries(8_000_400, 40), 1, 'three receivers c1');
	});

	it('concurrency 50, 20 % sent to two processes at the same moment: 0 lost, 0 processed twice', async () => {
		const run = await spread(deliveries(8_000_500, 150), 50, 'three receivers c50');
		expect(run.figures.dropped).toBeGreaterThan(0);
		// The claims live in n8n's Redis (one `done` key per delivery so far), not in process memory.
		expect(redisKeyCount('n8n:payment-gateway-trigger:*') - keysBefore).toBe(earlier.length);
	});

	it("a claim its process left unsettled (killed before n8n's answer): a delivery that ran is a duplicate, one that did not runs once", async () => {
		// Its own deliveries (the compatibility subset runs this test without the bursts above).
		const [ran, fresh] = deliveries(8_001_300, 2);
		const secret = sandbox.keys.webhook.notificationSecret;
		expect((await post(eventsUrl, secret, ran.payload)).body).not.toBe(DUPLICATE);
		earlier.push(ran);
		// Its claim settled (confirmed on n8n's answer) before it is made to look orphaned.
		await new Promise((resolve) => setTimeout(resolve, 1500));
		// As a SIGKILL leaves it, made exactly: the pending claim expired, its mark of 20 s ago stays.
		leaveClaimsUnsettled([ran, fresh]);
		expect(await post(eventsUrl, secret, ran.payload)).toEqual({ status: 200, body: DUPLICATE });
		expect(redisCommand('GET', claimKey(ran.key))).toBe('done');
		const answer = await post(eventsUrl, secret, fresh.payload);
		expect(answer.status).toBe(200);
		expect(answer.body).not.toBe(DUPLICATE);
		earlier.push(fresh);
		const keys = await settledKeys(main, EVENTS_ID, TRIGGER, earlier, 120_000);
		expect(judge(earlier, keys)).toEqual({ lost: [], twice: [] });
		expect(redisCommand('GET', claimKey(fresh.key))).toBe('done');
		for (const delivery of [ran, fresh])
			expect(redisCommand('EXISTS', `${claimKey(delivery.key)}:since`)).toBe('0');
	});

	it('a claim its process left unsettled after writing the execution: never queued → the re-send runs once; its job still queued → a duplicate', async () => {
		const [unqueued, queued] = deliveries(8_001_350, 2);
		const secret = sandbox.keys.webhook.notificationSecret;
		for (const delivery of [unqueued, queued])
			expect((await post(eventsUrl, secret, delivery.payload)).body).not.toBe(DUPLICATE);
		await settledKeys(main, EVENTS_ID, TRIGGER, [unqueued, queued], 120_000);
		const [unqueuedId, queuedId] = [unqueued, queued].map((delivery) => executionOf(delivery));
		const before = pgQuery(
			`SELECT status, "startedAt"::text FROM execution_entity WHERE id = ${queuedId}`,
		).split('|');
		// As a webhook process killed between n8n writing the execution and queueing its job leaves it.
		pgQuery(
			`UPDATE execution_entity SET status = 'new', "startedAt" = NULL WHERE id IN (${unqueuedId}, ${queuedId})`,
		);
		// The other one's job still waits in n8n's queue (delayed ten minutes; removed below).
		const job = `bull:jobs:e2e-${queuedId}`;
		const data = { executionId: queuedId, workflowId: EVENTS_ID, loadStaticData: false };
		redisCommand('HSET', job, 'name', 'job', 'data', JSON.stringify(data), 'opts', '{}');
		redisCommand(
			'ZADD',
			'bull:jobs:delayed',
			String((Date.now() + 600_000) * 4096),
			`e2e-${queuedId}`,
		);
		try {
			leaveClaimsUnsettled([unqueued, queued]);
			expect(await post(eventsUrl, secret, queued.payload)).toEqual({
				status: 200,
				body: DUPLICATE,
			});
			const answer = await post(eventsUrl, secret, unqueued.payload);
			expect(answer.status).toBe(200);
			expect(answer.body).not.toBe(DUPLICATE);
		} finally {
			// What n8n's queue recovery makes of an execution never queued: crashed, never started.
			pgQuery(`UPDATE execution_entity SET status = 'crashed' WHERE id = ${unqueuedId}`);
			redisCommand('ZREM', 'bull:jobs:delayed', `e2e-${queuedId}`);
			redisCommand('DEL', job);
			pgQuery(
				`UPDATE execution_entity SET status = '${before[0]}', "startedAt" = '${before[1]}' WHERE id = ${queuedId}`,
			);
		}
		earlier.push(unqueued, queued);
		const keys = await settledKeys(main, EVENTS_ID, TRIGGER, earlier, 120_000);
		expect(judge(earlier, keys)).toEqual({ lost: [], twice: [] });
	});

	it('Redis stopped for a few seconds mid-burst, then back: 0 lost, 0 processed twice', async () => {
		await spread(deliveries(8_000_700, 100), 20, 'Redis stopped 4 s', {
			afterAnswers: 30,
			fault: async () => await pauseRedis(4000),
		});
	});

	it('a webhook process SIGKILLed mid-burst, unanswered deliveries re-sent: 0 lost, 0 processed twice', async () => {
		await spread(deliveries(8_000_900, 100), 20, 'webhook process killed', {
			afterAnswers: 30,
			fault: async () => await second.kill(),
		});
	});

	it('PostgreSQL pool exhausted ("Database is not ready"): error answers, and their re-sends run once', async () => {
		// One pooled connection and a 50 ms health check every second: under a burst the check waits
		// behind webhook queries and n8n answers 503 "Database is not ready!" until the next one passes.
		const pool = {
			DB_POSTGRESDB_POOL_SIZE: '1',
			DB_PING_INTERVAL_SECONDS: '1',
			DB_PING_TIMEOUT_MS: '50',
			DB_PING_MAX_FAILURES_BEFORE_RECOVERY: '1000',
		};
		const narrow = await ClusterProcess.start('webhook', 10, undefined, pool);
		const only = `${narrow.n8n.baseUrl}/webhook/${eventsHook}/${TRIGGER_PATH}`;
		try {
			const target = {
				urls: () => [only],
				secret: sandbox.keys.webhook.notificationSecret,
				n8n: main,
				workflowId: EVENTS_ID,
				trigger: TRIGGER,
				before: earlier,
			};
			const run = await spreadBurst(target, deliveries(8_001_100, 100), 50);
			figures.push({ case: 'pool exhausted', ...run.figures });
			console.log(
				`queue mode, PostgreSQL pool exhausted: ${JSON.stringify(run.figures)}\n${run.lost.join('\n')}`,
			);
			expectEachOnce(run);
			expect(run.figures.other).toEqual([]);
			expect(
				Object.keys(run.figures.errors).some((kind) => kind.includes('Database is not ready')),
			).toBe(true);
		} finally {
			await narrow.stop();
		}
	});
});
