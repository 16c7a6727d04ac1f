/**
 * A results post as the service sends it (docs/assumptions.md, "Bulk payout results posted to
 * callback_url"): a JSON body, or a form body whose `payload` field holds the same JSON text; one
 * row result or many. Anything else is refused (400) before the ledger is read.
 */
import { createHash } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

const STATUSES = ['queued', 'processed', 'failed', 'rejected', 'reversed'] as const;
export type PostedStatus = (typeof STATUSES)[number];

/** One entry of `results[]`, as posted. */
export interface PostedRow {
	reference_no: string;
	status: PostedStatus;
	amount?: string;
	currency?: string;
	utr?: string;
	reason?: string;
	updated_at?: string;
}

export interface ResultsPost {
	request_id: string;
	sent_at?: string;
	rows: PostedRow[];
}

const optionalText = (value: unknown) =>
	typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;

/** The JSON object the post carries: the body itself, or the JSON text of a form's `payload`. */
function payloadOf(body: unknown, contentType: string): unknown {
	if (contentType.includes('x-www-form-urlencoded')) {
		const payload = (body as IDataObject | undefined)?.payload;
		if (typeof payload !== 'string') return undefined;
		try {
			return JSON.parse(payload) as unknown;
		} catch {
			return undefined;
		}
	}
	return contentType.includes('json') ? body : undefined;
}

function rowOf(entry: unknown, index: number): PostedRow | string {
	const row = entry as IDataObject;
	if (typeof row !== 'object' || row === null || Array.isArray(row))
		return `results[${index}] is not an object`;
	const reference = optionalText(row.reference_no)?.trim();
	if (!reference) return `results[${index}].reference_no is missing`;
	const status = String(row.status ?? '').toLowerCase() as PostedStatus;
	if (!STATUSES.includes(status))
		return `results[${index}].status must be one of ${STATUSES.join(', ')}`;
	return {
		reference_no: reference,
		status,
		amount: optionalText(row.amount),
		currency: optionalText(row.currency),
		utr: optionalText(row.utr) || undefined,
		reason: optionalText(row.reason) || undefined,
		updated_at: optionalText(row.updated_at),
	};
}

/** The post's rows, or what is wrong with it (said in the 400 answer). */
export function parsePost(body: unknown, contentType: string): ResultsPost | { invalid: string } {
	const payload = payloadOf(body, contentType.toLowerCase()) as IDataObject | undefined;
	if (typeof payload !== 'object' || payload === null || Array.isArray(payload))
		return {
			invalid: 'Expected a JSON object body, or a form body with the JSON in a field named payload',
		};
	const requestId = optionalText(payload.request_id)?.trim();
	if (!requestId) return { invalid: 'request_id is missing' };
	const results = payload.results;
	if (!Array.isArray(results) || results.length === 0)
		return { invalid: 'results must be a non-empty list of row results' };
	const rows: PostedRow[] = [];
	for (const [index, entry] of results.entries()) {
		const row = rowOf(entry, index);
		if (typeof row === 'string') return { invalid: row };
		rows.push(row);
	}
	return { request_id: requestId, sent_at: optionalText(payload.sent_at), rows };
}

/**
 * What identifies one results post: its batch and its row results (the service's retries and
 * repeats of a post carry the same body). Keyed so, the trigger's exactly-once record drops a
 * repeat and runs the retry of a post whose run never started.
 */
export function postKey(post: ResultsPost): string {
	const rows = post.rows
		.map((r) => [r.reference_no, r.status, r.utr ?? '', r.reason ?? ''].join('\u0001'))
		.sort();
	const digest = createHash('sha256').update(rows.join('\u0002')).digest('hex').slice(0, 32);
	return `payout-results|${post.request_id}|${digest}`;
}
