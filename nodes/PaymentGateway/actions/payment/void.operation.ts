import { managePayment } from './common';

/** Voids an authorisation that is not captured: AUTHORISED → VOID; no money moves. */
export const { option, table, facts, toolDescription, description, execute } = managePayment({
	action: 'VOID',
	option: {
		name: 'Void',
		value: 'void',
		description: 'Release an authorized payment that is not captured',
		action: 'Void a payment',
	},
	facts: {
		kind: 'write',
		movesMoney: false,
		retried: false,
		lostAnswer: 'check',
		settledBy: 'the transaction: VOID or still AUTHORISED',
	},
	tool: 'Voids (releases) an authorization that was not captured, so the customer is not charged. Needs the transaction_id, the amount and the currency.',
});
