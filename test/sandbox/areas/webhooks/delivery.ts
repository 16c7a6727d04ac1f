import type { ClientRequest } from 'node:http';

import { HttpError } from '../../core/http';
import type { SandboxKeys } from '../../core/keys';
import { isLoopbackHost, postOnce, type PostOutcome } from '../../core/post';
import type { SandboxState, WebhookAttempt, WebhookEvent } from '../../core/state';

/**
 * Waits before retries 1-5 (scaled by settings.webhookRetryDelayScale): 6 tries at most. The spec
 * does not show the service's schedule; this is ours.
 */
export const WEBHOOK_RETRY_DELAYS_MS: readonly number[] = [1000, 2000, 4000, 8000, 16_000];

export interface DeliverOptions {
	/** created (default): oldest first; reverse: newest first, to test out-of-order handling. */
	order?: 'created' | 'reverse';
}

/** What tests get as `sandbox.webhooks`. */
export interface SandboxWebhooks {
	/** Resolves when no delivery or retry is queued, scheduled or in flight. */
	idle(): Promise<void>;
	/** Delivers the pending events not already under way; resolves when all are settled. */
	deliverPending(options?: DeliverOptions): Promise<WebhookEvent[]>;
	/** A new delivery run (fresh retry budget) for any event with a URL; resolves when settled. */
	redeliver(eventId: string): Promise<WebhookEvent>;
	/** Every attempt, oldest first (the same array as state.webhookAttempts). */
	attempts: WebhookAttempt[];
}

export { isLoopbackHost };

/** Why a URL gets no request ('' = none): the spec's "no webhooks to non-HTTPS endpoints". */
export function webhookRefusal(target: string): string {
	let url: URL;
	try {
		url = new URL(target);
	} catch {
		return 'refused: not an absolute URL';
	}
	if (url.protocol === 'https:') return '';
	if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return '';
	return `refused: ${url.protocol}// to ${url.hostname} is not HTTPS (plain HTTP only to loopback)`;
}

export class WebhookDeliverer {
	/** Active or queued run per event id; a second start joins it. */
	private readonly runs = new Map<string, Promise<void>>();

	/** Last auto run per p_order_id: an order's events arrive in order unless a test says not. */
	private readonly tails = new Map<string, Promise<void>>();

	/** Everything idle() waits for. */
	private readonly busy = new Set<Promise<unknown>>();

	/** Retry waits, with the resolver that ends them early on stop. */
	private readonly timers = new Map<NodeJS.Timeout, () => void>();

	private readonly requests = new Set<ClientRequest>();

	private stopped = false;

	constructor(
		private readonly state: SandboxState,
		private readonly keys: SandboxKeys,
	) {}

	/** The Sandbox-facing API. */
	api(): SandboxWebhooks {
		return {
			idle: () => this.idle(),
			deliverPending: (options) => this.deliverPending(options),
			redeliver: async (eventId) => {
				const { event, done } = this.startRedelivery(eventId);
				await done;
				return event;
			},
			attempts: this.state.webhookAttempts,
		};
	}

	/** state.onEvent: auto mode starts the event's delivery after the order's previous ones. */
	onEvent(event: WebhookEvent): void {
		if (this.stopped || event.url === '' || this.state.settings.webhookDelivery !== 'auto') return;
		const order = event.p_order_id;
		const run = this.start(event, this.tails.get(order));
		this.tails.set(order, run);
		void run.then(() => {
			if (this.tails.get(order) === run) this.tails.delete(order);
		});
	}

	async idle(): Promise<void> {
		while (this.busy.size > 0) await Promise.allSettled([...this.busy]);
	}

	/** Pending events with a URL and no run, in the chosen order (picked synchronously). */
	pendingEvents(options: DeliverOptions = {}): WebhookEvent[] {
		const chosen = this.state.events.filter(
			(e) => e.pending && e.url !== '' && !this.runs.has(e.id),
		);
		return options.order === 'reverse' ? chosen.reverse() : chosen;
	}

	deliverPending(options: DeliverOptions = {}): Promise<WebhookEvent[]> {
		const events = this.pendingEvents(options);
		return this.deliverInOrder(events).then(() => events);
	}

	/**
	 * Each event's first attempt ends before the next one starts, so the receiver sees this order;
	 * retries then run side by side.
	 */
	deliverInOrder(events: WebhookEvent[]): Promise<void> {
		const work = (async () => {
			const runs: Promise<void>[] = [];
			for (const event of events) {
				let firstDone: () => void = () => undefined;
				const first = new Promise<void>((resolve) => (firstDone = resolve));
				runs.push(this.start(event, undefined, firstDone));
				await first;
			}
			await Promise.all(runs);
		})();
		this.track(work);
		return work;
	}

