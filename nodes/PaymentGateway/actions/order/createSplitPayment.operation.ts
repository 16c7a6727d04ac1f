import type { INodeProperties } from 'n8n-workflow';

import {
	amountField,
	currencyField,
	merchantOrderIdField,
	orderFields,
	transactionActionField,
} from './fields';
import { statusDeliveryFields } from './sendStatusToExecution';
import { ORDER_FACTS } from './facts';
import { orderOperation } from './operation';
import {
	encodeSplitCustomData,
	MAX_SPLIT_RECIPIENTS,
	recipientsOf,
	splitRecipientsList,
	splitViolations,
} from './split';

const notice: INodeProperties = {
	displayName:
		'Split payments must be enabled on the merchant account and work in live mode only. The customer pays the full amount; the payout is split after settlement.',
	name: 'splitNotice',
	type: 'notice',
	default: '',
};

export const { option, table, facts, toolDescription, description, execute } = orderOperation({
	option: {
		name: 'Create Split Payment',
		value: 'createSplitPayment',
		description: 'Create a hosted order whose payout is split between sub-accounts',
		action: 'Create a split payment',
	},
	table: [
		amountField,
		currencyField,
		merchantOrderIdField,
		transactionActionField,
		splitRecipientsList,
		...statusDeliveryFields,
		...orderFields({ customData: false }),
	],
	facts: ORDER_FACTS,
	tool: "Creates a hosted payment order whose amount is split between sub-merchants. Needs the amount, the currency and each sub-merchant's share; a merchant order ID is optional (one is made when none is given).",
	before: [notice],
	request: {
		fixed: { class: 'ECOM' },
		rules: (values) => splitViolations(recipientsOf(values), values.amount as number | undefined),
		customData: (values) =>
			encodeSplitCustomData(recipientsOf(values).slice(0, MAX_SPLIT_RECIPIENTS)),
	},
	output: 'payment',
});
