import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { tableProperties } from '../../fields/properties';
import type { FieldTable } from '../../fields/types';
import { amountField, currencyField, merchantOrderIdField, orderFields } from './fields';
import { sendStatusToExecutionField } from './delivery';
import { createOrder, orderOutput } from './common';

const show = { resource: ['order'], operation: ['createPayment'] };

export const table: FieldTable = [
	amountField,
	currencyField,
	merchantOrderIdField,
	sendStatusToExecutionField,
	...orderFields(),
];

export const description = updateDisplayOptions({ show }, tableProperties(table));

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const response = await createOrder(this, itemIndex, {
		table,
		fixed: { class: 'ECOM', action: 'SALE' },
	});
	return orderOutput(this, itemIndex, response);
}
