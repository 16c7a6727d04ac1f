// A burst of webhook deliveries with interleaved re-sends, and the count of executions per delivery
// key read back from n8n: shared by the regular-mode and the queue-mode suites.
import type { N8n } from './n8n';

export interface Delivery {
	/** The key the trigger judges by (transaction_id|action|status|order_status|transaction_time). */
	key: string;
	payload: Record<string, unknown>;
}

export interface BurstFigures {
	concurrency: number;
	distinct: number;
	resends: number;
	/** Answers "Workflow was started". */
	started: number;
	/** Answers "duplicate delivery". */
	dropped: number;
	/** Error answers delivered again (see send). */
	retries: number;
	/** Any other answer (status, body). */
	other: string[];
	/** Executions found per key: keys with none, and keys with more than one. */
	lost: number;
	processedTwice: number;
	ms: number;
}

/** `count` distinct deliveries, their transaction ids starting at `first`. */
export function deliveries(first: number, count: number): Delivery[] {
	return Array.from({ length: count }, (_, i) => {
		const payload = {
			action: 'SALE',
			status: 'SUCCESS',
			order_status: 'CAPTURED',
			transaction_id: String(first + i),
			p_order_id: String(500000 + first + i),
			m_order_id: `burst-${first + i}`,
			currency: 'AED',
			amount: '10.00',
			transaction_time: '21-05-2025 14:03:07',
		};
		const key = ['transaction_id', 'action', 'status', 'order_status', 'transaction_time']
			.map((field) => String(payload[field as keyof typeof payload]))
			.join('|');
		return { key, payload };
	});
}

/**
 * The sending order: every delivery once; every 10th re-sent right behind its original (at
 * concurrency > 1 the two are in flight together); every 10th + 5 re-sent seven deliveries later.
 */
export function sendingOrder(list: Delivery[]): Delivery[] {
	const order: Delivery[] = [];
	const later = new Map<number, Delivery[]>();
	list.forEach((delivery, i) => {
		order.push(delivery);
		if (i % 10 === 0) order.push(delivery);
		if (i % 10 === 5) later.set(i + 7, [...(later.get(i + 7) ?? []), delivery]);
		order.push(...(later.get(i) ?? []));
		later.delete(i);
	});
	for (const rest of later.values()) order.push(...rest);
	return order;
}

export type Answer = { status: number; body: string };

export function post(url: string, secret: string, payload: unknown): Promise<Answer> {
	return fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'notification-secret': secret },
		body: JSON.stringify(payload),
	}).then(async (response) => ({ status: response.status, body: await response.text() }));
}

/**
 * Sends `order` with `concurrency` requests in flight; final answers in sending order. An error
 * answer (5xx, as n8n gives when its database is busy) is delivered again after a pause, up to
 * three times, as the service retries a delivery that got an error or no answer.
 */
export async function send(
	url: string,
	secret: string,
	order: Delivery[],
	concurrency: number,
): Promise<{ answers: Answer[]; retries: number }> {
	const answers: Answer[] = new Array(order.length);
	let next = 0;
	let retries = 0;
	const deliver = async (payload: unknown): Promise<Answer> => {
		for (let attempt = 1; ; attempt++) {
			const answer = await post(url, secret, payload).catch((error: Error) => ({
				status: 599,
				body: error.message,
			}));
			if (answer.status < 500 || attempt === 4) return answer;
			retries += 1;
			await new Promise((r) => setTimeout(r, 1000 * attempt));
		}
	};
	const worker = async () => {
		while (next < order.length) {
			const index = next++;
			answers[index] = await deliver(order[index].payload);
		}
	};
	await Promise.all(Array.from({ length: concurrency }, worker));
	return { answers, retries };
}

const STARTED = '{"message":"Workflow was started"}';
const DUPLICATE = '{"received":true,"processed":false,"reason":"duplicate delivery"}';

