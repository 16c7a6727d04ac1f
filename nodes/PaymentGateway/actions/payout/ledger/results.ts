import { withAccountLock } from './lock';
import type { LedgerRecord } from './record';
import type { ResultState } from './states';
import { transition } from './states';
import type { LedgerTable, RowWrite } from './table';
import { readByReference, readByRequestId, writeRows } from './table';

/** One row's result as the service reports it (docs/assumptions.md: bulk payout results). */
export interface RowResult {
	reference_no: string;
	state: ResultState;
	/** The batch the result belongs to: a result for another attempt's request_id is not applied. */
	request_id?: string;
	utr?: string;
	reason?: string;
	/**
	 * The delivery key of the post bringing it. A result its own post applied before (that post's
	 * run never started: n8n failed, or the process died) is applied again (`again`), so the
	 * service's retry of the post runs it; the same result from any other post stays ignored.
	 */
	key?: string;
}

export type Applied =
	| { applied: true; record: LedgerRecord; again?: boolean }
	/** ignored: a repeated or late result (a final state never moves back); unknown: no record. */
	| {
			applied: false;
			why: 'ignored' | 'unknown reference' | 'other attempt';
			detail: string;
			record?: LedgerRecord;
	  };

/** A result judged against its record: why not, the same state again, or the write it makes. */
type Judged =
	| { applied: Applied }
	| { write: RowWrite; record: LedgerRecord; reference_no: string };

/** One result against the view holding its record (read under the lock), by the rule. */
function judge(view: Map<string, LedgerRecord>, result: RowResult, now: Date): Judged {
	const record = view.get(result.reference_no);
	if (!record)
		return {
			applied: {
				applied: false,
				why: 'unknown reference',
				detail: `no record of ${result.reference_no}`,
			},
		};
	if (result.request_id && record.request_id && result.request_id !== record.request_id)
		return {
			applied: {
				applied: false,
				why: 'other attempt',
				detail: `the record holds request_id ${record.request_id} (attempt ${record.attempt})`,
				record,
			},
		};
	const move = transition(record.state, result.state);
	if (!move.ok && result.key && record.state === result.state && record.result_key === result.key)
		return { applied: { applied: true, record, again: true } };
	if (!move.ok) return { applied: { applied: false, why: 'ignored', detail: move.reason, record } };
	const data = {
		state: result.state,
		state_changed_at: now,
		...(result.utr !== undefined ? { utr: result.utr } : {}),
		...(result.reason !== undefined ? { reason: result.reason } : {}),
		result_key: result.key ?? null,
	};
	return { write: { id: record.id, data }, record, reference_no: result.reference_no };
}

/** One result written on its own (n8n returns the row written; the view follows it). */
async function applyTo(
	table: LedgerTable,
	view: Map<string, LedgerRecord>,
	result: RowResult,
	now: Date,
): Promise<Applied> {
	const judged = judge(view, result, now);
	if ('applied' in judged) return judged.applied;
	await writeRows(table, [judged.write]);
	return { applied: true, record: view.get(result.reference_no) ?? judged.record };
}

/**
 * A post's results judged in order against the view (a later row of the same reference sees the
 * earlier one's state), then written in one transaction: all applied, or none (thrown with no row
 * applied before it).
 */
async function applyTogether(
	table: LedgerTable,
	view: Map<string, LedgerRecord>,
	results: RowResult[],
	now: Date,
): Promise<Applied[]> {
	const before = new Map(view);
	// Each written row's record as it stands after it (a later row of its reference sees it).
	const judged = results.map((result) => {
		const one = judge(view, result, now);
		if (!('write' in one)) return one;
		const after = { ...one.record, ...one.write.data } as LedgerRecord;
		view.set(one.reference_no, after);
		return { ...one, record: after };
	});
	const writes = new Map<number, RowWrite>();
	for (const one of judged)
		if ('write' in one) {
			const held = writes.get(one.write.id);
			writes.set(one.write.id, { id: one.write.id, data: { ...held?.data, ...one.write.data } });
		}
	try {
		await writeRows(table, [...writes.values()]);
	} catch (error) {
		for (const ref of view.keys()) if (!before.has(ref)) view.delete(ref);
		for (const [ref, record] of before) view.set(ref, record);
		throw Object.assign(error as Error, { appliedBefore: [] });
	}
	return judged.map((one) =>
		'applied' in one ? one.applied : { applied: true, record: one.record },
	);
}

/**
 * Applies a row result to the ledger under the account's lock, by the one transition rule. The
 * same result twice, or a late one (failed after processed), changes nothing: `applied: false`.
 * Reads this reference's record only, fresh.
 */
export async function applyResult(
	table: LedgerTable,
	lockKey: string,
	result: RowResult,
	now = new Date(),
): Promise<Applied> {
	return await withAccountLock(lockKey, async () => {
		const view = await readByReference(table, [result.reference_no]);
		return await applyTo(table, view, result, now);
	});
}

/** The rows a failed `applyResults` applied before it failed (they are in the ledger). */
export function appliedBefore(error: unknown): Applied[] {
	return (error as { appliedBefore?: Applied[] }).appliedBefore ?? [];
}

/**
 * The rows of one results post, in order, as `applyResult` each, with one read of their records
 * (one per post, not one per row) and one lock. Written in one transaction where the door writes
 * rows (a failure applies none); else one n8n call a row, and a failure part-way is thrown with
 * the rows applied before it (`appliedBefore`).
 */
export async function applyResults(
	table: LedgerTable,
	lockKey: string,
	results: RowResult[],
	now = new Date(),
): Promise<Applied[]> {
	return await withAccountLock(lockKey, async () => {
		const view = await readByReference(
			table,
			results.map((r) => r.reference_no),
		);
		if (table.rows) return await applyTogether(table, view, results, now);
		const applied: Applied[] = [];
		for (const result of results) {
			try {
				applied.push(await applyTo(table, view, result, now));
			} catch (error) {
				throw Object.assign(error as Error, { appliedBefore: applied });
			}
		}
		return applied;
	});
}

/** The records of these references (absent ones left out). */
export async function recordsByReference(
	table: LedgerTable,
	lockKey: string,
	refs: string[],
): Promise<LedgerRecord[]> {
	const records = await withAccountLock(lockKey, async () => await readByReference(table, refs));
	return refs.map((ref) => records.get(ref)).filter((r): r is LedgerRecord => r !== undefined);
}

/** The records whose current attempt went out under `requestId` (a batch), in row order of ids. */
export async function recordsByRequestId(
	table: LedgerTable,
	lockKey: string,
	requestId: string,
): Promise<LedgerRecord[]> {
	return await withAccountLock(lockKey, async () => await readByRequestId(table, requestId));
}
