import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { tableProperties } from '../../fields/properties';
import { toWire } from '../../fields/read';
import type { FieldTable } from '../../fields/types';
import { assertValid } from '../../fields/violations';
import { limitField, readListTable, returnAllField } from '../list.fields';
import { addIsoDatesInPlace } from '../../helpers/dates';
import { pageOf, walkPages } from '../list.pages';
import type { OperationFacts } from '../tool';
import { describeTool } from '../tool';
import type { OperationOption } from '../operation';
import { listInvoiceItems } from './list';

export const option = {
	name: 'Get Many',
	value: 'getMany',
	description: 'List items, optionally only active or deactivated ones',
	action: 'Get many invoice items',
} as const satisfies OperationOption;

const show = { resource: ['invoiceItem'], operation: [option.value] };

/** The invoice item list's pages: perpage 1-1000, page 1-1000. */
export const ITEM_LIST_MAX_PER_PAGE = 1000;
export const ITEM_LIST_MAX_PAGE = 1000;

export const ITEM_STATUSES = ['Active', 'Deactivated'];

export const table: FieldTable = [
	returnAllField,
	// Page and perpage both stop at 1000: a Limit can reach at most a million items.
	limitField(show, ITEM_LIST_MAX_PAGE * ITEM_LIST_MAX_PER_PAGE),
	{
		group: 'collection',
		name: 'filters',
		displayName: 'Filters',
		placeholder: 'Add Filter',
		fields: [
			{
				name: 'status',
				displayName: 'Status',
				type: 'options',
				wire: 'status',
				caseInsensitive: true,
				options: ITEM_STATUSES.map((value) => ({ name: value, value })),
				description: 'Only items in this state',
			},
		],
	},
];

export const facts = { kind: 'read' } as const satisfies OperationFacts;

export const toolDescription = describeTool(
	"Lists invoice items, optionally only active or deactivated ones; gives each item's data_id.",
	facts,
);

export const description = updateDisplayOptions({ show }, tableProperties(table));

const DATE_FIELDS = ['created_date', 'last_modified_date'];

/**
 * GET /invoice/v1/items/list: Return All walks pages of 1000 (the service's maximum) until
 * total_records are collected; otherwise Limit caps the result. Newest first, as the service lists.
 */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { values, violations, list } = readListTable(this, itemIndex, table);
	assertValid(this, itemIndex, violations);
	const query = toWire(table, values);

	const fetchPage = async (page: number, perpage: number) => {
		// Only Return All past a million items can reach this; the service takes no page above 1000.
		if (page > ITEM_LIST_MAX_PAGE) {
			assertValid(this, itemIndex, [
				{
					field: 'page',
					rule: `must be at most ${ITEM_LIST_MAX_PAGE}: the list is longer than the service can page`,
					value: page,
				},
			]);
		}
		return pageOf(await listInvoiceItems(this, itemIndex, { perpage, page, ...query }));
	};
	const timeZone = this.getTimezone();
	const toItem = (record: IDataObject): INodeExecutionData => ({
		json: addIsoDatesInPlace(record, DATE_FIELDS, timeZone),
		pairedItem: { item: itemIndex },
	});
	return await walkPages(fetchPage, list, ITEM_LIST_MAX_PER_PAGE, toItem);
}
