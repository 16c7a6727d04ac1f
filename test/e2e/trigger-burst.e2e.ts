// Duplicate deliveries under burst in a real n8n (regular mode, SQLite): distinct deliveries with
// interleaved re-sends at concurrency 1 and 50, then re-sends after n8n restarts. Every delivery
// key must have exactly one execution.
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import {
	deliveries,
	judge,
	runBurst,
	post,
	settledKeys,
	type BurstFigures,
	type Delivery,
} from './burst';
import { rowContext } from '../../nodes/n8n-internals/processed-rows';
import { CREDENTIAL_IDS, TRIGGER_PATH, triggerWorkflow } from './fixtures';
import { N8n } from './n8n';
import { N8N_DIR } from './version';

const WORKFLOW_ID = 'e2eBurstEvents01';
const TRIGGER = 'Payment Gateway Trigger';
const SECRET = `burst-${randomUUID()}`;
const webhookId = randomUUID();
const DUPLICATE = '{"received":true,"processed":false,"reason":"duplicate delivery"}';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Sizes: 300 at concurrency 1, 200 at 50 (500 distinct in all); about a fifth re-sent.
const AT_ONE = deliveries(7_000_000, 300);
const AT_FIFTY = deliveries(7_000_300, 200);
const figures: BurstFigures[] = [];

let n8n: N8n;
let url: string;
const workflow = triggerWorkflow(WORKFLOW_ID, webhookId);
const triggerNodeId = workflow.nodes.find((node) => node.name === TRIGGER)!.id as string;

/**
 * Runs SQL on n8n's SQLite database (n8n's own sqlite3 module), as a process that took a
 * delivery's row and ended before n8n's answer would have left it.
 */
async function sql(statement: string, parameters: unknown[]): Promise<unknown[]> {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const sqlite3 = require(join(N8N_DIR, 'node_modules/sqlite3'));
	const db = new sqlite3.Database(join(n8n.userFolder, '.n8n/database.sqlite'));
	try {
		return await new Promise<unknown[]>((done, fail) =>
			db.all(statement, parameters, (error: Error | null, rows: unknown[]) =>
				error ? fail(error) : done(rows),
			),
		);
	} finally {
		await new Promise((done) => db.close(done));
	}
}

/**
 * What a process that ended before n8n's answer leaves for a delivery: its row, taken by that
 * process (a new one, or the existing row handed to it with its time of claim kept).
 */
async function leftByEndedProcess(key: string, insert: boolean): Promise<void> {
	const context = rowContext(
		{ workflowId: WORKFLOW_ID, nodeId: triggerNodeId, kind: 'delivery' },
		key,
	);
	if (insert)
		await sql('INSERT INTO processed_data ("workflowId", context, value) VALUES (?, ?, ?)', [
			WORKFLOW_ID,
			context,
			JSON.stringify({ boot: 'ended', since: Date.now() - 60_000 }),
		]);
	else
		await sql(
			`UPDATE processed_data SET value = json_set(value, '$.boot', 'ended') WHERE "workflowId" = ? AND context = ?`,
			[WORKFLOW_ID, context],
		);
}

async function waitForRoute(): Promise<void> {
	const deadline = Date.now() + 60_000;
	// A wrong secret is refused by the node itself: the probe starts nothing.
	while ((await post(url, 'probe', { probe: true })).status === 404) {
		if (Date.now() > deadline)
			throw new Error(`webhook never registered at ${url}:\n${n8n.log().slice(-4000)}`);
		await sleep(250);
	}
}

beforeAll(async () => {
	n8n = await N8n.create();
	url = n8n.webhookUrl(webhookId, TRIGGER_PATH);
	await n8n.importCredentials([
		{
			id: CREDENTIAL_IDS.webhook,
			name: 'Sandbox Webhook',
			type: 'paymentGatewayWebhookApi',
			data: { notificationSecret: SECRET },
		},
	]);
	await n8n.importWorkflow(workflow);
	await n8n.publish(WORKFLOW_ID);
	await n8n.start();
	await waitForRoute();
}, 900_000);