	/** Throws HttpError 404 / 409 at once, so the HTTP control can answer before it is done. */
	startRedelivery(eventId: string): { event: WebhookEvent; done: Promise<void> } {
		const event = this.state.events.find((e) => e.id === eventId);
		if (!event) throw new HttpError(404, `Event ${eventId} not found`);
		if (event.url === '') throw new HttpError(409, `Event ${eventId} has no webhook URL`);
		return { event, done: this.runs.get(event.id) ?? this.start(event) };
	}

	/** Cancels retries, aborts requests in flight; events under way stay pending. */
	async stop(): Promise<void> {
		this.stopped = true;
		for (const [timer, wake] of this.timers) {
			clearTimeout(timer);
			wake();
		}
		this.timers.clear();
		for (const request of this.requests) request.destroy(new Error('sandbox stopped'));
		await this.idle();
	}

	private start(event: WebhookEvent, after?: Promise<void>, onFirst?: () => void): Promise<void> {
		event.pending = true;
		event.delivery = 'pending';
		const run = (after ?? Promise.resolve()).then(() => this.run(event, onFirst));
		this.runs.set(event.id, run);
		const clear = () => {
			if (this.runs.get(event.id) === run) this.runs.delete(event.id);
		};
		void run.then(clear, clear);
		this.track(run);
		return run;
	}

	private async run(event: WebhookEvent, onFirst?: () => void): Promise<void> {
		try {
			for (let retry = 0; ; retry += 1) {
				if (this.stopped) return;
				const attempt = await this.attempt(event);
				onFirst?.();
				onFirst = undefined;
				if (attempt.ok) break;
				// Stopped: the event stays pending, as if the sandbox went down mid-delivery.
				if (this.stopped) return;
				const delay = WEBHOOK_RETRY_DELAYS_MS[retry];
				// A refusal would be refused again: no retries.
				if (webhookRefusal(event.url) !== '' || delay === undefined) {
					event.pending = false;
					event.delivery = 'failed';
					return;
				}
				await this.sleep(delay * this.state.settings.webhookRetryDelayScale);
			}
			event.pending = false;
			event.delivery = 'delivered';
			if (this.state.settings.webhookDuplicate && !this.stopped) await this.attempt(event, true);
		} catch (error) {
			// Only a sandbox bug lands here; never leave a rejected run behind.
			event.pending = false;
			event.delivery = 'failed';
			console.error(`webhook ${event.id}:`, error);
		} finally {
			onFirst?.();
		}
	}

	private async attempt(event: WebhookEvent, duplicate = false): Promise<WebhookAttempt> {
		event.attempts += 1;
		const record: WebhookAttempt = {
			eventId: event.id,
			url: event.url,
			attempt: event.attempts,
			ok: false,
			...(duplicate && { duplicate: true }),
			at: Date.now(),
			durationMs: 0,
		};
		const refusal = webhookRefusal(event.url);
		const outcome: PostOutcome = refusal
			? { error: refusal }
			: await this.post(event.url, JSON.stringify(event.payload));
		const status = outcome.status ?? 0;
		if (outcome.status !== undefined) record.status = status;
		if (outcome.error !== undefined) record.error = outcome.error;
		record.ok = outcome.error === undefined && status >= 200 && status < 300;
		record.durationMs = Date.now() - record.at;
		this.state.webhookAttempts.push(record);
		return record;
	}

	private post(target: string, body: string): Promise<PostOutcome> {
		return postOnce(target, {
			body,
			headers: {
				'content-type': 'application/json',
				'notification-secret': this.keys.webhook.notificationSecret,
			},
			timeoutMs: this.state.settings.webhookTimeoutMs,
			inFlight: this.requests,
		});
	}

	private sleep(ms: number): Promise<void> {
		return new Promise((resolve) => {
			if (this.stopped) return resolve();
			const timer = setTimeout(() => {
				this.timers.delete(timer);
				resolve();
			}, ms);
			// Retries alone must not keep a process alive.
			timer.unref();
			this.timers.set(timer, resolve);
		});
	}

	private track(work: Promise<unknown>): void {
		this.busy.add(work);
		const done = () => this.busy.delete(work);
		void work.then(done, done);
	}
}
