import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { tableProperties } from '../../fields/properties';
import { toWire } from '../../fields/read';
import type { FieldTable } from '../../fields/types';
import { assertValid } from '../../fields/violations';
import { getChannel } from '../channel';
import { limitField, readListTable, returnAllField, simplifyField } from '../list.fields';
import { addIsoDatesInPlace } from '../../helpers/dates';
import { pageOf, walkPages } from '../list.pages';
import type { OperationFacts } from '../tool';
import { describeTool } from '../tool';
import { LIST_MAX_PER_PAGE, listTransactions } from './list';
import { filtersGroup, rangeViolations } from './list.filters';
import type { OperationOption } from '../operation';

/** Get Many offers every filter of the list (list.filters.ts). */
export { FILTERS } from './list.filters';

export const option = {
	name: 'Get Many',
	value: 'getMany',
	description: 'List transactions, filtered and paginated',
	action: 'Get many transactions',
} as const satisfies OperationOption;

const show = { resource: ['transaction'], operation: [option.value] };

export const table: FieldTable = [returnAllField, limitField(show), simplifyField, filtersGroup];

export const facts = { kind: 'read' } as const satisfies OperationFacts;

export const toolDescription = describeTool(
	'Lists transactions, newest first, filtered by status, currency, dates, amounts or IDs. Use it to find a transaction_id or p_order_id and the current status of a payment.',
	facts,
);

export const description = updateDisplayOptions({ show }, tableProperties(table));

/** What Simplify keeps of a transaction. */
const SIMPLE_FIELDS = [
	'transaction_id',
	'p_order_id',
	'm_order_id',
	'status',
	'amount',
	'amount_captured',
	'currency',
	'transaction_date',
	'transaction_date_iso',
	'payment_method',
	'm_customer_id',
	'psp',
];

/** One output item per record, made as its page arrives: Simplify picks without copying the rest. */
function toOutput(simplify: boolean, timeZone: string, itemIndex: number) {
	return (record: IDataObject): INodeExecutionData => {
		const full = addIsoDatesInPlace(record, ['transaction_date'], timeZone);
		if (!simplify) return { json: full, pairedItem: { item: itemIndex } };
		const json: IDataObject = {};
		for (const field of SIMPLE_FIELDS) if (field in full) json[field] = full[field];
		return { json, pairedItem: { item: itemIndex } };
	};
}

/** The transaction list, filtered, page by page. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const channel = getChannel(this, itemIndex);
	const { values, violations, list } = readListTable(this, itemIndex, table);
	const query = toWire(table, values);
	violations.push(...rangeViolations(query));
	assertValid(this, itemIndex, violations);

	const fetchPage = async (page: number, perpage: number) =>
		pageOf(await listTransactions(this, itemIndex, channel, { ...query, page, perpage }));
	return await walkPages(
		fetchPage,
		list,
		LIST_MAX_PER_PAGE,
		toOutput(list.simplify, this.getTimezone(), itemIndex),
	);
}
