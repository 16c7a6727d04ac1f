import type { INodeProperties } from 'n8n-workflow';

import {
	amountField,
	currencyField,
	customerIdField,
	merchantOrderIdField,
	orderFields,
	webhookUrlField,
} from './fields';
import { statusDeliveryFields } from './sendStatusToExecution';
import { ORDER_FACTS } from './facts';
import { orderOperation } from './operation';

const notice: INodeProperties = {
	displayName:
		'The customer authorizes the card on the hosted page; the authorization is voided at once and nothing is captured. The saved-card token (m_payment_token) arrives only by webhook.',
	name: 'saveCardNotice',
	type: 'notice',
	default: '',
};

export const { option, table, facts, toolDescription, description, execute } = orderOperation({
	option: {
		name: 'Save Card',
		value: 'saveCard',
		description: 'Tokenize a card (AUTH_REVERSAL); the token arrives by webhook',
		action: 'Save a card',
	},
	table: [
		customerIdField('Required: use the same ID later with Charge Saved Card.'),
		webhookUrlField(
			'Where the token is delivered. Strongly suggested: paste the production URL of a Payment Gateway Trigger node; without it the account default webhook is used.',
		),
		{ ...amountField, description: 'Amount to authorize and void at once, at least 1' },
		currencyField,
		merchantOrderIdField,
		...statusDeliveryFields,
		...orderFields({ customerIdOnTop: true, webhookUrlOnTop: true }),
	],
	facts: ORDER_FACTS,
	tool: "Creates a hosted order in which the customer saves a card (a small authorization voided at once); the card token arrives with the order's final status. Needs the customer's ID; a merchant order ID is optional (one is made when none is given).",
	before: [notice],
	request: { fixed: { class: 'ECOM', action: 'AUTH_REVERSAL' } },
	output: 'cardSave',
});
