// Deliveries spread over several n8n processes receiving webhooks, as behind a load balancer:
// each delivery goes to one process, every 5th (20 %) is also sent to another process at the same
// moment, and an error answer or a broken connection is delivered again (to the next process) as
// the service retries. Executions are then counted per delivery key through n8n's public API.
import { judge, lastHidden, post, settledKeys, tally, type Answer, type Delivery } from './burst';
import type { N8n } from './n8n';

export interface ReceiverFigures {
	receivers: number;
	concurrency: number;
	distinct: number;
	/** Copies sent at the same moment to a second process. */
	resends: number;
	started: number;
	dropped: number;
	/** Error answers and broken connections delivered again. */
	retries: number;
	/** The error answers by status and start of body, e.g. `503 {"code":503,"message":"Database is not ready!"`. */
	errors: Record<string, number>;
	other: string[];
	lost: number;
	processedTwice: number;
	/** Executions n8n's list left out (main still held them as running) and read one by one. */
	hiddenFromList: number;
	ms: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Delivers one copy, starting at `urls[first]`; errors go to the next process, for up to `patienceMs`. */
async function deliver(
	urls: () => string[],
	first: number,
	secret: string,
	payload: unknown,
	patienceMs: number,
	count: (answer: Answer) => void,
): Promise<Answer> {
	const deadline = Date.now() + patienceMs;
	for (let attempt = 0; ; attempt++) {
		const list = urls();
		const url = list[(first + attempt) % list.length];
		const answer = await post(url, secret, payload).catch((error: Error) => ({
			status: 599,
			body: error.message,
		}));
		if (answer.status < 500 || Date.now() > deadline) return answer;
		count(answer);
		await sleep(Math.min(500 * 2 ** attempt, 4000));
	}
}

export interface Spread {
	/** The receiving processes' trigger URLs, read at every attempt (a test may change them). */
	urls: () => string[];
	secret: string;
	n8n: N8n;
	workflowId: string;
	trigger: string;
	/** Keys that must already have their one execution (earlier bursts). */
	before: Delivery[];
	patienceMs?: number;
	/** Called once with the number of answers so far, while the burst runs (to inject a fault). */
	during?: { afterAnswers: number; fault: () => Promise<void> };
}

export async function spreadBurst(spread: Spread, list: Delivery[], concurrency: number) {
	const started = Date.now();
	const answers: Answer[] = [];
	let retries = 0;
	let next = 0;
	let fault: Promise<void> | undefined;
	const errors: Record<string, number> = {};
	const count = (answer: Answer) => {
		retries += 1;
		const kind = `${answer.status} ${answer.body.slice(0, 60)}`;
		errors[kind] = (errors[kind] ?? 0) + 1;
	};
	const receivers = spread.urls().length;
	const worker = async () => {
		while (next < list.length) {
			const index = next++;
			const copies = index % 5 === 0 ? [index, index + 1] : [index];
			const got = await Promise.all(
				copies.map(
					async (first) =>
						await deliver(
							spread.urls,
							first % receivers,
							spread.secret,
							list[index].payload,
							spread.patienceMs ?? 60_000,
							count,
						),
				),
			);
			answers.push(...got);
			if (spread.during && !fault && answers.length >= spread.during.afterAnswers)
				fault = spread.during.fault();
		}
	};
	await Promise.all(Array.from({ length: concurrency }, worker));
	await fault;
	const ms = Date.now() - started;
	const all = [...spread.before, ...list];
	const keys = await settledKeys(spread.n8n, spread.workflowId, spread.trigger, all, 120_000);
	const { lost, twice } = judge(all, keys);
	const figures: ReceiverFigures = {
		receivers,
		concurrency,
		distinct: list.length,
		resends: answers.length - list.length,
		...tally(answers),
		retries,
		errors,
		lost: lost.length,
		processedTwice: twice.length,
		hiddenFromList: lastHidden,
		ms,
	};
	return { figures, lost, twice, extra: keys.length - all.length, answers };
}
