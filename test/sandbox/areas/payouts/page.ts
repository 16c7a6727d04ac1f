// GET /__sandbox/payouts for a person: every batch, its rows' states and the posts made.
import type { Reply } from '../../core/http';
import { escape, page } from '../control/pages';
import type { PayoutBatch, PayoutCallbackAttempt } from './model';

const iso = (at: number | undefined) => (at === undefined ? '' : new Date(at).toISOString());

const cells = (tag: 'td' | 'th', values: unknown[]) =>
	`<tr>${values.map((v) => `<${tag}>${escape(v ?? '')}</${tag}>`).join('')}</tr>`;

const table = (headers: string[], rows: unknown[][]) =>
	`<table>\n<thead>${cells('th', headers)}</thead>\n<tbody>\n${rows
		.map((row) => cells('td', row))
		.join('\n')}\n</tbody>\n</table>`;

const answerOf = (attempt: PayoutCallbackAttempt) =>
	[attempt.status, attempt.error].filter((v) => v !== undefined).join(' ') || 'no answer yet';

function rowsTable(batch: PayoutBatch): string {
	const headers = [
		'Row',
		'Reference No',
		'Payment Mode',
		'Amount',
		'Beneficiary Name',
		'Remark',
		'Outcome (decided by)',
		'State',
		'UTR',
		'Reason',
		'States reached',
	];
	return table(
		headers,
		batch.rows.map((row, i) => {
			const result = batch.results[i];
			return [
				i + 1,
				row['Reference No'],
				row['Payment Mode'],
				row.Amount,
				row['Beneficiary Name'],
				row.Remark,
				result ? `${result.outcome} (${result.decidedBy})` : '',
				result?.status,
				result?.utr,
				result?.reason,
				result?.history.map((h) => `${h.status} ${iso(h.at)}`).join(', '),
			];
		}),
	);
}

function postsTable(batch: PayoutBatch): string {
	if (batch.callback_url === '') return '<p>No callback_url: nothing is posted.</p>';
	if (batch.callbackAttempts.length === 0) return '<p>No post made yet.</p>';
	// By post, then copy and try: each post's retries together.
	return table(
		['Post', 'Copy', 'Try', 'At', 'Results carried', 'Answer', 'Took (ms)'],
		[...batch.callbackAttempts]
			.sort((a, b) => a.post - b.post || a.copy - b.copy || a.attempt - b.attempt)
			.map((a) => [
				a.post,
				a.copy,
				a.attempt,
				iso(a.at),
				a.results.map((r) => `${r.reference_no}: ${r.status}`).join(', '),
				answerOf(a),
				a.durationMs,
			]),
	);
}

const STYLE =
	'<style>body{font-family:sans-serif}table{border-collapse:collapse;margin-bottom:1em}' +
	'td,th{border:1px solid #999;padding:2px 6px;text-align:left;font-size:90%}</style>';

/** Newest batch first. */
export function payoutsPage(batches: PayoutBatch[]): Reply {
	if (batches.length === 0) {
		return page('Payout batches', '<p>No bulk payout received yet.</p>');
	}
	const sections = [...batches].reverse().map((batch) => {
		const facts = [
			`currency ${batch.currency}`,
			`remark ${JSON.stringify(batch.remark)}`,
			`${batch.rows.length} row(s)`,
			`queued ${iso(batch.queuedAt)}`,
			`file ${batch.fileName} (${batch.file.length} bytes)`,
			`callback_url ${batch.callback_url || '(none)'}`,
		];
		return (
			`<h2>${escape(batch.request_id)}</h2>\n<p>${escape(facts.join(' · '))}</p>\n` +
			`<h3>Rows</h3>\n${rowsTable(batch)}\n<h3>Posts to callback_url</h3>\n${postsTable(batch)}`
		);
	});
	return page('Payout batches', `${STYLE}\n${sections.join('\n')}`);
}
