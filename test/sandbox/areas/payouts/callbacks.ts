// Payout results posted to callback_url: each row's states on their schedule, repeated or out of
// order when the settings say so, retried on 401 / 5xx / no answer a few times (docs/sandbox.md).
import type { ClientRequest } from 'node:http';

import { postOnce } from '../../core/post';
import { WEBHOOK_RETRY_DELAYS_MS } from '../webhooks/delivery';
import type { PayoutBatch, PayoutCallbackAttempt } from './model';
import { planResults, reachStep, resultEntry, resultsBody } from './results';
import type { PayoutSettings } from './settings';

/** Per attempt, connect to end of response. */
export const PAYOUT_CALLBACK_TIMEOUT_MS = 5000;

/** Answers worth another try: no answer, 401 (a secret being rotated), 408, 429, 5xx. */
export const isRetryable = (attempt: PayoutCallbackAttempt): boolean =>
	attempt.status === undefined ||
	attempt.error !== undefined ||
	[401, 408, 429].includes(attempt.status) ||
	attempt.status >= 500;

/** One post as sent, every copy and retry with the same bytes. */
interface Post {
	post: number;
	copy: number;
	body: string;
	headers: Record<string, string>;
	results: PayoutCallbackAttempt['results'];
	/** settings.payoutCallbackRetryDelayScale when the batch was accepted. */
	retryScale: number;
}

/** A batch's schedule, as read when it was accepted. */
interface Run {
	batch: PayoutBatch;
	settings: PayoutSettings;
	secret: string;
	/** Longest list of posted states among the rows. */
	steps: number;
}

/** Sends batch results to callback_url; stop() cancels what is left. */
export class PayoutCallbacks {
	/** Scheduled steps. */
	private readonly timers = new Set<NodeJS.Timeout>();

	/** Retry waits, with the resolver that ends them early on stop. */
	private readonly sleeps = new Map<NodeJS.Timeout, () => void>();

	/** Everything idle() waits for. */
	private readonly busy = new Set<Promise<unknown>>();

	/** Per batch: the posts so far, so each starts after the previous one's first attempt. */
	private readonly tails = new Map<string, Promise<void>>();

	/** Posts numbered so far per batch. */
	private readonly numbered = new Map<string, number>();

	private readonly requests = new Set<ClientRequest>();

	private stopped = false;

	/** Steps scheduled, posts under way or waiting to retry. */
	get pending(): number {
		return this.timers.size + this.busy.size;
	}

	/**
	 * Plans every row's result (batch.results) and schedules its steps: step 0 after the delay,
	 * each next one a step after the previous one happened. The settings are read now, when the
	 * batch is accepted. Rows move on without a callback_url too; only the posts need one.
	 */
	schedule(batch: PayoutBatch, settings: PayoutSettings, secret: string): void {
		batch.results = planResults(batch.request_id, batch.rows, batch.queuedAt, settings);
		const steps = Math.max(0, ...batch.results.map((r) => r.posted.length));
		this.later(settings.payoutCallbackDelayMs, () =>
			this.runStep({ batch, settings, secret, steps }, 0),
		);
	}

	/** Resolves once nothing is scheduled, in flight or waiting to retry. */
	async idle(): Promise<void> {
		while (this.pending > 0) {
			await Promise.allSettled([...this.busy]);
			if (this.timers.size > 0) await new Promise((resolve) => setTimeout(resolve, 5));
		}
	}

	async stop(): Promise<void> {
		this.stopped = true;
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
		for (const [timer, wake] of this.sleeps) {
			clearTimeout(timer);
			wake();
		}
		this.sleeps.clear();
		for (const request of this.requests) request.destroy(new Error('cancelled'));
		while (this.busy.size > 0) await Promise.allSettled([...this.busy]);
	}

	private later(ms: number, then: () => void): void {
		if (this.stopped) return;
		const timer = setTimeout(() => {
			this.timers.delete(timer);
			then();
		}, ms);
		this.timers.add(timer);
	}

