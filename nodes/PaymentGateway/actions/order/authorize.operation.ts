import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	amountProperty,
	createOrder,
	currencyProperty,
	merchantOrderIdProperty,
	orderFields,
	orderOutput,
} from './shared';

const show = { resource: ['order'], operation: ['authorize'] };

const properties: INodeProperties[] = [
	amountProperty,
	currencyProperty,
	merchantOrderIdProperty,
	{
		displayName: 'Capture Method',
		name: 'captureMethod',
		type: 'options',
		options: [
			{
				name: 'Manual',
				value: 'MANUAL',
				description: 'Hold the funds; capture them later with Payment > Capture',
			},
			{
				name: 'Automatic',
				value: 'AUTOMATIC',
				description: 'Capture right after the authorization succeeds',
			},
		],
		default: 'MANUAL',
		description:
			'Whether the authorized funds are captured automatically. Sent explicitly: the service captures automatically when it is omitted.',
	},
	...orderFields(),
];

export const description = updateDisplayOptions({ show }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const captureMethod = this.getNodeParameter('captureMethod', itemIndex) as 'MANUAL' | 'AUTOMATIC';
	const response = await createOrder(this, itemIndex, { class: 'ECOM', action: 'AUTH', captureMethod });
	return orderOutput(this, itemIndex, response);
}