export function tally(answers: Answer[]): Pick<BurstFigures, 'started' | 'dropped' | 'other'> {
	const other = answers.filter(
		(a) => !(a.status === 200 && (a.body === STARTED || a.body === DUPLICATE)),
	);
	return {
		started: answers.filter((a) => a.status === 200 && a.body === STARTED).length,
		dropped: answers.filter((a) => a.status === 200 && a.body === DUPLICATE).length,
		other: other.slice(0, 5).map((a) => `${a.status} ${a.body.slice(0, 200)}`),
	};
}

interface ExecutionPage {
	data: Array<{
		id: string;
		status: string;
		startedAt?: string | null;
		data?: { resultData: { runData: Record<string, any[]> } };
	}>;
	nextCursor?: string | null;
}

/** Statuses of an execution that has not ended yet (queue mode creates it before a worker runs it). */
const UNFINISHED = new Set(['new', 'running', 'waiting', 'queued', 'unknown']);

type ListedExecution = ExecutionPage['data'][number] & { workflowId?: string };

const itemKey = (execution: ListedExecution, trigger: string) => {
	const item = execution.data?.resultData.runData[trigger]?.[0]?.data?.main?.[0]?.[0];
	return String(
		item?.json?.deliveryKey ?? `(execution ${execution.id}: ${execution.status}, no item)`,
	);
};

/** How many executions of the workflow the last listing left out (main still held them). */
export let lastHidden = 0;

/** Executions already fetched one by one and ended (they no longer change), per n8n instance. */
const ended = new Map<string, ListedExecution | null>();

/** One execution through GET /api/v1/executions/:id; null when there is none with that id. */
async function oneExecution(n8n: N8n, apiKey: string, id: number): Promise<ListedExecution | null> {
	const cacheKey = `${n8n.baseUrl}#${id}`;
	if (ended.has(cacheKey)) return ended.get(cacheKey)!;
	const response = await fetch(`${n8n.baseUrl}/api/v1/executions/${id}?includeData=true`, {
		headers: { 'X-N8N-API-KEY': apiKey },
	});
	if (response.status === 404) return null;
	if (!response.ok)
		throw new Error(`GET /api/v1/executions/${id}: ${response.status} ${await response.text()}`);
	const execution = (await response.json()) as ListedExecution;
	if (!UNFINISHED.has(execution.status)) ended.set(cacheKey, execution);
	return execution;
}

/**
 * Every ended execution of the workflow by its trigger item's deliveryKey (public API, paged), and
 * how many have not ended yet.
 *
 * n8n's list leaves out the executions its main process still holds as running in memory
 * (ExecutionService.findManyAndCount, excludeRunning), whatever the database says: in queue mode
 * main holds every execution it received itself until it hears the job ended. So the ids the
 * list skipped (and a few above the newest) are read one by one, which nothing hides.
 */
