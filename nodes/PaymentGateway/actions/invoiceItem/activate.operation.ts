import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { tableProperties } from '../../fields/properties';
import type { FieldTable } from '../../fields/types';
import { changeItem, dataIdField, sameStateChangeFacts } from './common';
import { describeTool } from '../tool';

const show = { resource: ['invoiceItem'], operation: ['activate'] };

export const table: FieldTable = [dataIdField('activate')];

export const facts = sameStateChangeFacts;

export const toolDescription = describeTool('Activates an invoice item. Needs its data_id.', facts);

export const description = updateDisplayOptions({ show }, tableProperties(table));

/** POST /invoice/v1/items/activate with the data_id. Deactivated → Active: the item can be chosen for new invoices again. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	return await changeItem(
		this,
		itemIndex,
		{ action: 'activate', path: '/invoice/v1/items/activate' },
		table,
	);
}
