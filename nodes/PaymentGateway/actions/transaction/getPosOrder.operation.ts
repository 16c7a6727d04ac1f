import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { tableProperties } from '../../fields/properties';
import { readTable } from '../../fields/read';
import type { FieldTable } from '../../fields/types';
import { addIsoDates } from '../../helpers/dates';
import { apiRequest } from '../../transport';
import { assertValid } from '../../fields/violations';
import type { OperationFacts } from '../tool';
import { describeTool } from '../tool';
import type { OperationOption } from '../operation';
import { posOrderPath } from '../paths';

export const option = {
	name: 'Get POS Order',
	value: 'getPosOrder',
	description: 'Get a POS order with its transaction history, using the POS web API keys',
	action: 'Get a POS order',
} as const satisfies OperationOption;

const show = { resource: ['transaction'], operation: [option.value] };

export const table: FieldTable = [
	{
		name: 'orderId',
		displayName: 'Order ID',
		label: 'order_id',
		type: 'text',
		required: true,
		pathSegment: true,
		description: "The service's order ID (p_order_id) of the POS order",
		ui: { hint: 'The p_order_id from the POS order, its webhook or Transaction > Get Many' },
	},
];

export const facts = { kind: 'read' } as const satisfies OperationFacts;

export const toolDescription = describeTool(
	"Gets an in-store (POS terminal) order and its transaction history by the service's order ID.",
	facts,
);

export const description = updateDisplayOptions({ show }, tableProperties(table));

/** GET /pos/v1/orders/{id}: one POS order by its ID. */

/** GET /pos/v1/orders/{order_id} with the POS web API keys: the transaction and its history. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	// Always the POS keys: the credential selector shows only POS credentials for this operation.
	const channel = 'pos' as const;
	const { values, violations } = readTable(this, itemIndex, table);
	assertValid(this, itemIndex, violations);
	// Checked text has no broken Unicode, so encoding it into the path cannot fail.
	const orderId = String(values.orderId);

	const response = await apiRequest.call(this, itemIndex, {
		channel,
		method: 'GET',
		path: posOrderPath(orderId),
		retrySafe: true,
	});

	const data =
		typeof response.data === 'object' && response.data !== null
			? (response.data as IDataObject)
			: {};
	const history = Array.isArray(data.transaction_history) ? data.transaction_history : [];
	const json = addIsoDates(
		{ ...data, transaction_history: history },
		['transaction_date'],
		this.getTimezone(),
	);
	return [{ json, pairedItem: { item: itemIndex } }];
}
