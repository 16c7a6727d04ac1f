import type { DataTableColumnType, DataTableRow } from 'n8n-workflow';

import type { PayoutState } from './states';
import { isState } from './states';

/**
 * One record per Reference No, as plain typed columns so that n8n's Data Table node and the
 * editor read it (n8n adds id, createdAt and updatedAt). `attempts` holds the earlier attempts
 * of a reference paid again, as JSON text; `batch_digest` is what a batch sent without a clear
 * answer is known by (with its request_id): only the same rows may go out under it again.
 */
export const LEDGER_COLUMNS: Array<{ name: keyof LedgerColumns; type: DataTableColumnType }> = [
	{ name: 'reference_no', type: 'string' },
	{ name: 'state', type: 'string' },
	{ name: 'amount', type: 'number' },
	{ name: 'currency', type: 'string' },
	{ name: 'beneficiary_name', type: 'string' },
	{ name: 'account_last4', type: 'string' },
	{ name: 'request_id', type: 'string' },
	{ name: 'batch_remark', type: 'string' },
	{ name: 'queued_at', type: 'date' },
	{ name: 'workflow_id', type: 'string' },
	{ name: 'execution_id', type: 'string' },
	{ name: 'utr', type: 'string' },
	{ name: 'reason', type: 'string' },
	{ name: 'attempt', type: 'number' },
	{ name: 'attempts', type: 'string' },
	{ name: 'state_changed_at', type: 'date' },
	{ name: 'batch_digest', type: 'string' },
	{ name: 'result_key', type: 'string' },
];

export interface LedgerColumns {
	reference_no: string;
	state: PayoutState;
	amount: number | null;
	currency: string | null;
	beneficiary_name: string | null;
	account_last4: string | null;
	request_id: string | null;
	batch_remark: string | null;
	queued_at: Date | null;
	workflow_id: string | null;
	execution_id: string | null;
	utr: string | null;
	reason: string | null;
	attempt: number;
	attempts: string | null;
	state_changed_at: Date | null;
	batch_digest: string | null;
	/** The results post (its delivery key) that brought the current state, if one did. */
	result_key: string | null;
}

export interface LedgerRecord extends LedgerColumns {
	id: number;
	updatedAt: Date;
}

/** An earlier attempt, kept in `attempts` when the reference is paid again. */
export type EarlierAttempt = Omit<LedgerColumns, 'reference_no' | 'attempts'>;

const dateOf = (value: unknown): Date | null =>
	value === null || value === undefined || value === '' ? null : new Date(value as string);
const textOf = (value: unknown): string | null =>
	value === null || value === undefined ? null : String(value);

/** A row as n8n returns it; undefined for a row that is not a ledger record (edited by hand). */
export function recordOf(row: Record<string, unknown>): LedgerRecord | undefined {
	const state = row.state;
	const ref = textOf(row.reference_no);
	if (!ref || !isState(state)) return undefined;
	return {
		id: Number(row.id),
		updatedAt: dateOf(row.updatedAt) ?? new Date(0),
		reference_no: ref,
		state,
		amount: row.amount === null || row.amount === undefined ? null : Number(row.amount),
		currency: textOf(row.currency),
		beneficiary_name: textOf(row.beneficiary_name),
		account_last4: textOf(row.account_last4),
		request_id: textOf(row.request_id),
		batch_remark: textOf(row.batch_remark),
		queued_at: dateOf(row.queued_at),
		workflow_id: textOf(row.workflow_id),
		execution_id: textOf(row.execution_id),
		utr: textOf(row.utr),
		reason: textOf(row.reason),
		attempt: Number(row.attempt ?? 1) || 1,
		attempts: textOf(row.attempts),
		state_changed_at: dateOf(row.state_changed_at),
		batch_digest: textOf(row.batch_digest),
		result_key: textOf(row.result_key),
	};
}

/** The columns of a record, as written. */
export function rowOf(record: Partial<LedgerColumns>): DataTableRow {
	const row: DataTableRow = {};
	for (const { name } of LEDGER_COLUMNS) if (name in record) row[name] = record[name] ?? null;
	return row;
}

export function earlierAttempts(record: LedgerColumns): EarlierAttempt[] {
	if (!record.attempts) return [];
	try {
		const parsed = JSON.parse(record.attempts) as EarlierAttempt[];
		return Array.isArray(parsed) ? parsed : [];
	} catch {
		return [];
	}
}

/** The record's current attempt as an earlier one (when a new attempt starts). */
export function asEarlier(record: LedgerColumns): EarlierAttempt {
	const rest: Partial<LedgerColumns> = { ...record };
	delete rest.reference_no;
	delete rest.attempts;
	return rest as EarlierAttempt;
}

/** Only the account number's last 4 digits are kept. */
export const last4 = (account: unknown) => {
	const digits = String(account ?? '').replace(/\D/g, '');
	return digits ? digits.slice(-4) : null;
};
