import type { IDataObject } from 'n8n-workflow';

import { apiRequest } from '../../transport';
import { tableOperation } from '../operation';
import { dataIdField, readBody } from './common';

/** GET /invoice/v1/items/details?data_id=: the item with its rate, category, status and submerchant. */
export const { option, table, facts, toolDescription, description, execute } = tableOperation({
	resource: 'invoiceItem',
	option: {
		name: 'Get',
		value: 'get',
		description: 'Get an item by its data_id',
		action: 'Get an invoice item',
	},
	table: [dataIdField('get')],
	facts: { kind: 'read' },
	tool: 'Gets one invoice item by its data_id.',
	run: async (ctx, itemIndex, table) => {
		const response = await apiRequest.call(ctx, itemIndex, {
			channel: 'invoice',
			method: 'GET',
			path: '/invoice/v1/items/details',
			qs: readBody(ctx, itemIndex, table),
			retrySafe: true,
		});
		const data =
			typeof response.data === 'object' && response.data !== null && !Array.isArray(response.data)
				? (response.data as IDataObject)
				: {};
		return [{ json: data, pairedItem: { item: itemIndex } }];
	},
});
