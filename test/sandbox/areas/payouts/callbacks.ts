// The bulk payout callback: one POST of the batch result to callback_url, after a delay.
import type { PayoutBatch, PayoutCallbackAttempt } from './model';

/** Our callback body (the spec does not show one). */
export function payoutCallbackBody(batch: PayoutBatch) {
	return {
		request_id: batch.request_id,
		status: 'QUEUED',
		total_records: batch.rows.length,
		payouts: batch.rows.map((row) => ({
			reference_no: row['Reference No'],
			amount: Number(row.Amount).toFixed(2),
			status: 'QUEUED',
		})),
	};
}

/** Per attempt, connect to end of response. */
export const PAYOUT_CALLBACK_TIMEOUT_MS = 5000;

/** Sends batch results to callback_url once, after a delay; stop() cancels what is left. */
export class PayoutCallbacks {
	private readonly timers = new Set<NodeJS.Timeout>();

	private readonly inFlight = new Set<Promise<void>>();

	private readonly controller = new AbortController();

	/** Scheduled or in flight. */
	get pending(): number {
		return this.timers.size + this.inFlight.size;
	}

	schedule(batch: PayoutBatch, delayMs: number): void {
		if (this.controller.signal.aborted) return;
		const timer = setTimeout(() => {
			this.timers.delete(timer);
			const sending = this.send(batch).finally(() => this.inFlight.delete(sending));
			this.inFlight.add(sending);
		}, delayMs);
		this.timers.add(timer);
	}

	/** Resolves once nothing is scheduled or in flight (tests). */
	async idle(): Promise<void> {
		while (this.pending > 0) {
			await Promise.all(this.inFlight);
			if (this.timers.size > 0) await new Promise((resolve) => setTimeout(resolve, 5));
		}
	}

	async stop(): Promise<void> {
		for (const timer of this.timers) clearTimeout(timer);
		this.timers.clear();
		this.controller.abort();
		await Promise.all(this.inFlight);
	}

	private async send(batch: PayoutBatch): Promise<void> {
		const attempt: PayoutCallbackAttempt = { at: Date.now() };
		batch.callbackAttempts.push(attempt);
		try {
			const response = await fetch(batch.callback_url, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(payoutCallbackBody(batch)),
				signal: AbortSignal.any([
					this.controller.signal,
					AbortSignal.timeout(PAYOUT_CALLBACK_TIMEOUT_MS),
				]),
			});
			await response.arrayBuffer();
			attempt.status = response.status;
		} catch (error) {
			attempt.error = this.controller.signal.aborted ? 'cancelled' : (error as Error).message;
		}
	}
}
