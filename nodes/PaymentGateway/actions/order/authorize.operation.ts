import type { Field } from '../../fields/types';
import { amountField, currencyField, merchantOrderIdField, orderFields } from './fields';
import { statusDeliveryFields } from './sendStatusToExecution';
import { ORDER_FACTS } from './facts';
import { orderOperation } from './operation';

/** Always sent: left out, the service captures automatically — the opposite of holding the funds. */
const captureMethodField: Field = {
	name: 'captureMethod',
	displayName: 'Capture Method',
	type: 'options',
	wire: 'capture_method',
	required: true,
	options: [
		{
			name: 'Manual',
			value: 'MANUAL',
			description: 'Hold the funds; capture them later with Payment > Capture',
		},
		{
			name: 'Automatic',
			value: 'AUTOMATIC',
			description: 'Capture right after the authorization succeeds',
		},
	],
	description:
		'Whether the authorized funds are captured automatically. Sent explicitly: the service captures automatically when it is omitted.',
};

export const { option, table, facts, toolDescription, description, execute } = orderOperation({
	option: {
		name: 'Authorize',
		value: 'authorize',
		description:
			'Create a hosted order that holds the funds (AUTH), captured automatically or later',
		action: 'Authorize a payment',
	},
	table: [
		amountField,
		currencyField,
		merchantOrderIdField,
		captureMethodField,
		...statusDeliveryFields,
		...orderFields(),
	],
	facts: ORDER_FACTS,
	tool: 'Creates a hosted order that only authorizes the card; the money is taken later with the capture tool. Needs an amount and a currency; a merchant order ID is optional (one is made when none is given).',
	request: { fixed: { class: 'ECOM', action: 'AUTH' } },
	output: 'authorization',
});
