import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { tableProperties } from '../../fields/properties';
import type { FieldTable } from '../../fields/types';
import { amountField, currencyField, merchantOrderIdField, orderFields } from './fields';
import { statusDeliveryFields } from './sendStatusToExecution';
import { ORDER_FACTS } from './facts';
import { describeTool } from '../tool';
import { createOrder, orderOutput } from './common';

const show = { resource: ['order'], operation: ['createPayment'] };

export const table: FieldTable = [
	amountField,
	currencyField,
	merchantOrderIdField,
	...statusDeliveryFields,
	...orderFields(),
];

export const facts = ORDER_FACTS;

export const toolDescription = describeTool(
	"Creates a hosted card payment order and returns its payment_link (send it to the customer), the service's p_order_id and its m_order_id. Needs an amount as a plain number in the currency given; a merchant order ID is optional (one is made when none is given, and a given one must never have been used before). Creates a real order; no money moves until the customer pays.",
	facts,
);

export const description = updateDisplayOptions({ show }, tableProperties(table));

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const response = await createOrder(this, itemIndex, {
		table,
		fixed: { class: 'ECOM', action: 'SALE' },
	});
	return orderOutput(this, itemIndex, response, 'payment');
}
