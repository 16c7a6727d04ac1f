import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	amountProperty,
	createOrder,
	currencyProperty,
	customerIdProperty,
	merchantOrderIdProperty,
	orderFields,
	orderOutput,
	webhookUrlProperty,
} from './shared';

const show = { resource: ['order'], operation: ['saveCard'] };

const properties: INodeProperties[] = [
	{
		displayName:
			'The customer authorizes the card on the hosted page; the authorization is voided at once and nothing is captured. The saved-card token (m_payment_token) arrives only by webhook.',
		name: 'saveCardNotice',
		type: 'notice',
		default: '',
	},
	customerIdProperty('Required: use the same ID later with Charge Saved Card.'),
	webhookUrlProperty(
		'Where the token is delivered. Strongly suggested: paste the production URL of a Payment Gateway Trigger node; without it the account default webhook is used.',
	),
	{ ...amountProperty, description: 'Amount to authorize and void at once, at least 1' },
	currencyProperty,
	merchantOrderIdProperty,
	...orderFields({ customerIdOnTop: true, webhookUrlOnTop: true }),
];

export const description = updateDisplayOptions({ show }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const response = await createOrder(this, itemIndex, { class: 'ECOM', action: 'AUTH_REVERSAL' });
	return orderOutput(this, itemIndex, response);
}
