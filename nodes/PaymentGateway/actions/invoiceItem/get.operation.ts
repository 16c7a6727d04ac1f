import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { tableProperties } from '../../fields/properties';
import type { FieldTable } from '../../fields/types';
import { apiRequest } from '../../transport';
import { dataIdField, readBody } from './common';
import type { OperationFacts } from '../tool';
import { describeTool } from '../tool';

const show = { resource: ['invoiceItem'], operation: ['get'] };

export const table: FieldTable = [dataIdField('get')];

export const facts = { kind: 'read' } as const satisfies OperationFacts;

export const toolDescription = describeTool('Gets one invoice item by its data_id.', facts);

export const description = updateDisplayOptions({ show }, tableProperties(table));

/** GET /invoice/v1/items/details?data_id=: the item with its rate, category, status and submerchant. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const response = await apiRequest.call(this, itemIndex, {
		channel: 'invoice',
		method: 'GET',
		path: '/invoice/v1/items/details',
		qs: readBody(this, itemIndex, table),
		retrySafe: true,
	});
	const data =
		typeof response.data === 'object' && response.data !== null && !Array.isArray(response.data)
			? (response.data as IDataObject)
			: {};
	return [{ json: data, pairedItem: { item: itemIndex } }];
}
