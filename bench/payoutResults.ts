// The payout results figure: the service's results for the rows of a payroll posted to the
// published results workflow (Payment Gateway Payout Results Trigger → No Operation), against the
// same request bodies posted to n8n's Webhook node with Header Auth (on the same header) → No
// Operation, in real n8n (`n8n start`, regular mode, SQLite: data tables exist only there).
// Before each measured set the account's ledger holds exactly the set's queued references (the
// rows of the previous set deleted, the new ones inserted through n8n's REST API for data tables),
// so every round meets the same ledger. Two post sizes, as the service may post: one post per
// 500-row batch, and one post per row. The cost of a delivery runs from the first post's start to
// the end of the last execution it started (n8n's stoppedAt), divided by the posts: both sides
// answer on receipt, but the trigger applies the rows before answering and runs one item per row,
// the Webhook node one item per post; posts go one at a time, each after the previous answer.
// A third side, for reference: n8n's floor (payoutFloor.ts), a bench-only trigger posted the very
// items the trigger emits for each batch post, which it emits as they are (no ledger).
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';

import { startSandbox, type Sandbox } from '../test/sandbox';
import { N8n, type WorkflowJson } from '../test/e2e/n8n';
import { nodeItems } from '../test/e2e/n8n-data';
import { credentialsOf } from '../test/e2e/payout-results';
import { CREDENTIAL } from '../test/e2e/payout-ledger';
import type { Figure } from './figure';
import { FLOOR_FOLDER, FLOOR_TYPE, floorBody, sameItems, type QueuedRecord } from './payoutFloor';
import { atMost, type Row } from './stats';

export interface ResultsSizes {
	/** Queued references in the ledger, all posted in batch posts. */
	rows: number;
	/** Rows per batch post (the service's batch of 500). */
	perPost: number;
	/** Single-row posts (each a row of its own; the ledger holds `rows` then too). */
	single: number;
}

export const RESULTS_FULL: ResultsSizes = { rows: 10_000, perPost: 500, single: 200 };
// CI's --quick: a few hundred rows, every step still runs.
export const RESULTS_QUICK: ResultsSizes = { rows: 300, perPost: 100, single: 10 };

type Side = 'trigger' | 'floor' | 'webhook';
const SIDES: Side[] = ['trigger', 'floor', 'webhook'];
const PATHS: Record<Side, string> = { trigger: 'bench-results', floor: 'bench-results-floor', webhook: 'bench-results-webhook' };
const WORKFLOW_IDS: Record<Side, string> = { trigger: 'benchResultsTrigger', floor: 'benchResultsFloor', webhook: 'benchResultsWebhook' };
const SECRET = `bench-${randomUUID()}`;
const HEADER_AUTH = { id: 'benchResultsAuth1', name: 'Bench Results Header Auth' };
const FILL_CHUNK = 5000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const noOp = () => ({ id: randomUUID(), name: 'No Operation', type: 'n8n-nodes-base.noOp', typeVersion: 1, position: [220, 0], parameters: {} });
const chain = (from: string) => ({ [from]: { main: [[{ node: 'No Operation', type: 'main', index: 0 }]] } });

function workflows(): WorkflowJson[] {
	const base = { active: false, settings: { executionOrder: 'v1' } };
	const trigger = {
		id: randomUUID(), name: 'Payout Results', type: 'n8n-nodes-payment-gateway.paymentGatewayPayoutTrigger', typeVersion: 1, position: [0, 0], webhookId: randomUUID(),
		parameters: { path: PATHS.trigger },
		credentials: { paymentGatewayPayoutApi: CREDENTIAL, paymentGatewayWebhookApi: { id: 'e2eResultsHook01', name: 'E2E Results Webhook' } },
	};
	const webhook = {
		id: randomUUID(), name: 'Webhook', type: 'n8n-nodes-base.webhook', typeVersion: 2, position: [0, 0], webhookId: randomUUID(),
		parameters: { httpMethod: 'POST', path: PATHS.webhook, responseMode: 'onReceived', authentication: 'headerAuth', options: {} },
		credentials: { httpHeaderAuth: HEADER_AUTH },
	};
	const floor = { id: randomUUID(), name: 'Items Floor', type: FLOOR_TYPE, typeVersion: 1, position: [0, 0], webhookId: randomUUID(), parameters: { path: PATHS.floor, secret: SECRET } };
	return [
		{ ...base, id: WORKFLOW_IDS.trigger, name: 'Bench payout results trigger', nodes: [trigger, noOp()], connections: chain(trigger.name) },
		{ ...base, id: WORKFLOW_IDS.floor, name: 'Bench payout results floor', nodes: [floor, noOp()], connections: chain(floor.name) },
		{ ...base, id: WORKFLOW_IDS.webhook, name: 'Bench payout results webhook', nodes: [webhook, noOp()], connections: chain(webhook.name) },
	];
}

