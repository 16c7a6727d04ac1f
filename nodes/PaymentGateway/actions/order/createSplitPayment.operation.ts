import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { tableProperties } from '../../fields/properties';
import type { FieldTable } from '../../fields/types';
import {
	amountField,
	currencyField,
	merchantOrderIdField,
	orderFields,
	transactionActionField,
} from './fields';
import { statusDeliveryFields } from './sendStatusToExecution';
import { ORDER_FACTS } from './facts';
import { describeTool } from '../tool';
import { createOrder, orderOutput } from './common';
import {
	encodeSplitCustomData,
	MAX_SPLIT_RECIPIENTS,
	recipientsOf,
	splitRecipientsList,
	splitViolations,
} from './split';
import type { OperationOption } from '../operation';

export const option = {
	name: 'Create Split Payment',
	value: 'createSplitPayment',
	description: 'Create a hosted order whose payout is split between sub-accounts',
	action: 'Create a split payment',
} as const satisfies OperationOption;

const show = { resource: ['order'], operation: [option.value] };

const notice: INodeProperties = {
	displayName:
		'Split payments must be enabled on the merchant account and work in live mode only. The customer pays the full amount; the payout is split after settlement.',
	name: 'splitNotice',
	type: 'notice',
	default: '',
};

export const table: FieldTable = [
	amountField,
	currencyField,
	merchantOrderIdField,
	transactionActionField,
	splitRecipientsList,
	...statusDeliveryFields,
	...orderFields({ customData: false }),
];

export const facts = ORDER_FACTS;

export const toolDescription = describeTool(
	"Creates a hosted payment order whose amount is split between sub-merchants. Needs the amount, the currency and each sub-merchant's share; a merchant order ID is optional (one is made when none is given).",
	facts,
);

export const description = updateDisplayOptions({ show }, [notice, ...tableProperties(table)]);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const response = await createOrder(this, itemIndex, {
		table,
		fixed: { class: 'ECOM' },
		rules: (values) => splitViolations(recipientsOf(values), values.amount as number | undefined),
		customData: (values) =>
			encodeSplitCustomData(recipientsOf(values).slice(0, MAX_SPLIT_RECIPIENTS)),
	});
	return orderOutput(this, itemIndex, response, 'payment');
}
