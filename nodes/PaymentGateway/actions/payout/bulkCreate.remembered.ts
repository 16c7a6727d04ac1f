import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	NodeApiError,
} from 'n8n-workflow';

import type { SourcedRow } from '../../spreadsheet/schema';
import { asNodeError, errorItem } from '../errorItem';
import {
	alreadyQueuedJson,
	alreadySubmitted,
	batchJson,
	build,
	mayHaveQueued,
	output,
	queuedJson,
	stopAt,
} from './bulkCreate.items';
import { ReferenceMemory, sentKey } from './bulkCreate.memory';
import type { Batch, BatchFields, PairedOf } from './bulkCreate.plan';
import { planBatches } from './bulkCreate.plan';
import {
	nothingPaidError,
	memoryFullError,
	skippedJson,
	unconfirmedError,
	type Skipped,
} from './bulkCreate.skipped';
import { uploadBatch } from './bulkCreate.upload';

const referenceOf = (row: SourcedRow) => String(row.values['Reference No'] ?? '');
const referencesOf = (batch: Batch) => batch.rows.map(referenceOf);
const markerOf = (batch: Batch) => sentKey(batch.requestId, batch.digest);

/** A run's plan once the memory has been read: what goes out, in order, and what is left out. */
interface RememberedPlan {
	batches: Batch[];
	/** Batches an earlier run may have sent: only a refusal as already queued settles them. */
	resent: Set<Batch>;
	skipped: Skipped[];
	/** Markers recorded by the check that no batch of this run stands for: let go at the end. */
	dropped: string[];
}

type RowState = 'queued' | 'unknown' | 'new';

/** Stops before anything is sent: this run's claims and markers let go. */
async function stopBeforeSending(memory: ReferenceMemory, fresh: string[], markers: string[]) {
	await memory.settle([], fresh, markers);
}

/**
 * The run as planned before (`run.batches`: as if nothing had been sent, the request IDs a copy of
 * this workflow would use),
 * then each batch by its rows' state: all new → sent as planned; queued rows → left out; unknown
 * rows → sent again as the batch an earlier run may have sent (same rows, same request ID), else
 * they stop the run unless the user said what became of them. The new rows of mixed batches go
 * out in batches of their own after them.
 */
async function planWithMemory(
	ctx: IExecuteFunctions,
	memory: ReferenceMemory,
	fields: BatchFields,
	run: { rows: SourcedRow[]; batches: Batch[] },
): Promise<RememberedPlan> {
	const { rows } = run;
	const claim = await memory.claim(rows.map(referenceOf));
	await assertRoom(ctx, memory, fields, claim.fresh);
	if (fields.payAgain) {
		// The run's time joins each digest: request IDs no earlier run used.
		const again = planBatches(fields, rows, 1, new Date().toISOString());
		return { batches: again, resent: new Set(), skipped: [], dropped: [] };
	}
	const full = run.batches;
	const stateOf = (row: SourcedRow): RowState =>
		claim.unknown.has(referenceOf(row))
			? 'unknown'
			: claim.queued.has(referenceOf(row))
				? 'queued'
				: 'new';
	const allNew = (batch: Batch) => batch.rows.every((r) => stateOf(r) === 'new');
	// The unknown rows of each planned batch, as the batch an earlier run would have sent them in.
	const retry = full.flatMap((batch) =>
		planBatches(
			fields,
			batch.rows.filter((r) => stateOf(r) === 'unknown'),
			batch.number,
		),
	);
	const known = await memory.markBatches(retry.map(markerOf));
	const resent = new Set(retry.filter((batch) => known.has(markerOf(batch))));
	const dropped = retry.map(markerOf).filter((marker) => !known.has(marker));
	const asPlanned = full
		.flatMap((batch) => (allNew(batch) ? [batch] : retry.filter((r) => r.number === batch.number)))
		.filter((batch) => resent.has(batch) || allNew(batch));
	const leftIn = new Set(asPlanned.flatMap((batch) => batch.rows));
	const unresolved = rows.filter((row) => stateOf(row) === 'unknown' && !leftIn.has(row));
	if (unresolved.length > 0 && fields.unconfirmed === 'stop') {
		await stopBeforeSending(memory, claim.fresh, dropped);
		throw unconfirmedError(ctx, memory.itemIndex, unresolved);
	}
	const userSaidQueued = fields.unconfirmed === 'countAsQueued' ? unresolved : [];
	await memory.markQueued(userSaidQueued.map(referenceOf));
	const sendAgain = new Set(fields.unconfirmed === 'sendAgain' ? unresolved : []);
	const leftovers = rows.filter(
		(row) => !leftIn.has(row) && (stateOf(row) === 'new' || sendAgain.has(row)),
	);
	const batches = [...asPlanned, ...planBatches(fields, leftovers, full.length + 1)];
	const skipped = skippedRows(memory, [
		...rows.filter((row) => stateOf(row) === 'queued').map((row) => ({ row, source: 'memory' })),
		...userSaidQueued.map((row) => ({ row, source: 'you' })),
	]);
	return { batches, resent, skipped, dropped };
}

function skippedRows(
	memory: ReferenceMemory,
	rows: Array<{ row: SourcedRow; source: string }>,
): Skipped[] {
	const details = memory.details();
	return rows.map(({ row, source }) => ({
		row: row.row,
		reference_no: referenceOf(row),
		source: source as Skipped['source'],
		...(details.get(referenceOf(row)) ?? {}),
	}));
}

