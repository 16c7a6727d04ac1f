import { managePayment } from './common';

/** Captures an authorisation made with Capture Method Manual: AUTHORISED → CAPTURED. */
export const { option, table, facts, toolDescription, description, execute } = managePayment({
	action: 'CAPTURE',
	option: {
		name: 'Capture',
		value: 'capture',
		description: 'Capture an authorized payment made with manual capture',
		action: 'Capture a payment',
	},
	facts: {
		kind: 'write',
		movesMoney: true,
		retried: false,
		lostAnswer: 'check',
		settledBy: 'the transaction: CAPTURED or PARTIALLY_CAPTURE with the amount',
	},
	tool: "Captures an authorized payment, taking the money. Needs the transaction_id (transaction list or the order's status), the amount and the currency of the payment.",
});
