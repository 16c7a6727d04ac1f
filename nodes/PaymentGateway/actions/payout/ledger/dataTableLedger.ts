import type { IDataObject } from 'n8n-workflow';

import type { SourcedRow } from '../../../spreadsheet/schema';
import type { Claimed, Payments, QueuedDetail } from '../bulkCreate.memory';
import type { Batch } from '../bulkCreate.plan';
import { withAccountLock } from './lock';
import type { LedgerColumns, LedgerRecord } from './record';
import { asEarlier, earlierAttempts, last4, rowOf } from './record';
import type { ClaimedElsewhere, PayoutLedger, Settlement } from './port';
import type { WantedAttempt } from './states';
import { standingOf, transition } from './states';
import type { LedgerTable } from './table';
import { countRows, deleteIds, insert, readByReference, rowCountOf, updateIds } from './table';

/** Who writes: the run's workflow and execution. */
export interface Writer {
	workflowId: string;
	executionId: string;
}

/** The run's rows and batch fields: what a claim records of each reference. */
export interface RunRows {
	rows: SourcedRow[];
	currency: string;
	remark: string;
}

/** A size said in the output long before n8n's default limit of all data tables (200 MB). */
const BYTES_PER_RECORD = 400;
const SAY_SIZE_FROM_BYTES = 50 * 1024 * 1024;

const holderOf = (r: LedgerRecord): ClaimedElsewhere => ({
	reference_no: r.reference_no,
	workflow_id: r.workflow_id ?? undefined,
	execution_id: r.execution_id ?? undefined,
	since: r.state_changed_at ? new Date(r.state_changed_at).toISOString() : undefined,
});

/**
 * The payout account's ledger in an n8n data table. Claims are made under the account's lock
 * (lock.ts) on the run's references' records as they are now (table.ts reads those only, fresh,
 * never the whole table); the rest of the run works on the records read then and its own writes.
 * Every state change is checked by `transition`, "already paid" by `standingOf`.
 */
export class DataTableLedger implements PayoutLedger {
	/** References claimed by this run, per attempt: `<attempt>:<ref>`. */
	private readonly mine = new Set<string>();

	readonly knowsResults = true;

	/** The records of the run's references, as read under the lock and kept as the run writes them. */
	private records = new Map<string, LedgerRecord>();

	private readonly rowOfRef: Map<string, SourcedRow>;

	private readonly heldElsewhere = new Map<string, ClaimedElsewhere>();

	constructor(
		private readonly table: LedgerTable,
		private readonly lockKey: string,
		private readonly writer: Writer,
		private readonly run: RunRows,
		readonly itemIndex: number,
	) {
		this.rowOfRef = new Map(run.rows.map((row) => [String(row.values['Reference No']), row]));
	}

	get info(): IDataObject {
		// Counted by n8n at the claim, with this run's own writes since (table.ts).
		const records = rowCountOf(this.table) ?? this.records.size;
		const bytes = records * BYTES_PER_RECORD;
		return {
			ledger: `data table "${this.table.name}" (project ${this.table.projectId}${this.table.via ? `, through ${this.table.via}` : ''})`,
			ledgerTable: { id: this.table.id, name: this.table.name, projectId: this.table.projectId },
			ledgerRecords: records,
			...(bytes >= SAY_SIZE_FROM_BYTES
				? {
						ledgerSize: `about ${Math.round(bytes / 1024 / 1024)} MB: n8n refuses every write to any data table once all of them together reach N8N_DATA_TABLES_MAX_SIZE_BYTES (200 MB unless set), and then no payout goes out; raise it or move old records out of n8n (never delete records still queued)`,
					}
				: {}),
		};
	}

	private newRecord(ref: string, attempt: number): Partial<LedgerColumns> {
		const values = this.rowOfRef.get(ref)?.values ?? {};
		const now = new Date();
		return {
			reference_no: ref,
			state: 'claimed',
			amount: values.Amount === undefined ? null : Number(values.Amount),
			currency: this.run.currency,
			beneficiary_name:
				values['Beneficiary Name'] === undefined ? null : String(values['Beneficiary Name']),
			account_last4: last4(values['Beneficiary Account Number']),
			batch_remark: this.run.remark,
			request_id: null,
			batch_digest: null,
			queued_at: null,
			utr: null,
			reason: null,
			workflow_id: this.writer.workflowId,
			execution_id: this.writer.executionId,
			attempt,
			state_changed_at: now,
		};
	}

	/** Each reference for the attempt wanted: the same for all, or by its record (Pay Failed Again). */
	async claim(refs: string[], wanted: WantedAttempt = 1): Promise<Claimed> {
		return await withAccountLock(this.lockKey, async () => {
			// The run's references only, read fresh (the ledger may hold far more); its size by count.
			this.records = await readByReference(this.table, refs);
			await countRows(this.table);
			const claimed: Claimed = {
				queued: new Set(),
				unknown: new Set(),
				fresh: [],
				attempts: new Map(),
			};
			const inserts: Array<Partial<LedgerColumns>> = [];
			for (const ref of new Set(refs)) {
				const record = this.records.get(ref);
				const { attempt, standing } = standingOf(record, wanted);
				claimed.attempts.set(ref, attempt);
				if (standing === 'paid') claimed.queued.add(ref);
				else if (standing === 'unknown') {
					claimed.unknown.add(ref);
					// Claimed by a run that has not settled (it may still be sending): kept as seen now.
					if (record?.state === 'claimed') this.heldElsewhere.set(ref, holderOf(record));
				} else {
					claimed.fresh.push(ref);
					this.mine.add(`${attempt}:${ref}`);
					if (!record) inserts.push(this.newRecord(ref, attempt));
					// A new attempt of a reference: the current one joins the earlier attempts.
					else await updateIds(this.table, [record.id], this.nextAttempt(record, attempt));
				}
			}
			await insert(this.table, inserts.map(rowOf));
			return claimed;
		});
	}