/** The memory never forgets on its own: a run that would pass its size stops before sending. */
async function assertRoom(
	ctx: IExecuteFunctions,
	memory: ReferenceMemory,
	fields: BatchFields,
	fresh: string[],
): Promise<void> {
	const held = Math.round(((await memory.entries()) - fresh.length) / 2);
	if (held + fresh.length <= fields.remembered) return;
	await stopBeforeSending(memory, fresh, []);
	throw memoryFullError(ctx, memory.itemIndex, held, fresh.length, fields.remembered);
}

/** What the run did to the memory, settled in two calls at its end. */
interface Settlement {
	confirmed: string[];
	released: string[];
	markers: string[];
}

/** One batch sent; what its answer means for the memory is noted in `settle`. */
async function sendOne(
	ctx: IExecuteFunctions,
	itemIndex: number,
	fields: BatchFields,
	batch: Batch,
	file: Buffer,
	run: { memory: ReferenceMemory; total: number; resent: Set<Batch>; settle: Settlement },
): Promise<IDataObject> {
	const { memory, settle } = run;
	const refs = referencesOf(batch);
	const base = batchJson(batch, run.total, fields, 'queued');
	const confirm = () => {
		settle.confirmed.push(...refs);
		settle.markers.push(markerOf(batch));
		memory.keepDetails(refs, batch.requestId);
	};
	try {
		const response = await uploadBatch(
			ctx,
			itemIndex,
			fields,
			batch.requestId,
			batch.fileName,
			file,
		);
		confirm();
		return queuedJson(base, response);
	} catch (thrown) {
		const error = asNodeError(ctx, thrown, itemIndex);
		// E0021 proves these rows queued only where the request_id stands for them: derived from
		// the rows, or an unanswered batch of these very rows. A given Request ID reused is a refusal.
		if (alreadySubmitted(error) && (run.resent.has(batch) || !fields.givenRequestId)) {
			confirm();
			return alreadyQueuedJson(base, error as NodeApiError);
		}
		// No clear answer: claimed and marked, so the next run settles it by sending it again.
		if (!mayHaveQueued(error)) release(settle, [batch]);
		throw error;
	}
}

const release = (settle: Settlement, batches: Batch[]) => {
	for (const batch of batches) {
		settle.released.push(...referencesOf(batch));
		settle.markers.push(markerOf(batch));
	}
};

/**
 * Version 3's path: rows known by Reference No. Queued rows are left out (and listed), the batches
 * go out in order, and a run that queued nothing is an error: nothing was paid now.
 */
export async function sendRemembered(
	ctx: IExecuteFunctions,
	itemIndex: number,
	fields: BatchFields,
	run: { rows: SourcedRow[]; batches: Batch[] },
	paired: PairedOf,
	runPaired: INodeExecutionData['pairedItem'],
): Promise<INodeExecutionData[]> {
	const { rows } = run;
	const memory = new ReferenceMemory(ctx, itemIndex);
	const { batches, resent, skipped, dropped } = await planWithMemory(ctx, memory, fields, run);
	// Marked before the first is sent: after a crash, the next run sends them again as they were.
	await memory.markBatches(batches.filter((b) => !resent.has(b)).map(markerOf));
	const settle: Settlement = { confirmed: [], released: [], markers: [...dropped] };
	const total = batches.length ? batches[batches.length - 1].number : 0;
	const sending = { memory, total, resent, settle };
	const out: INodeExecutionData[] = [];
	let next: Promise<Buffer> | undefined = batches.length ? build(batches[0]) : undefined;
	for (const [index, batch] of batches.entries()) {
		const file: Buffer = await (next as Promise<Buffer>);
		next = index + 1 < batches.length ? build(batches[index + 1]) : undefined;
		let json: IDataObject;
		try {
			json = await sendOne(ctx, itemIndex, fields, batch, file, sending);
		} catch (error) {
			release(settle, batches.slice(index + 1));
			await memory.settle(settle.confirmed, settle.released, settle.markers);
			const failure = asNodeError(ctx, error, itemIndex);
			return stopAt(ctx, itemIndex, fields, batches, index, out, failure, paired);
		}
		out.push(await output(ctx, fields, { json, pairedItem: paired(batch) }, file, batch));
	}
	await memory.settle(settle.confirmed, settle.released, settle.markers);
	const skippedItems = skipped.length
		? [{ json: skippedJson(skipped), pairedItem: pairedOfSkipped(skipped, rows) }]
		: [];
	if (out.some((item) => item.json.status === 'queued')) return [...out, ...skippedItems];
	const error = nothingPaidError(
		ctx,
		itemIndex,
		skipped,
		out.map((item) => item.json),
	);
	if (!ctx.continueOnFail()) throw error;
	return [errorItem(ctx, error, runPaired, { status: 'nothingQueued' })];
}

/** The input items of the rows left out. */
function pairedOfSkipped(skipped: { row: number }[], rows: SourcedRow[]) {
	const byRow = new Map(rows.map((row) => [row.row, row.item ?? 0]));
	return skipped.map(({ row }) => ({ item: byRow.get(row) ?? 0 }));
}