/** Queued references of one set, as Bulk Create writes them; batch b's rows carry request_id `<set>-b`. */
function queuedRecords(set: string, count: number, perPost: number): QueuedRecord[] {
	const at = new Date().toISOString();
	return Array.from({ length: count }, (_, i) => ({
		reference_no: `${set}-${i}`, state: 'queued', amount: 25000 + (i % 997), currency: 'INR', beneficiary_name: `Employee ${i}`, account_last4: String(1000 + (i % 9000)),
		request_id: `${set}-${Math.floor(i / perPost)}`, batch_remark: `Salary ${set}`, queued_at: at, workflow_id: 'payroll', execution_id: '1',
		utr: null, reason: null, attempt: 1, attempts: null, state_changed_at: at, batch_digest: null,
	}));
}

/** The service's posts for the first `count` rows of a set: mixed outcomes (every 10th failed). */
function resultPosts(set: string, count: number, perPost: number, postRows: number): unknown[] {
	const posts: unknown[] = [];
	for (let start = 0; start < count; start += postRows) {
		const rows = Array.from({ length: Math.min(postRows, count - start) }, (_, k) => start + k);
		const failed = (i: number) => i % 10 === 9;
		posts.push({
			event: 'payout.results',
			request_id: `${set}-${Math.floor(start / perPost)}`,
			sent_at: new Date().toISOString(),
			results: rows.map((i) => ({
				reference_no: `${set}-${i}`, status: failed(i) ? 'failed' : 'processed', amount: `${25000 + (i % 997)}.00`, currency: 'INR',
				...(failed(i) ? { reason: 'Beneficiary account closed' } : { utr: `UTR${String(i).padStart(12, '0')}` }),
				updated_at: new Date().toISOString(),
			})),
		});
	}
	return posts;
}

interface Table {
	id: string;
	projectId: string;
}

class ResultsBench {
	readonly ms: Record<string, number[]> = {};
	private ledger?: Table;
	private token = '';

	private constructor(private readonly n8n: N8n, private readonly box: Sandbox, private readonly sizes: ResultsSizes) {}

