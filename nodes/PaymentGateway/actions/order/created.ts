import type { IDataObject } from 'n8n-workflow';

/**
 * What a created order's item says beside the service's answer. The service's `status: "SUCCESS"`
 * means the order was created; read beside a payment link it looks like "paid", so the item says
 * plainly that nothing is paid yet and what comes next.
 */
export const NEXT_STEP = {
	payment:
		'Not paid yet: send payment_link to the customer; the payment arrives through the Payment Gateway Trigger or Order > Wait for Payment.',
	authorization:
		'Not authorized yet: send payment_link to the customer; the authorization arrives through the Payment Gateway Trigger or Order > Wait for Payment. With Capture Method Manual, capture it then with Payment > Capture.',
	cardSave:
		'No card saved yet: send payment_link to the customer; the saved-card token (m_payment_token) arrives by webhook, for example at a Payment Gateway Trigger (event Card Tokenized). Nothing is charged.',
} as const;

export type NextStep = keyof typeof NEXT_STEP;

/** The link came only in the create answer; the transaction list does not carry it. */
const LINK_LOST =
	'Not paid yet. Its payment_link was in the answer that was lost, and the service shows it nowhere else: to take the payment, create a new order with a new Merchant Order ID.';

/** `order_state`, `paid` and `next` of a created order's item. */
export function notPaidYet(step: NextStep, response: IDataObject): IDataObject {
	const linkLost = response.confirmedByDuplicate === true && response.payment_link === undefined;
	return { order_state: 'created', paid: false, next: linkLost ? LINK_LOST : NEXT_STEP[step] };
}
