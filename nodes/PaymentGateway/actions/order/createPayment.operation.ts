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

const show = { resource: ['order'], operation: ['createPayment'] };

const properties: INodeProperties[] = [
	amountProperty,
	currencyProperty,
	merchantOrderIdProperty,
	...orderFields(),
];

export const description = updateDisplayOptions({ show }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const response = await createOrder(this, itemIndex, { class: 'ECOM', action: 'SALE' });
	return orderOutput(this, itemIndex, response);
}
