import type { IDataObject } from 'n8n-workflow';

import { readTable } from '../../fields/read';
import { addIsoDates } from '../../helpers/dates';
import { apiRequest } from '../../transport';
import { assertValid } from '../../fields/violations';
import { tableOperation } from '../operation';
import { posOrderPath } from '../paths';

/** GET /pos/v1/orders/{order_id} with the POS web API keys: the transaction and its history. */
export const { option, table, facts, toolDescription, description, execute } = tableOperation({
	resource: 'transaction',
	option: {
		name: 'Get POS Order',
		value: 'getPosOrder',
		description: 'Get a POS order with its transaction history, using the POS web API keys',
		action: 'Get a POS order',
	},
	table: [
		{
			name: 'orderId',
			displayName: 'Order ID',
			label: 'order_id',
			type: 'text',
			required: true,
			pathSegment: true,
			description: "The service's order ID (p_order_id) of the POS order",
			ui: { hint: 'The p_order_id from the POS order, its webhook or Transaction > Get Many' },
		},
	],
	facts: { kind: 'read' },
	tool: "Gets an in-store (POS terminal) order and its transaction history by the service's order ID.",
	run: async (ctx, itemIndex, table) => {
		const { values, violations } = readTable(ctx, itemIndex, table);
		assertValid(ctx, itemIndex, violations);
		// Checked text has no broken Unicode, so encoding it into the path cannot fail.
		const orderId = String(values.orderId);

		const response = await apiRequest.call(ctx, itemIndex, {
			// Always the POS keys: the credential selector shows only POS credentials for this operation.
			channel: 'pos',
			method: 'GET',
			path: posOrderPath(orderId),
			retrySafe: true,
		});

		const data =
			typeof response.data === 'object' && response.data !== null
				? (response.data as IDataObject)
				: {};
		const history = Array.isArray(data.transaction_history) ? data.transaction_history : [];
		const json = addIsoDates(
			{ ...data, transaction_history: history },
			['transaction_date'],
			ctx.getTimezone(),
		);
		return [{ json, pairedItem: { item: itemIndex } }];
	},
});
