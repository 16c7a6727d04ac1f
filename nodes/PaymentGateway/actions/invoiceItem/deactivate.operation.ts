import { itemStateChange } from './common';

/** Active → Deactivated: hidden from selection for new invoices; existing invoices keep it. */
export const { option, table, facts, toolDescription, description, execute } = itemStateChange({
	action: 'deactivate',
	path: '/invoice/v1/items/deactivate',
	option: {
		name: 'Deactivate',
		value: 'deactivate',
		description: 'Hide an item from new invoices; existing invoices keep it',
		action: 'Deactivate an invoice item',
	},
	tool: 'Deactivates an invoice item. Needs its data_id.',
});