	private runStep(run: Run, step: number): void {
		const { batch, settings, steps } = run;
		const now = Date.now();
		for (const result of batch.results) reachStep(result, step, now);
		if (step + 1 < steps)
			this.later(settings.payoutResultStepMs, () => this.runStep(run, step + 1));
		if (batch.callback_url === '') return;
		if (!settings.payoutResultsOutOfOrder) {
			this.enqueue(batch, this.postsOf(run, [step], now));
		} else if (step === steps - 1) {
			// Out of order: once every state has happened, the latest ones go first.
			const order = Array.from({ length: steps }, (_, i) => steps - 1 - i);
			this.enqueue(batch, this.postsOf(run, order, now));
		}
	}

	/** The posts of these steps: rows chunked by rowsPerPost, each chunk `repeat` times. */
	private postsOf({ batch, settings, secret }: Run, steps: number[], now: number): Post[] {
		const posts: Post[] = [];
		let number = this.numbered.get(batch.request_id) ?? 0;
		for (const step of steps) {
			const entries = batch.results
				.filter((r) => r.posted[step] !== undefined)
				.map((r) => resultEntry(r, step, batch.currency));
			const size = settings.payoutResultsRowsPerPost || entries.length;
			for (let start = 0; start < entries.length; start += size) {
				const chunk = entries.slice(start, start + size);
				const json = JSON.stringify(resultsBody(batch.request_id, now, chunk));
				const form = settings.payoutResultsForm;
				const body = form ? new URLSearchParams({ payload: json }).toString() : json;
				const headers: Record<string, string> = {
					'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json',
					...(settings.payoutResultsSendSecret && { 'notification-secret': secret }),
				};
				const results = chunk.map(({ reference_no, status }) => ({ reference_no, status }));
				number += 1;
				for (let copy = 1; copy <= settings.payoutResultsRepeat; copy += 1) {
					const retryScale = settings.payoutCallbackRetryDelayScale;
					posts.push({ post: number, copy, body, headers, results, retryScale });
				}
			}
		}
		this.numbered.set(batch.request_id, number);
		return posts;
	}

	/** Each post's first attempt ends before the next starts (the receiver sees this order). */
	private enqueue(batch: PayoutBatch, posts: Post[]): void {
		const previous = this.tails.get(batch.request_id) ?? Promise.resolve();
		const work = previous.then(async () => {
			for (const post of posts) {
				if (this.stopped) return;
				let firstDone: () => void = () => undefined;
				const first = new Promise<void>((resolve) => (firstDone = resolve));
				this.track(this.run(batch, post, firstDone));
				await first;
			}
		});
		this.tails.set(batch.request_id, work);
		this.track(work);
		void work.then(() => {
			if (this.tails.get(batch.request_id) === work) this.tails.delete(batch.request_id);
		});
	}

	private async run(batch: PayoutBatch, post: Post, onFirst: () => void): Promise<void> {
		try {
			for (let retry = 0; ; retry += 1) {
				const attempt = await this.attempt(batch, post, retry + 1);
				onFirst();
				const wait = WEBHOOK_RETRY_DELAYS_MS[retry];
				if (this.stopped || !isRetryable(attempt) || wait === undefined) return;
				await this.sleep(wait * post.retryScale);
				if (this.stopped) return;
			}
		} finally {
			onFirst();
		}
	}

	private async attempt(batch: PayoutBatch, post: Post, attempt: number) {
		const record: PayoutCallbackAttempt = {
			post: post.post,
			copy: post.copy,
			attempt,
			at: Date.now(),
			durationMs: 0,
			ok: false,
			results: post.results,
		};
		batch.callbackAttempts.push(record);
		const outcome = await postOnce(batch.callback_url, {
			body: post.body,
			headers: post.headers,
			timeoutMs: PAYOUT_CALLBACK_TIMEOUT_MS,
			inFlight: this.requests,
		});
		if (outcome.status !== undefined) record.status = outcome.status;
		if (outcome.error !== undefined) record.error = this.stopped ? 'cancelled' : outcome.error;
		const status = record.status ?? 0;
		record.ok = record.error === undefined && status >= 200 && status < 300;
		record.durationMs = Date.now() - record.at;
		return record;
	}

	private sleep(ms: number): Promise<void> {
		return new Promise((resolve) => {
			const timer = setTimeout(() => {
				this.sleeps.delete(timer);
				resolve();
			}, ms);
			timer.unref();
			this.sleeps.set(timer, resolve);
		});
	}

	private track(work: Promise<unknown>): void {
		this.busy.add(work);
		const done = () => this.busy.delete(work);
		void work.then(done, done);
	}
}