	private nextAttempt(record: LedgerRecord, attempt: number) {
		const attempts = JSON.stringify([...earlierAttempts(record), asEarlier(record)]);
		return rowOf({ ...this.newRecord(record.reference_no, attempt), attempts });
	}

	private recordsOf(refs: string[], attempt: number): LedgerRecord[] {
		return refs
			.map((ref) => this.records.get(ref))
			.filter((r): r is LedgerRecord => r !== undefined && r.attempt === attempt);
	}

	private isMine = (record: LedgerRecord) =>
		this.mine.has(`${record.attempt}:${record.reference_no}`);

	/** A batch an earlier run sent without an answer: its rows' records name its request_id and digest. */
	async markBatches(batches: Batch[]): Promise<Set<Batch>> {
		const known = new Set<Batch>();
		for (const batch of batches) {
			const refs = batch.rows.map((row) => String(row.values['Reference No']));
			const records = this.recordsOf(refs, batch.attempt);
			const sentBefore =
				records.length === refs.length &&
				records.every(
					(r) =>
						!this.isMine(r) &&
						(r.state === 'claimed' || r.state === 'unknown') &&
						r.request_id === batch.requestId &&
						r.batch_digest === batch.digest,
				);
			if (sentBefore) known.add(batch);
			const own = records.filter(this.isMine).map((r) => r.id);
			if (!sentBefore && own.length)
				await updateIds(this.table, own, {
					request_id: batch.requestId,
					batch_digest: batch.digest,
				});
		}
		return known;
	}

	async settle({ confirmed, released }: Settlement): Promise<void> {
		const now = new Date();
		for (const { refs, attempt, requestId } of confirmed) {
			const records = this.recordsOf(refs, attempt).filter((r) => transition(r.state, 'queued').ok);
			records.forEach((r) => this.mine.delete(`${attempt}:${r.reference_no}`));
			await updateIds(
				this.table,
				records.map((r) => r.id),
				{ state: 'queued', request_id: requestId, queued_at: now, state_changed_at: now },
			);
		}
		for (const payments of released) await this.release(payments);
		// Claimed by this run and neither confirmed nor let go: sent without a clear answer.
		const left = [...this.records.values()].filter((r) => this.isMine(r) && r.state === 'claimed');
		await updateIds(
			this.table,
			left.map((r) => r.id),
			{
				state: 'unknown',
				reason: 'sent without a clear answer from the service',
				state_changed_at: now,
			},
		);
		this.mine.clear();
	}

	/**
	 * A claim let go (its batch refused, or never sent): the record returns to its earlier attempt,
	 * or goes. Only this run's own claims: another run's claim may be in flight, and an unknown
	 * record stays unknown until the same batch's answer or the user settles it.
	 */
	private async release({ refs, attempt }: Payments): Promise<void> {
		const records = this.recordsOf(refs, attempt).filter(
			(r) => r.state === 'claimed' && this.isMine(r),
		);
		records.forEach((r) => this.mine.delete(`${attempt}:${r.reference_no}`));
		const gone: number[] = [];
		for (const record of records) {
			const earlier = earlierAttempts(record);
			const back = earlier.pop();
			if (!back) gone.push(record.id);
			else
				await updateIds(
					this.table,
					[record.id],
					rowOf({ ...back, attempts: earlier.length ? JSON.stringify(earlier) : null }),
				);
		}
		await deleteIds(this.table, gone);
	}

	async markQueued(refs: string[], attempt: number): Promise<void> {
		if (refs.length === 0) return;
		const now = new Date();
		const records = this.recordsOf(refs, attempt).filter((r) => transition(r.state, 'queued').ok);
		await updateIds(
			this.table,
			records.map((r) => r.id),
			{
				state: 'queued',
				reason: 'counted as queued (Options > Unconfirmed References)',
				state_changed_at: now,
			},
		);
	}

	/** The run's references only: the ledger may hold far more. */
	claimedElsewhere(refs: string[]): ClaimedElsewhere[] {
		return refs.flatMap((ref) => this.heldElsewhere.get(ref) ?? []);
	}

	details(): Map<string, QueuedDetail[]> {
		const byRef = new Map<string, QueuedDetail[]>();
		for (const ref of this.rowOfRef.keys()) {
			const record = this.records.get(ref);
			if (!record) continue;
			const all = [...earlierAttempts(record), record]
				.filter((a) => a.request_id && a.state !== 'claimed' && a.state !== 'unknown')
				.map((a) => ({
					request_id: String(a.request_id),
					queued_at: a.queued_at ? new Date(a.queued_at).toISOString() : '',
					attempt: a.attempt,
					state: a.state,
					reason: a.reason ?? undefined,
					workflow_id: a.workflow_id ?? undefined,
					execution_id: a.execution_id ?? undefined,
				}));
			if (all.length) byRef.set(ref, all);
		}
		return byRef;
	}

	/** The ledger has no count limit of its own; n8n's size limit is said in `info`. */
	async overLimit(): Promise<undefined> {
		return undefined;
	}
}