	static async create(sizes: ResultsSizes): Promise<ResultsBench> {
		const box = await startSandbox({ seed: 31 });
		// BENCH_CPU_PROF=<folder>: n8n writes a CPU profile there when it stops.
		const prof = process.env.BENCH_CPU_PROF;
		const n8n = await N8n.create({ env: { N8N_CUSTOM_EXTENSIONS: FLOOR_FOLDER, ...(prof ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${resolve(prof)}` } : {}) } });
		await n8n.importCredentials([
			...credentialsOf(box).map((c) => (c.type === 'paymentGatewayWebhookApi' ? { ...c, data: { notificationSecret: SECRET } } : c)),
			{ ...HEADER_AUTH, type: 'httpHeaderAuth', data: { name: 'notification-secret', value: SECRET } },
		]);
		await n8n.importWorkflows(workflows());
		for (const workflow of workflows()) await n8n.publish(workflow.id);
		const bench = new ResultsBench(n8n, box, sizes);
		await bench.setUp();
		return bench;
	}

	private url(side: Side): string {
		return `${this.n8n.baseUrl}/webhook/${PATHS[side]}?t=${this.token}`;
	}

	private async post(side: Side, body: unknown): Promise<{ status: number; text: string }> {
		const answer = await fetch(this.url(side), { method: 'POST', headers: { 'content-type': 'application/json', 'notification-secret': SECRET }, body: JSON.stringify(body) });
		return { status: answer.status, text: await answer.text() };
	}

	private async table(prefix: string): Promise<Table & { name: string }> {
		for (const deadline = Date.now() + 60_000; ; await sleep(250)) {
			const listed = await this.n8n.rest('GET', '/rest/data-tables-global');
			const found = (listed.body.data?.data ?? []).find((t: { name: string }) => t.name.startsWith(prefix));
			if (found) return found;
			if (Date.now() > deadline) throw new Error(`no data table "${prefix} …"`);
		}
	}

	/** Started; the token the activation recorded; the ledger table made by a first (unknown) row. */
	private async setUp(): Promise<void> {
		await this.n8n.start();
		await this.n8n.waitForWebhooks(SIDES.map((side) => `${this.n8n.baseUrl}/webhook/${PATHS[side]}`), 'POST', 120_000);
		const results = await this.table('Payout results');
		for (const deadline = Date.now() + 60_000; !this.token; await sleep(250)) {
			const rows = await this.n8n.rest('GET', `/rest/projects/${results.projectId}/data-tables/${results.id}/rows?take=50`);
			this.token = String((rows.body.data.data as Array<Record<string, unknown>>).find((r) => r.token)?.token ?? '');
			if (!this.token && Date.now() > deadline) throw new Error('no results token recorded');
		}
		const probe = await this.post('trigger', resultPosts('PROBE', 1, 1, 1)[0]);
		if (probe.status !== 200) throw new Error(`probe post: ${probe.status} ${probe.text.slice(0, 300)}`);
		this.ledger = await this.table('Payout ledger');
		// Warm-up, not measured: code loaded, credentials read once, each side run once.
		await this.fill('WARM', this.sizes.perPost);
		for (const side of SIDES) await this.deliver(side, 'WARM', resultPosts('WARM', this.sizes.perPost, this.sizes.perPost, this.sizes.perPost));
		// The floor runs the trigger's items: the items of both warm-up runs, as n8n saved them.
		const [trigger, floor] = await Promise.all((['trigger', 'floor'] as const).map((side) => this.n8n.executions(WORKFLOW_IDS[side])));
		const items = (runs: typeof trigger, node: string) => nodeItems(runs[0]?.data?.resultData.runData, node).map((item) => item.json);
		console.error(`[payoutResults] ${sameItems(items(trigger, 'Payout Results'), items(floor, 'Items Floor'))}`);
	}

	/** The ledger holds `count` queued references of `set`, nothing else. */
	private async fill(set: string, count: number): Promise<void> {
		const path = `/rest/projects/${this.ledger!.projectId}/data-tables/${this.ledger!.id}`;
		const all = JSON.stringify({ type: 'and', filters: [{ columnName: 'id', condition: 'gt', value: 0 }] });
		const gone = await this.n8n.rest('DELETE', `${path}/rows?filter=${encodeURIComponent(all)}`);
		if (gone.status !== 200) throw new Error(`emptying the ledger: ${gone.status} ${JSON.stringify(gone.body).slice(0, 300)}`);
		const records = queuedRecords(set, count, this.sizes.perPost);
		for (let from = 0; from < count; from += FILL_CHUNK) {
			const added = await this.n8n.rest('POST', `${path}/insert`, { data: records.slice(from, from + FILL_CHUNK), returnType: 'count' });
			if (added.status !== 200) throw new Error(`filling the ledger: ${added.status} ${JSON.stringify(added.body).slice(0, 300)}`);
		}
		const held = await this.n8n.rest('GET', `${path}/rows?take=1`);
		if (held.body.data.count !== count) throw new Error(`the ledger holds ${held.body.data.count} rows, expected ${count}`);
	}

	/** Finished executions of a workflow started at or after `since` (public API, paged, no data). */
	private async finished(workflowId: string, since: number): Promise<Array<{ status: string; stoppedAt: string }>> {
		const key = await this.n8n.publicApiKey();
		const found: Array<{ status: string; startedAt: string; stoppedAt: string }> = [];
		for (let cursor: string | undefined; ; ) {
			const query = new URLSearchParams({ workflowId, limit: '250', ...(cursor ? { cursor } : {}) });
			const page = (await (await fetch(`${this.n8n.baseUrl}/api/v1/executions?${query}`, { headers: { 'X-N8N-API-KEY': key } })).json()) as {
				data: Array<{ status: string; startedAt: string; stoppedAt: string }>;
				nextCursor?: string | null;
			};
			const recent = page.data.filter((e) => Date.parse(e.startedAt) >= since);
			found.push(...recent);
			if (!page.nextCursor || recent.length < page.data.length) return found.filter((e) => e.stoppedAt);
			cursor = page.nextCursor;
		}
	}

	/** Posts one at a time; ms per post until the last execution they started ended, and per answer. */
	private async deliver(side: Side, set: string, posts: unknown[]): Promise<{ perDelivery: number; perAnswer: number }> {
		const workflowId = WORKFLOW_IDS[side];
		// The floor's bodies (the trigger's items of each post) are built before the clock starts.
		let bodies = posts;
		if (side === 'floor') {
			const records = new Map(queuedRecords(set, this.sizes.rows, this.sizes.perPost).map((r) => [r.reference_no, r]));
			bodies = posts.map((post) => floorBody(records, post));
		}
		const since = Date.now() - 1; // n8n's startedAt is in ms; the first one cannot come before
		const started = performance.now();
		for (const [at, body] of bodies.entries()) {
			const answer = await this.post(side, body);
			const rows = (posts[at] as { results: unknown[] }).results.length;
			const expected = side !== 'webhook' ? `"applied":${rows},"ignored":0` : 'Workflow was started';
			if (answer.status !== 200 || !answer.text.includes(expected)) throw new Error(`${side}: ${answer.status} ${answer.text.slice(0, 300)} (expected ${expected})`);
		}
		const answered = performance.now() - started;
		let runs: Array<{ status: string; stoppedAt: string }> = [];
		for (const deadline = Date.now() + 600_000; runs.length < posts.length; await sleep(200)) {
			runs = await this.finished(workflowId, since);
			if (Date.now() > deadline) throw new Error(`${side}: ${runs.length} of ${posts.length} executions ended`);
		}
		const failed = runs.filter((e) => e.status !== 'success');
		if (runs.length !== posts.length || failed.length) throw new Error(`${side}: ${runs.length} executions for ${posts.length} posts, ${failed.length} not successful`);
		const last = Math.max(...runs.map((e) => Date.parse(e.stoppedAt)));
		return { perDelivery: (last - since) / posts.length, perAnswer: answered / posts.length };
	}

	/** One round: each post size, the ledger refilled before each side, the sides' order alternated. */
	async round(round: number): Promise<void> {
		const { rows, perPost, single } = this.sizes;
		const order = round % 2 ? [...SIDES].reverse() : SIDES;
		for (const [kind, count, postRows] of [['batch', rows, perPost], ['single', single, 1]] as const) {
			if (!count) continue;
			for (const side of order) {
				if (side === 'floor' && kind === 'single') continue; // the floor is a batch reference
				const set = `R${round}${kind[0]}${side[0]}`;
				await this.fill(set, rows);
				const { perDelivery, perAnswer } = await this.deliver(side, set, resultPosts(set, count, perPost, postRows));
				(this.ms[`${kind} ${side}`] ??= []).push(perDelivery);
				(this.ms[`${kind} ${side} answer`] ??= []).push(perAnswer);
			}
		}
	}

	async dispose(): Promise<void> {
		await this.n8n.dispose();
		await this.box.stop();
	}
}

export function payoutResultsFigure(sizes: ResultsSizes): Figure {
	let bench: ResultsBench | undefined;
	const { rows, perPost, single } = sizes;
	const count = (n: number) => n.toLocaleString('en');
	return {
		key: 'payoutResults',
		workflows: () => [],
		async round(_n8n, round) {
			bench ??= await ResultsBench.create(sizes);
			await bench.round(round);
		},
		rows: (): Row[] => {
			if (!bench) return [];
			const { ms } = bench;
			const ledger = `ledger of ${count(rows)} queued references (SQLite)`;
			const anchor = (what: string) => `n8n's Webhook node with Header Auth (same header, responding on receipt) → No Operation, the same ${what}`;
			const note = `regular mode; posts one at a time; per delivery: from the first post to the end of the last execution (n8n's stoppedAt) over the posts; the trigger runs one item per applied row, the Webhook node one item per post; measured on a shared 2-core machine`;
			const floorNote = `a bench-only trigger (bench/floor) is posted, per post, the items the Payout Results Trigger emits for it (built by the bench: the ledger records after the rows, each row's result, the delivery key) as { items }, checks the same header and emits them as they are`;
			const out: Row[] = [
				atMost(`Payout results, ${count(rows)} rows in ${Math.ceil(rows / perPost)} posts of ${perPost} → Payout Results Trigger → No Operation, ${ledger}: per delivery`, anchor('posts'), ms['batch trigger'], ms['batch webhook'], 'ms', 1.2, note),
				{ ...atMost(`the same posts: time to the answer`, anchor('posts'), ms['batch trigger answer'], ms['batch webhook answer'], 'ms', Infinity), target: 'none: the trigger applies the rows before answering', reference: true },
				{
					...atMost(`n8n's floor: a trigger that only emits the same items (no ledger) → No Operation, the same posts: per delivery`, anchor('posts'), ms['batch floor'], ms['batch webhook'], 'ms', Infinity, floorNote),
					target: "none: what n8n itself costs to run the trigger's items (one per row); the trigger's own work is the difference",
					reference: true,
				},
				{
					...atMost(`the trigger against n8n's floor: the same posts, per delivery`, `n8n's floor (the row above)`, ms['batch trigger'], ms['batch floor'], 'ms', Infinity),
					target: "none: the trigger's own work (its ledger read and write, the post's checks) over what n8n costs for its items",
					reference: true,
				},
			];
			if (ms['single trigger'])
				out.push(
					atMost(`Payout results, ${count(single)} single-row posts → Payout Results Trigger → No Operation, ${ledger}: per delivery`, anchor('single-row posts'), ms['single trigger'], ms['single webhook'], 'ms', 1.2),
				);
			return out;
		},
		async dispose() {
			await bench?.dispose();
		},
	};
}
