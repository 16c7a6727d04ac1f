import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { SplitRecipient } from '../../validation/order';
import { encodeSplitCustomData, MAX_SPLIT_RECIPIENTS, validateSplitRecipients } from '../../validation/order';
import {
	amountProperty,
	createOrder,
	currencyProperty,
	merchantOrderIdProperty,
	orderFields,
	orderOutput,
	transactionActionProperty,
} from './shared';

const show = { resource: ['order'], operation: ['createSplitPayment'] };

const properties: INodeProperties[] = [
	{
		displayName:
			'Split payments must be enabled on the merchant account and work in live mode only. The customer pays the full amount; the payout is split after settlement.',
		name: 'splitNotice',
		type: 'notice',
		default: '',
	},
	amountProperty,
	currencyProperty,
	merchantOrderIdProperty,
	transactionActionProperty,
	{
		displayName: 'Split Recipients',
		name: 'splitRecipients',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, multipleValueButtonText: 'Add Recipient' },
		default: {},
		placeholder: 'Add Recipient',
		required: true,
		description: `Up to ${MAX_SPLIT_RECIPIENTS} sub-accounts and their shares`,
		options: [
			{
				displayName: 'Recipient',
				name: 'recipient',
				values: [
					{
						displayName: 'Split ID',
						name: 'splitId',
						type: 'string',
						default: '',
						description: 'The split ID the service operator assigned to the sub-account',
					},
					{
						displayName: 'Type',
						name: 'type',
						type: 'options',
						options: [
							{ name: 'Percentage', value: 'P', description: 'A percentage of the order amount' },
							{ name: 'Flat', value: 'F', description: 'A flat amount in the order currency' },
						],
						default: 'P',
					},
					{
						displayName: 'Value',
						name: 'value',
						type: 'number',
						typeOptions: { minValue: 0, numberPrecision: 3 },
						default: 0,
						description: 'The percentage (up to 100 in total) or the flat amount',
					},
				],
			},
		],
	},
	...orderFields({ customData: false }),
];

export const description = updateDisplayOptions({ show }, properties);

export function readRecipients(ctx: IExecuteFunctions, itemIndex: number): SplitRecipient[] {
	const rows = ctx.getNodeParameter('splitRecipients.recipient', itemIndex, []) as IDataObject[];
	return rows.map((row) => ({
		splitId: String(row.splitId ?? '').trim(),
		type: String(row.type ?? '').toUpperCase() as SplitRecipient['type'],
		value: typeof row.value === 'string' ? Number(row.value) : (row.value as number),
	}));
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const action = this.getNodeParameter('transactionAction', itemIndex) as 'SALE' | 'AUTH';
	const recipients = readRecipients(this, itemIndex);
	const response = await createOrder(
		this,
		itemIndex,
		{ class: 'ECOM', action, customData: encodeSplitCustomData(recipients.slice(0, MAX_SPLIT_RECIPIENTS)) },
		(data) => validateSplitRecipients(recipients, (data.order_details as IDataObject).amount),
	);
	return orderOutput(this, itemIndex, response);
}
