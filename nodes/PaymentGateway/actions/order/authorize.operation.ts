import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { tableProperties } from '../../fields/properties';
import type { Field, FieldTable } from '../../fields/types';
import { amountField, currencyField, merchantOrderIdField, orderFields } from './fields';
import { statusDeliveryFields } from './sendStatusToExecution';
import { ORDER_FACTS } from './facts';
import { describeTool } from '../tool';
import { createOrder, orderOutput } from './common';

const show = { resource: ['order'], operation: ['authorize'] };

/** Always sent: left out, the service captures automatically — the opposite of holding the funds. */
const captureMethodField: Field = {
	name: 'captureMethod',
	displayName: 'Capture Method',
	type: 'options',
	wire: 'capture_method',
	required: true,
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
	description:
		'Whether the authorized funds are captured automatically. Sent explicitly: the service captures automatically when it is omitted.',
};

export const table: FieldTable = [
	amountField,
	currencyField,
	merchantOrderIdField,
	captureMethodField,
	...statusDeliveryFields,
	...orderFields(),
];

export const facts = ORDER_FACTS;

export const toolDescription = describeTool(
	'Creates a hosted order that only authorizes the card; the money is taken later with the capture tool. Needs an amount and a currency; a merchant order ID is optional (one is made when none is given).',
	facts,
);

export const description = updateDisplayOptions({ show }, tableProperties(table));

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const response = await createOrder(this, itemIndex, {
		table,
		fixed: { class: 'ECOM', action: 'AUTH' },
	});
	return orderOutput(this, itemIndex, response, 'authorization');
}
