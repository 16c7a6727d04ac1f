import { NodeOperationError } from 'n8n-workflow';

import type { NodeContext } from '../helpers/context';
import { nodeParameter } from '../helpers/context';

export interface RequestSettings {
	timeoutMs: number;
	maxRetries: number;
	maxRetryWaitSeconds: number;
	/** Longest time spent waiting across all retries of one request. */
	maxTotalRetryWaitSeconds: number;
}

/** One request option, declared once: the panel's property and the reader's range come from it. */
export interface RequestOption {
	displayName: string;
	default: number;
	min: number;
	max: number;
	integer?: boolean;
	description: string;
}

/** Parallel Requests allows at most this many items in flight. */
export const MAX_PARALLEL_REQUESTS = 20;

/** The Request Options, in the order the panel lists them. */
export const REQUEST_OPTIONS: Record<keyof RequestSettings | 'parallelRequests', RequestOption> = {
	maxRetries: {
		displayName: 'Max Retries',
		default: 3,
		min: 0,
		max: 10,
		integer: true,
		description:
			'How many times a request is retried, with exponential backoff: every request after HTTP 429 (the service did not act), and after HTTP 5xx, a time-out or a dropped connection only requests that cannot act twice',
	},
	maxRetryWaitSeconds: {
		displayName: 'Max Retry Wait (Seconds)',
		default: 60,
		min: 0,
		max: 3600,
		description:
			'Longest Retry-After the node honours; a longer one fails the item instead of waiting',
	},
	maxTotalRetryWaitSeconds: {
		displayName: 'Max Total Retry Wait (Seconds)',
		default: 300,
		min: 0,
		max: 36000,
		description:
			'Longest time spent waiting across all retries of one request; a retry that would pass it fails the item instead',
	},
	parallelRequests: {
		displayName: 'Parallel Requests',
		default: 1,
		min: 1,
		max: MAX_PARALLEL_REQUESTS,
		integer: true,
		description:
			'How many items may have a request in flight at once, for operations that send one request per item. Output keeps the input order. All requests share one rate limit: a 429 pauses them all.',
	},
	timeoutMs: {
		displayName: 'Timeout',
		default: 30000,
		min: 1,
		max: 600000,
		description: 'How long to wait for the service to answer each request, in milliseconds',
	},
};

const SETTING_KEYS: Array<keyof RequestSettings> = [
	'timeoutMs',
	'maxRetries',
	'maxRetryWaitSeconds',
	'maxTotalRetryWaitSeconds',
];

const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 30000;

/**
 * One request option of an item, checked against its range: a value out of range (typed, or from
 * an expression, numeric text included) stops the item before anything is sent; it is never
 * clamped or replaced by the default.
 */
export function requestOption(
	ctx: NodeContext,
	itemIndex: number,
	key: keyof typeof REQUEST_OPTIONS,
): number {
	const options = nodeParameter(ctx, 'requestOptions', itemIndex, {}) as Record<string, unknown>;
	const { displayName, min, max, integer, default: fallback } = REQUEST_OPTIONS[key];
	const given = options[key];
	if (given === undefined || given === null || given === '') return fallback;
	const value = typeof given === 'string' ? Number(given.trim()) : given;
	if (
		typeof value !== 'number' ||
		!Number.isFinite(value) ||
		value < min ||
		value > max ||
		(integer && !Number.isInteger(value))
	) {
		const kind = integer ? 'a whole number' : 'a number';
		throw new NodeOperationError(
			ctx.getNode(),
			`${displayName} (Request Options) must be ${kind} from ${min} to ${max} (received ${JSON.stringify(given)})`,
			{
				itemIndex,
				description:
					'Nothing was sent to the service. Change the value under Request Options and run again.',
			},
		);
	}
	return value;
}

/** Parallel Requests of this run (read once: the run has one item pool and one rate gate). */
export function getParallelRequests(ctx: NodeContext): number {
	return requestOption(ctx, 0, 'parallelRequests');
}

/** The request settings of an item, each option checked (see requestOption). */
export function getRequestSettings(ctx: NodeContext, itemIndex: number): RequestSettings {
	return Object.fromEntries(
		SETTING_KEYS.map((key) => [key, requestOption(ctx, itemIndex, key)]),
	) as unknown as RequestSettings;
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
	const waitMs =
		retryAfterSeconds !== undefined ? Math.max(retryAfterSeconds * 1000, 1) : backoffMs(attempt);
	const budgetMs = settings.maxTotalRetryWaitSeconds * 1000;
	if (waitedMs + waitMs > budgetMs) {
		return {
			retry: false,
			reason: `Waiting ${Math.ceil(waitMs / 1000)} s more would pass Max Total Retry Wait (${settings.maxTotalRetryWaitSeconds} s; ${Math.round(waitedMs / 1000)} s already spent waiting).`,
		};
	}
	return { retry: true, waitMs };
}
