import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { tableProperties } from '../../fields/properties';
import type { FieldTable } from '../../fields/types';
import { changeItem, dataIdField, sameStateChangeFacts } from './common';
import { describeTool } from '../tool';

const show = { resource: ['invoiceItem'], operation: ['delete'] };

export const table: FieldTable = [dataIdField('delete')];

export const facts = sameStateChangeFacts;

export const toolDescription = describeTool('Deletes an invoice item. Needs its data_id.', facts);

export const description = updateDisplayOptions({ show }, tableProperties(table));

/** POST /invoice/v1/items/delete with the data_id. Removes the item permanently (Active or Deactivated); existing invoices keep their data. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	return await changeItem(
		this,
		itemIndex,
		{ action: 'delete', path: '/invoice/v1/items/delete' },
		table,
	);
}
