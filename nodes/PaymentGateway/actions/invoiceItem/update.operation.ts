import { tableOperation } from '../operation';
import { changeItem, dataIdField, itemFields, sameStateChangeFacts } from './common';

/** POST /invoice/v1/items/update: name, rate and category are all sent again (the service requires them). */
export const { option, table, facts, toolDescription, description, execute } = tableOperation({
	resource: 'invoiceItem',
	option: {
		name: 'Update',
		value: 'update',
		description: "Change an item's name, rate, category and description",
		action: 'Update an invoice item',
	},
	table: [dataIdField('update'), ...itemFields],
	facts: sameStateChangeFacts,
	tool: 'Changes an invoice item. Needs its data_id (from creating it or listing items).',
	run: async (ctx, itemIndex, table) =>
		await changeItem(ctx, itemIndex, { action: 'update', path: '/invoice/v1/items/update' }, table),
});
