import type { INodeProperties } from 'n8n-workflow';

import * as authorize from './authorize.operation';
import * as chargeSavedCard from './chargeSavedCard.operation';
import * as createPayment from './createPayment.operation';
import * as createSplitPayment from './createSplitPayment.operation';
import * as saveCard from './saveCard.operation';
import * as waitForPayment from './waitForPayment.operation';

/** Wait for Payment has three outputs: the router runs it whole, outside its item loop. */
export { authorize, chargeSavedCard, createPayment, createSplitPayment, saveCard, waitForPayment };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['order'] } },
		options: [
			{
				name: 'Authorize',
				value: 'authorize',
				description:
					'Create a hosted order that holds the funds (AUTH), captured automatically or later',
				action: 'Authorize a payment',
			},
			{
				name: 'Charge Saved Card',
				value: 'chargeSavedCard',
				description:
					'Pay with a saved-card token (CAUTH), without the customer when the card allows it',
				action: 'Charge a saved card',
			},
			{
				name: 'Create Payment',
				value: 'createPayment',
				description: 'Create a hosted order (SALE) and get its payment link',
				action: 'Create a payment',
			},
			{
				name: 'Create Split Payment',
				value: 'createSplitPayment',
				description: 'Create a hosted order whose payout is split between sub-accounts',
				action: 'Create a split payment',
			},
			{
				name: 'Save Card',
				value: 'saveCard',
				description: 'Tokenize a card (AUTH_REVERSAL); the token arrives by webhook',
				action: 'Save a card',
			},
			{
				name: 'Wait for Payment',
				value: 'waitForPayment',
				description:
					'Pause this execution until the order is paid or fails, or the wait limit passes',
				action: 'Wait for a payment',
			},
		],
		default: 'createPayment',
	},
	...createPayment.description,
	...authorize.description,
	...saveCard.description,
	...chargeSavedCard.description,
	...createSplitPayment.description,
	...waitForPayment.description,
];
