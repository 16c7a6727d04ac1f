import type { NodeMap } from './node.type';

const NOT_RETRIED =
	'It is not retried automatically: if it fails without a clear answer, look the transaction up with the transaction list before trying again.';

/**
 * The operations versions 1 and 2 offered when version 3 came, frozen: an operation added since has
 * no text of those versions (it shows its own `toolDescription` in every version).
 */
type LegacyNodeMap = {
	order:
		| 'createPayment'
		| 'authorize'
		| 'saveCard'
		| 'chargeSavedCard'
		| 'createSplitPayment'
		| 'waitForPayment';
	transaction: 'get' | 'getMany' | 'getPosOrder' | 'uploadDocument';
	payment: 'capture' | 'void' | 'refund';
	paymentLink: 'deactivate' | 'bulkCreate';
	payout: 'bulkCreate';
	invoiceItem: 'create' | 'update' | 'activate' | 'deactivate' | 'delete' | 'get' | 'getMany';
	subscriptionPlan: 'create';
};

/** An operation of versions 1-2 that the node no longer offers makes this `false` and tsc fails. */
type Gone = {
	[R in keyof LegacyNodeMap]: Exclude<LegacyNodeMap[R], NodeMap[R]>;
}[keyof LegacyNodeMap];
const noneGone: [Gone] extends [never] ? true : false = true;
void noneGone;

/**
 * The tool descriptions of node versions 1 and 2, as their saved workflows were made with them: a
 * default of an existing version never changes (test/unit/parameter-contract.test.ts). New nodes
 * (version 3) read each operation's own `toolDescription`, written from what it does.
 */
export const LEGACY_TOOL_DESCRIPTIONS: {
	[R in keyof LegacyNodeMap]: Record<LegacyNodeMap[R], string>;
} = {
	order: {
		createPayment: `Creates a hosted card payment order and returns its payment_link (send it to the customer) and the service's p_order_id. Needs an amount as a plain number in the currency given, and a new merchant order ID never used before. Creates a real order. ${NOT_RETRIED}`,
		authorize: `Creates a hosted order that only authorizes the card; the money is taken later with the capture tool. Needs an amount, a currency and a new merchant order ID. ${NOT_RETRIED}`,
		saveCard: `Creates a hosted order in which the customer saves a card (a small authorization voided at once); the card token arrives with the order's final status. Needs the customer's ID and a new merchant order ID. ${NOT_RETRIED}`,
		chargeSavedCard: `Charges a saved card at once: MOVES MONEY. Needs the customer's ID and the card's payment token (from a Save Card order or the transaction list), an amount and a new merchant order ID. ${NOT_RETRIED}`,
		createSplitPayment: `Creates a hosted payment order whose amount is split between sub-merchants. Needs the amount, the currency, a new merchant order ID and each sub-merchant's share. ${NOT_RETRIED}`,
		waitForPayment:
			'Waits until the order created earlier in this workflow is paid, fails or the time limit passes. Not useful to an agent: it pauses the whole workflow.',
	},
	transaction: {
		get: 'Gets one transaction by its order ID (p_order_id) or its transaction ID: status, amounts, dates. Read-only; use it to check whether a payment, capture or refund went through.',
		getMany:
			'Lists transactions, newest first, filtered by status, currency, dates, amounts or IDs. Read-only; use it to find a transaction_id or p_order_id and the current status of a payment.',
		getPosOrder:
			"Gets an in-store (POS terminal) order and its transaction history by the service's order ID. Read-only.",
		uploadDocument:
			'Attaches an invoice or air waybill file (from the binary data of the item) to a captured transaction. Needs the transaction ID, the document type and its reference. Not retried automatically.',
	},
	payment: {
		capture: `Captures an authorized payment, taking the money: MOVES MONEY. Needs the transaction_id (transaction list or the order's status), the amount and the currency of the payment. ${NOT_RETRIED}`,
		void: `Voids (releases) an authorization that was not captured, so the customer is not charged. Needs the transaction_id, the amount and the currency. ${NOT_RETRIED}`,
		refund: `Refunds a captured payment in full or in part, sending money back to the customer: MOVES MONEY. Needs the transaction_id (transaction list), an amount of at least 1 and the currency of the payment. ${NOT_RETRIED}`,
	},
	paymentLink: {
		deactivate: "Deactivates a payment link so it can no longer be paid. Needs the link's data_id.",
		bulkCreate:
			'Creates many payment links at once from rows (one link per row). Creates real links; not retried automatically.',
	},
	payout: {
		bulkCreate:
			'Sends payouts to bank accounts or wallets from rows: MOVES MONEY. Every row is checked before anything is sent; a batch is never paid twice, even when the same rows are sent again.',
	},
	invoiceItem: {
		create:
			'Creates a reusable invoice item (name, rate per unit, category). Returns its data_id, which the other invoice item tools need.',
		update: 'Changes an invoice item. Needs its data_id (from creating it or listing items).',
		activate: 'Activates an invoice item. Needs its data_id.',
		deactivate: 'Deactivates an invoice item. Needs its data_id.',
		delete: 'Deletes an invoice item. Needs its data_id.',
		get: 'Gets one invoice item by its data_id. Read-only.',
		getMany:
			"Lists invoice items, optionally only active or deactivated ones. Read-only; gives each item's data_id.",
	},
	subscriptionPlan: {
		create:
			'Creates a subscription plan (billing frequency, installment amount, terms, start date) and returns its link and QR code; can email it to customers. Creates a real plan; not retried automatically.',
	},
};
