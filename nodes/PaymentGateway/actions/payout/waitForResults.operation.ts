import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { tableProperties } from '../../fields/properties';
import { readTable } from '../../fields/read';
import type { FieldTable } from '../../fields/types';
import { assertValid } from '../../fields/violations';
import type { OperationOption } from '../operation';
import type { OperationFacts } from '../tool';
import { describeTool } from '../tool';
import { waitLimitFields, waitMsOf } from '../waitLimit';
import { runPausing } from '../waitRun';
import { isFinal } from './ledger';
import {
	assertMayWait,
	checkTurn,
	firstWait,
	isLastCheck,
	nextWait,
	waitForCheck,
} from './waitForResults.checks';
import { RESULTS_OUTPUTS, routedRows } from './waitForResults.outcome';
import {
	openResultsLedger,
	readRequestIds,
	readRows,
	requestIdsField,
} from './waitForResults.rows';

export const option = {
	name: 'Wait for Results',
	value: 'waitForResults',
	description:
		'Pause this execution until every row of the batches is paid, failed or the wait limit passes',
	action: 'Wait for payout results',
} as const satisfies OperationOption;

const show = { resource: ['payout'], operation: [option.value] };

const notice: INodeProperties = {
	displayName:
		"Put this after Bulk Create. It reads the batches' rows in the payout account's ledger (an n8n data table, updated by the Payment Gateway Payout Results Trigger) after 1, 2, 4 and 8 minutes, then every 15, until every row is final or the wait limit passes. Outputs, one item per row: Still Pending, Paid (processed), Failed (failed, rejected or reversed).",
	name: 'waitForResultsNotice',
	type: 'notice',
	default: '',
};

const settingsTable: FieldTable = waitLimitFields(
	'How long to wait for every row to be final; the rows not final by then leave on Still Pending',
);

export const table: FieldTable = [requestIdsField, ...settingsTable];

export const facts = { kind: 'wait' } as const satisfies OperationFacts;

export const toolDescription = describeTool(
	'Waits until every row of the payout batches sent earlier in this workflow is paid, failed or the time limit passes, reading the payout ledger. It pauses the whole workflow.',
	facts,
);

export const description = updateDisplayOptions({ show }, [notice, ...tableProperties(table)]);

/** The Wait Limit in milliseconds, read from the first item (one wait per execution). */
function readWaitMs(ctx: IExecuteFunctions): number {
	const { values, violations } = readTable(ctx, 0, settingsTable);
	const { waitMs, violations: extra } = waitMsOf(values);
	assertValid(ctx, 0, [...violations, ...extra]);
	return waitMs;
}

async function waitOrRoute(ctx: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	if (ctx.getInputData().length === 0) return RESULTS_OUTPUTS.map(() => []);
	const waitMs = readWaitMs(ctx);
	const wanted = readRequestIds(ctx);
	const requestIds = wanted.map((batch) => batch.requestId);
	const turn = checkTurn(ctx, requestIds);
	// A check turn has waited already; the first run refuses to wait where n8n cannot check again,
	// even when every row is final now, so that a workflow does not work only on lucky days.
	if (!turn) await assertMayWait(ctx);
	const ledger = await openResultsLedger(ctx);
	const rows = await readRows(ctx, ledger, wanted);
	const pending = rows.some(({ record }) => !isFinal(record.state));
	// Results that came before the wait count: every row final routes at once.
	if (!pending || (turn && isLastCheck(turn))) return routedRows(rows);
	const now = new Date();
	await waitForCheck(ctx, turn ? nextWait(turn, now) : firstWait(ctx, requestIds, now, waitMs));
	// Nothing on any output while waiting: what a waiting node returns is what the canvas shows.
	// n8n drops this run when the check comes and runs the node again with the same input.
	return RESULTS_OUTPUTS.map(() => []);
}

/** Payout > Wait for Results: three outputs, so the router runs it whole, outside its item loop. */
export async function run(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await runPausing(this, {
		name: 'Wait for Results',
		toolHelp: 'An AI agent cannot wait for payout results; use it in a workflow.',
		outputs: RESULTS_OUTPUTS.length,
		waitOrRoute,
	});
}
