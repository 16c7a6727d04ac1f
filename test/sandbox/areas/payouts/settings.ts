// The merchant settings of bulk payout results (part of MerchantSettings, see core/state.ts).

/** What a row becomes when neither its Remark nor its Reference No carries a marker. */
export const PAYOUT_OUTCOMES = ['processed', 'failed', 'rejected', 'reversed', 'queued'] as const;
export type PayoutOutcome = (typeof PAYOUT_OUTCOMES)[number];

export interface PayoutSettings {
	/** Wait between an accepted bulk payout and its first callback_url POST. */
	payoutCallbackDelayMs: number;
	/** Outcome of rows without an `sbx:` marker. */
	payoutDefaultOutcome: PayoutOutcome;
	/** Wait between a row's successive states (queued → processed → reversed). */
	payoutResultStepMs: number;
	/** Every row is first posted as queued. */
	payoutResultsQueuedFirst: boolean;
	/** A row's later state is posted before its earlier one (once both have happened). */
	payoutResultsOutOfOrder: boolean;
	/** Each post is sent this many times. */
	payoutResultsRepeat: number;
	/** Rows per post; 0 = every row of a step in one post. */
	payoutResultsRowsPerPost: number;
	/** Form body (payload=<JSON>) instead of JSON. */
	payoutResultsForm: boolean;
	/** Send the notification-secret header (off: as if no secret were configured). */
	payoutResultsSendSecret: boolean;
	/** Multiplies the retry waits (WEBHOOK_RETRY_DELAYS_MS) so tests can wait milliseconds. */
	payoutCallbackRetryDelayScale: number;
}

export const defaultPayoutSettings = (): PayoutSettings => ({
	payoutCallbackDelayMs: 100,
	payoutDefaultOutcome: 'processed',
	payoutResultStepMs: 1000,
	payoutResultsQueuedFirst: false,
	payoutResultsOutOfOrder: false,
	payoutResultsRepeat: 1,
	payoutResultsRowsPerPost: 0,
	payoutResultsForm: false,
	payoutResultsSendSecret: true,
	payoutCallbackRetryDelayScale: 1,
});

const INTEGER_MINIMUM: Partial<Record<keyof PayoutSettings, number>> = {
	payoutCallbackDelayMs: 0,
	payoutResultStepMs: 0,
	payoutResultsRepeat: 1,
	payoutResultsRowsPerPost: 0,
};

/** The rule a value for a payout setting breaks, or undefined (booleans: state.ts's type check). */
export function payoutSettingRule(name: string, value: unknown): string | undefined {
	const minimum = INTEGER_MINIMUM[name as keyof PayoutSettings];
	if (minimum !== undefined) {
		const ok = Number.isInteger(value) && (value as number) >= minimum;
		return ok ? undefined : minimum === 0 ? 'a non-negative integer' : `an integer ≥ ${minimum}`;
	}
	if (name === 'payoutDefaultOutcome') {
		const ok = (PAYOUT_OUTCOMES as readonly unknown[]).includes(value);
		return ok ? undefined : `one of ${PAYOUT_OUTCOMES.join(', ')}`;
	}
	if (name === 'payoutCallbackRetryDelayScale') {
		const ok = typeof value === 'number' && Number.isFinite(value) && value >= 0;
		return ok ? undefined : 'a non-negative number';
	}
	return undefined;
}
