import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

export interface RequestSettings {
	timeoutMs: number;
	maxRetries: number;
	maxRetryWaitSeconds: number;
	/** Longest time spent waiting across all retries of one request. */
	maxTotalRetryWaitSeconds: number;
}

export const DEFAULT_REQUEST_SETTINGS: RequestSettings = {
	timeoutMs: 30000,
	maxRetries: 3,
	maxRetryWaitSeconds: 60,
	maxTotalRetryWaitSeconds: 300,
};

const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 30000;

/** Each request option: its name in the panel and the range it must be in. */
const LIMITS: Record<keyof RequestSettings, { displayName: string; min: number; max: number; integer?: boolean }> = {
	timeoutMs: { displayName: 'Timeout', min: 1, max: 600000 },
	maxRetries: { displayName: 'Max Retries', min: 0, max: 10, integer: true },
	maxRetryWaitSeconds: { displayName: 'Max Retry Wait (Seconds)', min: 0, max: 3600 },
	maxTotalRetryWaitSeconds: { displayName: 'Max Total Retry Wait (Seconds)', min: 0, max: 36000 },
};

/**
 * The request options of an item, each checked against its range: a value out of range (typed, or
 * from an expression, numeric text included) stops the item before anything is sent; it is never
 * clamped or replaced by the default.
 */
export function getRequestSettings(ctx: IExecuteFunctions, itemIndex: number): RequestSettings {
	const options = ctx.getNodeParameter('requestOptions', itemIndex, {}) as Record<string, unknown>;
	const settings = { ...DEFAULT_REQUEST_SETTINGS };
	for (const key of Object.keys(LIMITS) as Array<keyof RequestSettings>) {
		const given = options[key];
		if (given === undefined || given === null || given === '') continue;
		const { displayName, min, max, integer } = LIMITS[key];
		const value = typeof given === 'string' ? Number(given.trim()) : given;
		if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
			const kind = integer ? 'a whole number' : 'a number';
			throw new NodeOperationError(
				ctx.getNode(),
				`${displayName} (Request Options) must be ${kind} from ${min} to ${max} (received ${JSON.stringify(given)})`,
				{ itemIndex, description: 'Nothing was sent to the service. Change the value under Request Options and run again.' },
			);
		}
		settings[key] = value;
	}
	return settings;
}

/** Seconds to wait from a Retry-After header (seconds or an HTTP date), if it has one. */
export function parseRetryAfter(value: unknown, now = Date.now()): number | undefined {
	if (typeof value !== 'string' && typeof value !== 'number') return undefined;
	const text = String(value).trim();
	if (/^\d+(\.\d+)?$/.test(text)) return Number(text);
	const date = Date.parse(text);
	return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000);
}

export function backoffMs(attempt: number): number {
	const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt);
	return ceiling / 2 + Math.random() * (ceiling / 2);
}

/** What happened to one attempt, as far as retrying is concerned. */
export type AttemptKind = 'rateLimited' | 'serverError' | 'networkError' | 'final';

export type RetryPlan = { retry: true; waitMs: number } | { retry: false; reason?: string };

/**
 * Whether to send again. A 429 means the service refused without acting, so it is retried on every
 * request; a 5xx or a lost connection may hide a request that went through, so only requests that
 * cannot act twice are retried after them.
 */
export function planRetry(
	kind: AttemptKind,
	retrySafe: boolean,
	attempt: number,
	waitedMs: number,
	settings: RequestSettings,
	retryAfterSeconds: number | undefined,
): RetryPlan {
	if (kind === 'final') return { retry: false };
	if (kind !== 'rateLimited' && !retrySafe) return { retry: false };
	if (attempt >= settings.maxRetries) return { retry: false };
	if (retryAfterSeconds !== undefined && retryAfterSeconds > settings.maxRetryWaitSeconds) {
		return {
			retry: false,
			reason: `The service asked to wait ${retryAfterSeconds} s, longer than Max Retry Wait (${settings.maxRetryWaitSeconds} s).`,
		};
	}
	const waitMs = retryAfterSeconds !== undefined ? Math.max(retryAfterSeconds * 1000, 1) : backoffMs(attempt);
	const budgetMs = settings.maxTotalRetryWaitSeconds * 1000;
	if (waitedMs + waitMs > budgetMs) {
		return {
			retry: false,
			reason: `Waiting ${Math.ceil(waitMs / 1000)} s more would pass Max Total Retry Wait (${settings.maxTotalRetryWaitSeconds} s; ${Math.round(waitedMs / 1000)} s already spent waiting).`,
		};
	}
	return { retry: true, waitMs };
}
