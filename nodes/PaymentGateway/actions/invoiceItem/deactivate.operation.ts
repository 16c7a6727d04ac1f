import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { tableProperties } from '../../fields/properties';
import type { FieldTable } from '../../fields/types';
import { changeItem, dataIdField, sameStateChangeFacts } from './common';
import { describeTool } from '../tool';

const show = { resource: ['invoiceItem'], operation: ['deactivate'] };

export const table: FieldTable = [dataIdField('deactivate')];

export const facts = sameStateChangeFacts;

export const toolDescription = describeTool(
	'Deactivates an invoice item. Needs its data_id.',
	facts,
);

export const description = updateDisplayOptions({ show }, tableProperties(table));

/** POST /invoice/v1/items/deactivate with the data_id. Active → Deactivated: hidden from selection for new invoices; existing invoices keep it. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	return await changeItem(
		this,
		itemIndex,
		{ action: 'deactivate', path: '/invoice/v1/items/deactivate' },
		table,
	);
}
