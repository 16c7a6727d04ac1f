import { amountField, currencyField, merchantOrderIdField, orderFields } from './fields';
import { statusDeliveryFields } from './sendStatusToExecution';
import { ORDER_FACTS } from './facts';
import { orderOperation } from './operation';

export const { option, table, facts, toolDescription, description, execute } = orderOperation({
	option: {
		name: 'Create Payment',
		value: 'createPayment',
		description: 'Create a hosted order (SALE) and get its payment link',
		action: 'Create a payment',
	},
	table: [
		amountField,
		currencyField,
		merchantOrderIdField,
		...statusDeliveryFields,
		...orderFields(),
	],
	facts: ORDER_FACTS,
	tool: "Creates a hosted card payment order and returns its payment_link (send it to the customer), the service's p_order_id and its m_order_id. Needs an amount as a plain number in the currency given; a merchant order ID is optional (one is made when none is given, and a given one must never have been used before). Creates a real order; no money moves until the customer pays.",
	request: { fixed: { class: 'ECOM', action: 'SALE' } },
	output: 'payment',
});
