import { itemStateChange } from './common';

/** Deactivated → Active: the item can be chosen for new invoices again. */
export const { option, table, facts, toolDescription, description, execute } = itemStateChange({
	action: 'activate',
	path: '/invoice/v1/items/activate',
	option: {
		name: 'Activate',
		value: 'activate',
		description: 'Make a deactivated item available for new invoices again',
		action: 'Activate an invoice item',
	},
	tool: 'Activates an invoice item. Needs its data_id.',
});
