import { itemStateChange } from './common';

/** Removes the item permanently (Active or Deactivated); existing invoices keep their data. */
export const { option, table, facts, toolDescription, description, execute } = itemStateChange({
	action: 'delete',
	path: '/invoice/v1/items/delete',
	option: {
		name: 'Delete',
		value: 'delete',
		description: 'Delete an item permanently; existing invoices keep their data',
		action: 'Delete an invoice item',
	},
	tool: 'Deletes an invoice item. Needs its data_id.',
});
