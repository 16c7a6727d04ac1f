import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { addIsoDates } from '../../helpers/dates';
import { apiRequest } from '../../transport';
import type { ManagePaymentAction } from '../../validation/payment';
import { validateManagePayment } from '../../validation/payment';
import { assertValid, SUPPORTED_CURRENCIES, toPlainNumber, toText } from '../../validation/rules';
import { getChannel } from '../common.descriptions';

const WORDS: Record<ManagePaymentAction, { verb: string; amount: string; reason: string }> = {
	CAPTURE: {
		verb: 'capture',
		amount: 'Amount to capture from the authorisation, as a plain number',
		reason: 'Merchant note kept with the capture',
	},
	VOID: {
		verb: 'void',
		amount: 'Amount of the authorisation to void (release), as a plain number',
		reason: 'Merchant note kept with the void, for example why the order was cancelled',
	},
	REFUND: {
		verb: 'refund',
		amount:
			'Amount to refund, as a plain number of at least 1; several partial refunds are allowed ' +
			'until the captured amount is used up',
		reason: 'Merchant note kept with the refund, for example why the customer is refunded',
	},
};

/**
 * Parameters shared by capture, void and refund (POST /orders/v1/transaction); each operation
 * scopes them to itself with updateDisplayOptions.
 */
export function managePaymentProperties(
	action: ManagePaymentAction,
	show: NonNullable<INodeProperties['displayOptions']>['show'],
): INodeProperties[] {
	const words = WORDS[action];
	return [
		{
			displayName: 'Transaction ID',
			name: 'transactionId',
			type: 'string',
			required: true,
			default: '',
			description: `The service's ID of the transaction to ${words.verb}`,
			hint: "The transaction_id from the order's webhook or from Transaction > Get Many",
		},
		{
			displayName: 'Amount',
			name: 'amount',
			type: 'number',
			required: true,
			default: 0,
			description: words.amount,
		},
		{
			displayName: 'Currency',
			name: 'currency',
			type: 'options',
			options: SUPPORTED_CURRENCIES.map((code) => ({ name: code, value: code })),
			default: 'AED',
			description: 'Currency of the transaction (ISO 4217), the one the order was created in',
		},
		{
			displayName: 'Additional Fields',
			name: 'additionalFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [
				{
					displayName: 'Reason',
					name: 'reason',
					type: 'string',
					default: '',
					description: words.reason,
				},
			],
		},
	];
}


/**
 * Sends one capture, void or refund. Never retried automatically: it moves money. A failure body
 * (E0044, or an over-refund answered with HTTP 200 and success false) is an error.
 */
export async function executeManagePayment(
	ctx: IExecuteFunctions,
	itemIndex: number,
	action: ManagePaymentAction,
): Promise<INodeExecutionData[]> {
	const channel = getChannel(ctx, itemIndex);
	const transactionId = toText(ctx.getNodeParameter('transactionId', itemIndex));
	const value = ctx.getNodeParameter('amount', itemIndex) as unknown;
	const currencyCode = toText(ctx.getNodeParameter('currency', itemIndex)).toUpperCase();
	const additionalFields = ctx.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const reason = toText(additionalFields.reason);

	assertValid(
		ctx,
		itemIndex,
		validateManagePayment({ action, transaction_id: transactionId, currencyCode, value }),
	);

	const body: IDataObject = {
		action,
		transaction_id: transactionId,
		amount: { currencyCode, value: toPlainNumber(value) },
	};
	if (reason) body.reason = reason;

	const response = await apiRequest.call(ctx, itemIndex, {
		channel,
		method: 'POST',
		path: '/orders/v1/transaction',
		body,
		retrySafe: false,
	});

	const data =
		typeof response.data === 'object' && response.data !== null
			? (response.data as IDataObject)
			: {};
	const json = addIsoDates({ ...data, message: response.message }, ['date'], ctx.getTimezone());
	return [{ json, pairedItem: { item: itemIndex } }];
}
