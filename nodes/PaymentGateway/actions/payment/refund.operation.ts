import { managePayment } from './common';

/** Refunds a captured payment in part or in full: PARTIALLY_REFUNDED, REFUNDED at zero balance. */
export const { option, table, facts, toolDescription, description, execute } = managePayment({
	action: 'REFUND',
	option: {
		name: 'Refund',
		value: 'refund',
		description: 'Refund a captured payment in part or in full',
		action: 'Refund a payment',
	},
	facts: {
		kind: 'write',
		movesMoney: true,
		retried: false,
		lostAnswer: 'checkDoneOnly',
		settledBy: 'the transaction, read before and after: its status and captured balance',
	},
	tool: 'Refunds a captured payment in full or in part, sending money back to the customer. Needs the transaction_id (transaction list), an amount of at least 1 and the currency of the payment.',
});
