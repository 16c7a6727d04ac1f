import type { IDataObject } from 'n8n-workflow';

import { addIsoDates } from '../../helpers/dates';
import {
	amountField,
	currencyField,
	customerIdField,
	merchantOrderIdField,
	orderFields,
	transactionActionField,
} from './fields';
import { ORDER_FACTS } from './facts';
import { orderOperation } from './operation';

export type ChargeOutcome = 'paid' | 'authorised' | 'declined' | 'customer_action_required';

const PAYMENT_DATE_FIELDS = ['transaction_time'];

/** One shape for the service's three pay-by-token answers. */
export function normaliseCharge(body: IDataObject, timeZone: string): IDataObject {
	const payment =
		typeof body.data === 'object' && body.data !== null ? (body.data as IDataObject) : undefined;
	let outcome: ChargeOutcome;
	if (String(body.code) === 'PAYMENT_FAILED') outcome = 'declined';
	else if (payment)
		outcome =
			payment.order_status === 'AUTHORISED' || payment.action === 'AUTH' ? 'authorised' : 'paid';
	else outcome = 'customer_action_required';

	const source = payment ?? body;
	const out: IDataObject = {
		outcome,
		message: body.message,
		p_order_id: source.p_order_id,
		m_order_id: source.m_order_id,
	};
	if (payment) {
		out.transaction_id = payment.transaction_id;
		out.order_status = payment.order_status;
		out.payment = addIsoDates(payment, PAYMENT_DATE_FIELDS, timeZone);
	}
	for (const field of ['payment_link', 'iframe_link']) {
		if (body[field] !== undefined) out[field] = body[field];
	}
	if (outcome === 'customer_action_required') {
		Object.assign(out, addIsoDates(body, ['order_creation_date'], timeZone));
		out.outcome = outcome;
	}
	return out;
}

/** Pays with a saved card's token (class CAUTH): the one order flow that moves money at once. */
export const { option, table, facts, toolDescription, description, execute } = orderOperation({
	option: {
		name: 'Charge Saved Card',
		value: 'chargeSavedCard',
		description:
			'Pay with a saved-card token (CAUTH), without the customer when the card allows it',
		action: 'Charge a saved card',
	},
	table: [
		{
			name: 'paymentToken',
			displayName: 'Payment Token',
			type: 'text',
			wire: 'payment_token',
			required: true,
			description:
				'The m_payment_token delivered by webhook after Save Card (or a card payment). Tokens belong to the payment service provider that created them.',
			ui: { typeOptions: { password: true } },
		},
		customerIdField('Required: must be the same ID that was used when the card was saved.'),
		amountField,
		currencyField,
		merchantOrderIdField,
		transactionActionField,
		...orderFields({ customerIdOnTop: true }),
	],
	facts: { ...ORDER_FACTS, movesMoney: true } as const,
	tool: "Charges a saved card at once. Needs the customer's ID and the card's payment token (from a Save Card order or the transaction list), an amount and a currency; a merchant order ID is optional (one is made when none is given). To retry a charge whose outcome was unknown, call it again with the same merchant order ID, never without it.",
	request: {
		fixed: { class: 'CAUTH' },
		// A decline by the card's provider is an outcome to route on, not a node failure.
		acceptFailure: (failure) => failure.code === 'PAYMENT_FAILED',
	},
	output: (ctx, itemIndex, response) => [
		{
			json: response.confirmedByDuplicate ? response : normaliseCharge(response, ctx.getTimezone()),
			pairedItem: { item: itemIndex },
		},
	],
});
