import type { IExecuteFunctions } from 'n8n-workflow';

import {
	backoffMs,
	getParallelRequests,
	getRequestSettings,
	parseRetryAfter,
	planRetry,
	REQUEST_OPTIONS,
} from '../../../../nodes/PaymentGateway/transport/settings';

/** Just enough of an execution context: the Request Options collection as n8n hands it over. */
const ctxWith = (requestOptions: Record<string, unknown>) =>
	({
		getNodeParameter: (name: string) => (name === 'requestOptions' ? requestOptions : undefined),
		getNode: () => ({
			name: 'Gateway',
			type: 'test',
			typeVersion: 2,
			position: [0, 0],
			parameters: {},
		}),
	}) as unknown as IExecuteFunctions;

describe('Request Options', () => {
	it('defaults to 30 s, 3 retries, 60 s per wait, 300 s in all, one request at a time', () => {
		expect(getRequestSettings(ctxWith({}), 0)).toEqual({
			timeoutMs: 30000,
			maxRetries: 3,
			maxRetryWaitSeconds: 60,
			maxTotalRetryWaitSeconds: 300,
		});
		expect(getParallelRequests(ctxWith({}))).toBe(1);
	});

	it('lists the options in the panel in alphabetical order of their names', () => {
		expect(Object.values(REQUEST_OPTIONS).map((o) => o.displayName)).toEqual([
			'Max Retries',
			'Max Retry Wait (Seconds)',
			'Max Total Retry Wait (Seconds)',
			'Parallel Requests',
			'Timeout',
		]);
	});

	it('takes numbers and numeric text, empty values falling back to the default', () => {
		const settings = getRequestSettings(
			ctxWith({ timeoutMs: ' 1500 ', maxRetries: 0, maxRetryWaitSeconds: '' }),
			0,
		);
		expect(settings).toMatchObject({ timeoutMs: 1500, maxRetries: 0, maxRetryWaitSeconds: 60 });
		expect(getParallelRequests(ctxWith({ parallelRequests: '20' }))).toBe(20);
	});

	it.each([
		[{ timeoutMs: 0 }, 'Timeout (Request Options) must be a number from 1 to 600000 (received 0)'],
		[
			{ timeoutMs: 600001 },
			'Timeout (Request Options) must be a number from 1 to 600000 (received 600001)',
		],
		[
			{ maxRetries: 11 },
			'Max Retries (Request Options) must be a whole number from 0 to 10 (received 11)',
		],
		[
			{ maxRetries: 2.5 },
			'Max Retries (Request Options) must be a whole number from 0 to 10 (received 2.5)',
		],
		[
			{ maxRetryWaitSeconds: 3601 },
			'Max Retry Wait (Seconds) (Request Options) must be a number from 0 to 3600 (received 3601)',
		],
		[
			{ maxTotalRetryWaitSeconds: -1 },
			'Max Total Retry Wait (Seconds) (Request Options) must be a number from 0 to 36000 (received -1)',
		],
		[
			{ timeoutMs: { ms: 5 } },
			'Timeout (Request Options) must be a number from 1 to 600000 (received {"ms":5})',
		],
	])('refuses %j rather than clamping it', (options, message) => {
		expect(() => getRequestSettings(ctxWith(options), 3)).toThrow(message);
	});

	it('refuses Parallel Requests outside 1-20', () => {
		expect(() => getParallelRequests(ctxWith({ parallelRequests: 21 }))).toThrow(
			'Parallel Requests (Request Options) must be a whole number from 1 to 20 (received 21)',
		);
		expect(() => getParallelRequests(ctxWith({ parallelRequests: 0 }))).toThrow(
			'from 1 to 20 (received 0)',
		);
	});
});

describe('Retry-After', () => {
	it('reads seconds, fractions and HTTP dates; nothing else', () => {
		expect(parseRetryAfter('7')).toBe(7);
		expect(parseRetryAfter(' 1.5 ')).toBe(1.5);
		expect(parseRetryAfter(3)).toBe(3);
		const now = Date.parse('2026-01-01T00:00:00Z');
		expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30);
		expect(parseRetryAfter('Wed, 31 Dec 2025 23:59:00 GMT', now)).toBe(0);
		expect(parseRetryAfter('soon')).toBeUndefined();
		expect(parseRetryAfter(undefined)).toBeUndefined();
	});
});

describe('backoff', () => {
	it('waits between half and all of 500 ms × 2^attempt, at most 30 s', () => {
		for (let i = 0; i < 200; i++) {
			const first = backoffMs(0);
			expect(first).toBeGreaterThanOrEqual(250);
			expect(first).toBeLessThanOrEqual(500);
			const third = backoffMs(2);
			expect(third).toBeGreaterThanOrEqual(1000);
			expect(third).toBeLessThanOrEqual(2000);
			const late = backoffMs(20);
			expect(late).toBeGreaterThanOrEqual(15000);
			expect(late).toBeLessThanOrEqual(30000);
		}
	});
});

describe('retry plan', () => {
	const settings = {
		timeoutMs: 1000,
		maxRetries: 3,
		maxRetryWaitSeconds: 60,
		maxTotalRetryWaitSeconds: 100,
	};

	it('retries a 429 even for a write that could act twice: the service did not act', () => {
		expect(planRetry('rateLimited', false, 0, 0, settings, 2)).toEqual({
			retry: true,
			waitMs: 2000,
		});
	});

	it('retries 5xx and lost connections only where a repeat cannot act twice', () => {
		expect(planRetry('serverError', false, 0, 0, settings, undefined)).toEqual({ retry: false });
		expect(planRetry('networkError', false, 0, 0, settings, undefined)).toEqual({ retry: false });
		expect(planRetry('serverError', true, 0, 0, settings, undefined)).toMatchObject({
			retry: true,
		});
		expect(planRetry('networkError', true, 1, 0, settings, undefined)).toMatchObject({
			retry: true,
		});
	});

	it('never retries a final answer, and stops after Max Retries', () => {
		expect(planRetry('final', true, 0, 0, settings, undefined)).toEqual({ retry: false });
		expect(planRetry('rateLimited', true, 3, 0, settings, 1)).toEqual({ retry: false });
	});

	it('says why when the service asks to wait longer than Max Retry Wait', () => {
		expect(planRetry('rateLimited', true, 0, 0, settings, 61)).toEqual({
			retry: false,
			reason: 'The service asked to wait 61 s, longer than Max Retry Wait (60 s).',
		});
	});

	it('says why when a wait would pass Max Total Retry Wait', () => {
		expect(planRetry('rateLimited', true, 1, 90_000, settings, 20)).toEqual({
			retry: false,
			reason:
				'Waiting 20 s more would pass Max Total Retry Wait (100 s; 90 s already spent waiting).',
		});
	});
});