export async function executionKeys(
	n8n: N8n,
	workflowId: string,
	trigger: string,
): Promise<{ keys: string[]; unfinished: number; neverStarted: number; hidden: number }> {
	const apiKey = await n8n.publicApiKey();
	const listed: ListedExecution[] = [];
	let cursor: string | null | undefined;
	do {
		const query = new URLSearchParams({ workflowId, includeData: 'true', limit: '250' });
		if (cursor) query.set('cursor', cursor);
		const response = await fetch(`${n8n.baseUrl}/api/v1/executions?${query}`, {
			headers: { 'X-N8N-API-KEY': apiKey },
		});
		if (!response.ok)
			throw new Error(`GET /api/v1/executions: ${response.status} ${await response.text()}`);
		const page = (await response.json()) as ExecutionPage;
		listed.push(...page.data);
		cursor = page.nextCursor;
	} while (cursor);
	const ids = new Set(listed.map((e) => Number(e.id)));
	const hidden: ListedExecution[] = [];
	if (ids.size > 0) {
		const top = Math.max(...ids);
		for (let id = Math.min(...ids) + 1, misses = 0; id < top || misses < 3; id++) {
			if (ids.has(id)) continue;
			const execution = await oneExecution(n8n, apiKey, id);
			misses = execution === null && id > top ? misses + 1 : 0;
			if (execution && String(execution.workflowId) === workflowId) hidden.push(execution);
		}
	}
	lastHidden = hidden.length;
	const all = [...listed, ...hidden];
	const unfinished = all.filter((e) => UNFINISHED.has(e.status)).length;
	// Created but never queued: n8n answered that delivery with an error (Redis stopped), or its
	// webhook process was killed before queueing it; its retry is another execution. n8n's queue
	// recovery later marks such an execution crashed, still without a start. Not a run: a delivery
	// with nothing else is reported lost.
	const notStarted = (e: ListedExecution) =>
		e.status === 'new' || (e.status === 'crashed' && !e.startedAt);
	const neverStarted = all.filter(notStarted).length;
	const keys = all
		.filter((e) => !UNFINISHED.has(e.status) && !notStarted(e))
		.map((e) => itemKey(e, trigger));
	return { keys, unfinished, neverStarted, hidden: hidden.length };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Polls until every expected delivery key has an ended execution and none is still running (or the
 * time is up), then looks once more (executions are saved after the answer) to catch a late extra
 * one. Counting executions is not enough: duplicates would make up for missing ones.
 */
export async function settledKeys(
	n8n: N8n,
	workflowId: string,
	trigger: string,
	expected: Delivery[],
	timeoutMs = 120_000,
): Promise<string[]> {
	const deadline = Date.now() + timeoutMs;
	const covered = (keys: string[]) => {
		const present = new Set(keys);
		return expected.every((d) => present.has(d.key));
	};
	let seen = await executionKeys(n8n, workflowId, trigger);
	for (;;) {
		const done = covered(seen.keys) && seen.unfinished === 0;
		if (done || Date.now() > deadline) {
			await sleep(1500);
			const again = await executionKeys(n8n, workflowId, trigger);
			if (again.keys.length === seen.keys.length && again.unfinished === seen.unfinished) {
				if (again.unfinished > again.neverStarted)
					throw new Error(`${again.unfinished} executions still unfinished after ${timeoutMs} ms`);
				if (again.unfinished > 0)
					console.log(
						`${again.unfinished} executions left "new" by n8n (never queued), not counted`,
					);
				return again.keys;
			}
			seen = again;
			continue;
		}
		await sleep(1000);
		seen = await executionKeys(n8n, workflowId, trigger);
	}
}

/** Keys of `expected` with no execution, and keys with more than one. */
export function judge(expected: Delivery[], keys: string[]): { lost: string[]; twice: string[] } {
	const counts = new Map<string, number>();
	for (const key of keys) counts.set(key, (counts.get(key) ?? 0) + 1);
	return {
		lost: expected.filter((d) => !counts.has(d.key)).map((d) => d.key),
		twice: [...counts].filter(([, count]) => count > 1).map(([key]) => key),
	};
}

export interface BurstRun {
	result: BurstFigures;
	lost: string[];
	twice: string[];
	/** Executions found beyond one per expected key. */
	extra: number;
	/** Deliveries sent, re-sends included. */
	sent: number;
}

/**
 * Sends `list` with its re-sends at `concurrency`, waits for the executions of `before` and `list`,
 * and counts them per delivery key.
 */
export async function runBurst(
	target: {
		url: string;
		secret: string;
		n8n: N8n;
		workflowId: string;
		trigger: string;
		timeoutMs?: number;
	},
	list: Delivery[],
	concurrency: number,
	before: Delivery[],
): Promise<BurstRun> {
	const order = sendingOrder(list);
	const started = Date.now();
	const { answers, retries } = await send(target.url, target.secret, order, concurrency);
	const ms = Date.now() - started;
	const all = [...before, ...list];
	const keys = await settledKeys(
		target.n8n,
		target.workflowId,
		target.trigger,
		all,
		target.timeoutMs,
	);
	const { lost, twice } = judge(all, keys);
	const result: BurstFigures = {
		concurrency,
		distinct: list.length,
		resends: order.length - list.length,
		...tally(answers),
		retries,
		lost: lost.length,
		processedTwice: twice.length,
		ms,
	};
	return { result, lost, twice, extra: keys.length - all.length, sent: order.length };
}
