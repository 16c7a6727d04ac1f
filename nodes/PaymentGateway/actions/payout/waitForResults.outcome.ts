import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { LedgerRecord } from './ledger/record';
import { LEDGER_COLUMNS } from './ledger/record';
import { isFinal, mayPayAgain } from './ledger/states';

/**
 * The outputs of Payout > Wait for Results, in this order. Still Pending is first: where n8n ran
 * nothing of the node at a check (its time-out look gone), it would pass the input items on output
 * 0, and they are batches whose rows are not known to be final.
 */
export const RESULTS_OUTPUTS = ['Still Pending', 'Paid', 'Failed'] as const;

export type ResultOutcome = 'pending' | 'paid' | 'failed';

const OUTPUT_INDEX: Record<ResultOutcome, number> = { pending: 0, paid: 1, failed: 2 };

/** A record's outcome: processed is paid; failed, rejected and reversed are not; the rest pending. */
export function outcomeOf(record: LedgerRecord): ResultOutcome {
	if (!isFinal(record.state)) return 'pending';
	return mayPayAgain(record.state) ? 'failed' : 'paid';
}

/** A ledger row of a batch this node waits for, with the input item (batch) it belongs to. */
export interface BatchRow {
	record: LedgerRecord;
	/** The input item whose Request ID named the row's batch. */
	item: number;
}

/** Internal to the ledger: what a batch sent without a clear answer is known by; the post a result came in. */
const HIDDEN = new Set<string>(['batch_digest', 'result_key']);

const asOutput = (value: unknown): unknown => (value instanceof Date ? value.toISOString() : value);

/** The item of one row: its outcome, then the ledger record's columns (the account's last 4 only). */
export function rowJson(record: LedgerRecord): IDataObject {
	const json: IDataObject = { outcome: outcomeOf(record) };
	for (const { name } of LEDGER_COLUMNS)
		if (!HIDDEN.has(name)) json[name] = asOutput(record[name]) as IDataObject[string];
	json.ledger_row_id = record.id;
	return json;
}

/** Every row on its outcome's output, paired to its batch item. */
export function routedRows(rows: BatchRow[]): INodeExecutionData[][] {
	const outputs: INodeExecutionData[][] = RESULTS_OUTPUTS.map(() => []);
	for (const { record, item } of rows)
		outputs[OUTPUT_INDEX[outcomeOf(record)]].push({
			json: rowJson(record),
			pairedItem: { item },
		});
	return outputs;
}
