export const FAULT_KINDS = [
	'status429',
	'status500',
	'html502',
	'timeout',
	'reset',
	'bodyFail',
	/** The service acts on the request, then the connection drops before the answer is sent. */
	'dropAnswer',
	/**
	 * The connection drops at once, with no answer; the service acts on the request `delayMs` later
	 * (default 5000 ms), as a service that queues a refund and applies it after the client gave up.
	 */
	'applyLate',
	/** A 302 to `location`, as a misconfigured proxy or a moved endpoint would answer. */
	'redirect',
	/** An error (HTTP `status`, default 500) whose message and body echo the request's credentials. */
	'echoSecrets',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface Fault {
	kind: FaultKind;
	/** How many matching requests it hits; default 1. */
	count?: number;
	/** How many matching requests pass untouched before it hits (the k-th upload of a run); default 0. */
	after?: number;
	/** Only requests whose path starts with this. */
	path?: string;
	/** 429: Retry-After in seconds or as an HTTP date; default 1. */
	retryAfter?: number | string;
	/** timeout: hold the request this long (default 60000 ms), then destroy the socket; applyLate: act this long after the drop (default 5000 ms). */
	delayMs?: number;
	/** bodyFail: the JSON answered with HTTP 200. */
	body?: object;
	/** redirect: where to (required). */
	location?: string;
	/** echoSecrets: the HTTP status; default 500. */
	status?: number;
}

export const DEFAULT_FAIL_BODY = {
	status: 'fail',
	code: 'E0044',
	message: 'Transaction is not in a refundable state',
};

/** Queue of faults, consumed in injection order by the next matching requests. */
export class FaultInjector {
	private queue: (Fault & { count: number })[] = [];

	/** Throws TypeError on a malformed fault (the HTTP control answers it with 400). */
	inject(fault: Fault): void {
		const f = fault as unknown as Record<string, unknown>;
		const fail = (why: string) => {
			throw new TypeError(`invalid fault: ${why}`);
		};
		if (typeof f !== 'object' || f === null) fail('not an object');
		if (!FAULT_KINDS.includes(f.kind as FaultKind)) {
			fail(`kind must be one of ${FAULT_KINDS.join(', ')}`);
		}
		if (f.count !== undefined && !(Number.isInteger(f.count) && (f.count as number) > 0)) {
			fail('count must be a positive integer');
		}
		if (f.after !== undefined && !(Number.isInteger(f.after) && (f.after as number) >= 0)) {
			fail('after must be a non-negative integer');
		}
		if (f.path !== undefined && typeof f.path !== 'string') fail('path must be a string');
		if (f.retryAfter !== undefined && !['number', 'string'].includes(typeof f.retryAfter)) {
			fail('retryAfter must be seconds or an HTTP date');
		}
		if (f.delayMs !== undefined && !(typeof f.delayMs === 'number' && f.delayMs >= 0)) {
			fail('delayMs must be a non-negative number');
		}
		if (f.body !== undefined && (typeof f.body !== 'object' || f.body === null)) {
			fail('body must be an object');
		}
		if (f.kind === 'redirect' && typeof f.location !== 'string') fail('redirect needs a location');
		if (
			f.status !== undefined &&
			!(Number.isInteger(f.status) && (f.status as number) >= 400 && (f.status as number) < 600)
		) {
			fail('status must be an HTTP error status');
		}
		this.queue.push({ ...fault, count: fault.count ?? 1 });
	}

	clear(): void {
		this.queue = [];
	}

	/** Remaining faults, with their remaining counts. */
	pending(): Fault[] {
		return this.queue.map((fault) => ({ ...fault }));
	}

	/** Consumes one hit of the first fault matching the path. */
	take(path: string): Fault | undefined {
		const index = this.queue.findIndex((f) => f.path === undefined || path.startsWith(f.path));
		if (index < 0) return undefined;
		const fault = this.queue[index];
		// A waiting fault lets this request through untouched and counts it.
		if (fault.after) {
			fault.after -= 1;
			return undefined;
		}
		fault.count -= 1;
		if (fault.count === 0) this.queue.splice(index, 1);
		return { ...fault };
	}
}
