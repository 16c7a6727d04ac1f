import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { tableProperties } from '../../fields/properties';
import type { FieldTable } from '../../fields/types';
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
import { describeTool } from '../tool';
import { createOrder, orderOutput } from './common';

const show = { resource: ['order'], operation: ['saveCard'] };

const notice: INodeProperties = {
	displayName:
		'The customer authorizes the card on the hosted page; the authorization is voided at once and nothing is captured. The saved-card token (m_payment_token) arrives only by webhook.',
	name: 'saveCardNotice',
	type: 'notice',
	default: '',
};

export const table: FieldTable = [
	customerIdField('Required: use the same ID later with Charge Saved Card.'),
	webhookUrlField(
		'Where the token is delivered. Strongly suggested: paste the production URL of a Payment Gateway Trigger node; without it the account default webhook is used.',
	),
	{ ...amountField, description: 'Amount to authorize and void at once, at least 1' },
	currencyField,
	merchantOrderIdField,
	...statusDeliveryFields,
	...orderFields({ customerIdOnTop: true, webhookUrlOnTop: true }),
];

export const facts = ORDER_FACTS;

export const toolDescription = describeTool(
	"Creates a hosted order in which the customer saves a card (a small authorization voided at once); the card token arrives with the order's final status. Needs the customer's ID; a merchant order ID is optional (one is made when none is given).",
	facts,
);

export const description = updateDisplayOptions({ show }, [notice, ...tableProperties(table)]);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const response = await createOrder(this, itemIndex, {
		table,
		fixed: { class: 'ECOM', action: 'AUTH_REVERSAL' },
	});
	return orderOutput(this, itemIndex, response, 'cardSave');
}
