import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { payoutSchema } from '../../spreadsheet/payout';
import type { RowViolation, SourcedRow } from '../../spreadsheet/schema';
import { assertRows, buildFile, fileSizeViolations } from '../bulk';
import { batchJson, describeAll, output } from './bulkCreate.items';
import { sendBatches } from './bulkCreate.loop';
import type { Batch, BatchFields, PairedOf } from './bulkCreate.plan';
import { NOUN, planBatches, planViolations, sizeViolations } from './bulkCreate.plan';
import { sendRemembered } from './bulkCreate.remembered';

/** Validate Only: one report per batch, each with the violations of its rows; nothing is sent. */
async function validateBatches(
	ctx: IExecuteFunctions,
	fields: BatchFields,
	batches: Batch[],
	violations: RowViolation[],
	paired: PairedOf,
) {
	const batchOf = new Map<number, number>();
	for (const batch of batches) for (const { row } of batch.rows) batchOf.set(row, batch.number);
	const shared = [
		...violations.filter((v) => !batchOf.has(v.row)),
		...planViolations(fields, batches),
	];
	const out: INodeExecutionData[] = [];
	for (const batch of batches) {
		const file = await buildFile(payoutSchema, 'Payouts', batch.rows);
		const own = [
			...shared,
			...violations.filter((v) => batchOf.get(v.row) === batch.number),
			...fileSizeViolations(file),
		];
		const json: IDataObject = {
			validateOnly: true,
			valid: own.length === 0,
			...batchJson(
				batch,
				{ position: batch.number, of: batches.length },
				fields,
				own.length ? 'invalid' : 'valid',
			),
			failing_rows: new Set(own.filter((v) => v.row > 1).map((v) => v.row)).size,
			violations: describeAll(own),
		};
		out.push(await output(ctx, fields, { json, pairedItem: paired(batch) }, file, batch));
	}
	return out;
}

/** A run with no rows (or an unreadable file): one report, no batch. */
function emptyRun(
	ctx: IExecuteFunctions,
	itemIndex: number,
	fields: BatchFields,
	violations: RowViolation[],
	paired: INodeExecutionData['pairedItem'],
) {
	if (!fields.validateOnly) assertRows(ctx, violations, itemIndex, NOUN);
	const json = {
		validateOnly: true,
		valid: false,
		batches: 0,
		status: 'invalid',
		violations: describeAll(violations),
	};
	return [{ json, pairedItem: paired }];
}

/**
 * Pay Again or Pay Failed Again with a given Request ID: a re-payment's IDs are longer
 * (`<ID>-a<attempt>-<n>`), so the 30-character rule is checked on them (any row may be re-paid;
 * Pay Failed Again's attempts, 2 or more, are checked again once the ledger gave them). Without
 * one, IDs are 30 always.
 */
function repaymentPlan(fields: BatchFields, rows: SourcedRow[]): Batch[] | undefined {
	if (!fields.remember || !fields.givenRequestId) return undefined;
	if (fields.payAgain) return planBatches(fields, rows, 1, fields.attempt);
	return fields.payFailedAgain ? planBatches(fields, rows, 1, 2) : undefined;
}

/** Bulk Create's one path: every rule of every batch checked, then the batches sent in order. */
export async function runBatches(
	ctx: IExecuteFunctions,
	itemIndex: number,
	fields: BatchFields,
	checked: { rows: SourcedRow[]; violations: RowViolation[] },
	paired: PairedOf,
	runPaired: INodeExecutionData['pairedItem'],
): Promise<INodeExecutionData[]> {
	const batches = planBatches(fields, checked.rows);
	if (batches.length === 0) return emptyRun(ctx, itemIndex, fields, checked.violations, runPaired);
	if (fields.validateOnly)
		return await validateBatches(ctx, fields, batches, checked.violations, paired);
	const all = [
		...checked.violations,
		...planViolations(fields, repaymentPlan(fields, checked.rows) ?? batches),
		...(await sizeViolations(batches)),
	];
	assertRows(
		ctx,
		all.sort((a, b) => a.row - b.row),
		itemIndex,
		NOUN,
	);
	if (fields.remember)
		return await sendRemembered(
			ctx,
			itemIndex,
			fields,
			{ rows: checked.rows, batches },
			paired,
			runPaired,
		);
	return await sendBatches(ctx, itemIndex, fields, batches, paired);
}