afterAll(async () => {
	await n8n?.dispose();
	const file = resolve(__dirname, '../../.tools/burst-regular.json');
	mkdirSync(join(file, '..'), { recursive: true });
	writeFileSync(file, `${JSON.stringify(figures, null, 2)}\n`);
});

async function burst(
	list: Delivery[],
	concurrency: number,
	before: Delivery[],
): Promise<BurstFigures> {
	const run = await runBurst(
		{ url, secret: SECRET, n8n, workflowId: WORKFLOW_ID, trigger: TRIGGER },
		list,
		concurrency,
		before,
	);
	const { result, lost, twice, extra } = run;
	figures.push(result);
	console.log(`regular mode burst: ${JSON.stringify(result)}`);
	expect({ lost: lost.slice(0, 5), twice: twice.slice(0, 5), extra }).toEqual({
		lost: [],
		twice: [],
		extra: 0,
	});
	// A retried delivery whose first attempt got through is answered as a duplicate: count both.
	expect(result.other).toEqual([]);
	expect(result.started + result.dropped).toBe(run.sent);
	return result;
}

describe('Payment Gateway Trigger under burst in real n8n (regular mode)', () => {
	it('concurrency 1: every distinct delivery runs once, every re-send is dropped', async () => {
		await burst(AT_ONE, 1, []);
	}, 300_000);

	it('concurrency 50, re-sends in flight with their originals: 0 lost, 0 processed twice', async () => {
		await burst(AT_FIFTY, 50, AT_ONE);
	}, 300_000);

	it('after n8n restarts, re-sends of the 1st and the 500th delivery are dropped', async () => {
		const first = AT_ONE[0];
		const fiveHundredth = AT_FIFTY[AT_FIFTY.length - 1];
		expect(fiveHundredth.payload.transaction_id).toBe(String(7_000_000 + 499));
		await n8n.stop();
		await n8n.start();
		await waitForRoute();

		for (const delivery of [first, fiveHundredth, AT_ONE[150], AT_FIFTY[17]]) {
			const answer = await post(url, SECRET, delivery.payload);
			expect(answer).toEqual({ status: 200, body: DUPLICATE });
		}
		// A new delivery still runs: the restarted n8n is not dropping everything.
		const [fresh] = deliveries(7_001_000, 1);
		expect((await post(url, SECRET, fresh.payload)).body).toBe(
			'{"message":"Workflow was started"}',
		);

		const all = [...AT_ONE, ...AT_FIFTY, fresh];
		const keys = await settledKeys(n8n, WORKFLOW_ID, TRIGGER, all);
		expect(judge(all, keys)).toEqual({ lost: [], twice: [] });
		expect(keys).toHaveLength(all.length);
	}, 900_000);

	it("a row left by a process that ended before n8n's answer: a delivery that ran is a duplicate, one that did not runs once", async () => {
		const ran = AT_ONE[42];
		const [unanswered] = deliveries(7_002_000, 1);
		await leftByEndedProcess(ran.key, false);
		await leftByEndedProcess(unanswered.key, true);

		expect(await post(url, SECRET, ran.payload)).toEqual({ status: 200, body: DUPLICATE });
		expect((await post(url, SECRET, unanswered.payload)).body).toBe(
			'{"message":"Workflow was started"}',
		);
		expect(await post(url, SECRET, unanswered.payload)).toEqual({ status: 200, body: DUPLICATE });

		const all = [...AT_ONE, ...AT_FIFTY, ...deliveries(7_001_000, 1), unanswered];
		const keys = await settledKeys(n8n, WORKFLOW_ID, TRIGGER, all);
		expect(judge(all, keys)).toEqual({ lost: [], twice: [] });
		// One row per delivery that ran; the unanswered one now taken by this process.
		const rows = (await sql(
			'SELECT value FROM processed_data WHERE "workflowId" = ? AND context LIKE ?',
			[WORKFLOW_ID, `n:${triggerNodeId}:delivery:%`],
		)) as Array<{ value: string }>;
		expect(rows).toHaveLength(all.length);
		expect(rows.filter((row) => JSON.parse(row.value).boot === 'ended')).toHaveLength(1);
		// Every record, settle and clean-up of the trigger went through without a warning.
		expect(n8n.log()).not.toMatch(/Payment Gateway Trigger: /);
	}, 300_000);
});
