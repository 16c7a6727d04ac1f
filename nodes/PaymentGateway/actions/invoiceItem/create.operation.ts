import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { tableProperties } from '../../fields/properties';
import type { FieldTable } from '../../fields/types';
import { apiRequest } from '../../transport';
import { itemFields, readBody } from './common';
import type { OperationFacts } from '../tool';
import { describeTool } from '../tool';

const show = { resource: ['invoiceItem'], operation: ['create'] };

export const table: FieldTable = itemFields;

export const facts = {
	kind: 'write',
	movesMoney: false,
	retried: false,
	lostAnswer: 'check',
	settledBy: 'the item list for an item of that name',
} as const satisfies OperationFacts;

export const toolDescription = describeTool(
	'Creates a reusable invoice item (name, rate per unit, category). Returns its data_id, which the other invoice item tools need.',
	facts,
);

export const description = updateDisplayOptions({ show }, tableProperties(table));

/**
 * POST /invoice/v1/items/add: a new Active item. Not retried automatically: after a lost answer a
 * second attempt would be refused as a duplicate name and hide the data_id of the item created.
 */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const body = readBody(this, itemIndex, table);
	const response = await apiRequest.call(this, itemIndex, {
		channel: 'invoice',
		method: 'POST',
		path: '/invoice/v1/items/add',
		body,
		retrySafe: false,
		howToCheck: 'look the item up with Invoice Item > Get Many',
	});
	const data =
		typeof response.data === 'object' && response.data !== null && !Array.isArray(response.data)
			? (response.data as IDataObject)
			: {};
	return [{ json: { ...data, message: response.message }, pairedItem: { item: itemIndex } }];
}
