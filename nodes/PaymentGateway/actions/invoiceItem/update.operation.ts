import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { tableProperties } from '../../fields/properties';
import type { FieldTable } from '../../fields/types';
import { changeItem, dataIdField, itemFields, sameStateChangeFacts } from './common';
import { describeTool } from '../tool';

const show = { resource: ['invoiceItem'], operation: ['update'] };

export const table: FieldTable = [dataIdField('update'), ...itemFields];

export const facts = sameStateChangeFacts;

export const toolDescription = describeTool(
	'Changes an invoice item. Needs its data_id (from creating it or listing items).',
	facts,
);

export const description = updateDisplayOptions({ show }, tableProperties(table));

/** POST /invoice/v1/items/update: name, rate and category are all sent again (the service requires them). */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	return await changeItem(
		this,
		itemIndex,
		{ action: 'update', path: '/invoice/v1/items/update' },
		table,
	);
}
