import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { addIsoDates } from '../../helpers/dates';
import { apiRequest, collectPages } from '../../transport';
import {
	ITEM_LIST_MAX_PAGE,
	ITEM_LIST_MAX_PER_PAGE,
	ITEM_STATUSES,
	validateItemListQuery,
} from '../../validation/invoiceItem';
import { assertValid, toText } from '../../validation/rules';
import { limitProperty, returnAllProperty } from '../common.descriptions';
import { ITEMS_PATH } from './common';

const show = { resource: ['invoiceItem'], operation: ['getMany'] };

/** Most records a Limit can reach: page and perpage both stop at 1000. */
const MAX_LIMIT = ITEM_LIST_MAX_PAGE * ITEM_LIST_MAX_PER_PAGE;

const properties: INodeProperties[] = [
	returnAllProperty(show),
	limitProperty(show),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Status',
				name: 'status',
				type: 'options',
				options: ITEM_STATUSES.map((value) => ({ name: value, value })),
				default: 'Active',
				description: 'Only items in this state',
			},
		],
	},
];

export const description = updateDisplayOptions({ show }, properties);

/**
 * GET /invoice/v1/items/list: Return All walks pages of 1000 (the service's maximum) until
 * total_records are collected; otherwise Limit caps the result. Newest first, as the service lists.
 */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const returnAll = this.getNodeParameter('returnAll', itemIndex) as boolean;
	const limit = returnAll ? 0 : (this.getNodeParameter('limit', itemIndex) as number);
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const status = toText(filters.status);

	const query: IDataObject = status === '' ? {} : { status };
	assertValid(this, itemIndex, validateItemListQuery({ ...query, page: 1, perpage: 1 }));
	if (!returnAll && !(Number.isInteger(limit) && limit >= 1 && limit <= MAX_LIMIT)) {
		assertValid(this, itemIndex, [
			{ field: 'limit', rule: `must be a whole number from 1 to ${MAX_LIMIT} (1000 pages of 1000)`, value: limit },
		]);
	}

	const records = await collectPages(
		async (page, perpage) => {
			// Only Return All past a million items can reach this; the service takes no page above 1000.
			assertValid(this, itemIndex, validateItemListQuery({ ...query, page, perpage }));
			const response = await apiRequest.call(this, itemIndex, {
				channel: 'invoice',
				method: 'GET',
				path: `${ITEMS_PATH}/list`,
				qs: { perpage, page, ...query },
				retrySafe: true,
			});
			const data = Array.isArray(response.data) ? (response.data as IDataObject[]) : [];
			const total = Number(response.total_records);
			return { records: data, total: Number.isFinite(total) ? total : undefined };
		},
		{ returnAll, limit, maxPerPage: ITEM_LIST_MAX_PER_PAGE },
	);

	const timeZone = this.getTimezone();
	return records.map((record) => ({
		json: addIsoDates(record, ['created_date', 'last_modified_date'], timeZone),
		pairedItem: { item: itemIndex },
	}));
}
