import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { addIsoDates } from '../../helpers/dates';
import { apiRequest } from '../../transport';
import { getChannel } from '../common.descriptions';
import { assertValid } from '../../validation/rules';

const show = { resource: ['transaction'], operation: ['getPosOrder'] };

const properties: INodeProperties[] = [
	{
		displayName: 'Order ID',
		name: 'orderId',
		type: 'string',
		required: true,
		default: '',
		description: "The service's order ID (p_order_id) of the POS order",
		hint: 'The p_order_id from the POS order, its webhook or Transaction > Get Many',
	},
];

export const description = updateDisplayOptions({ show }, properties);

/** GET /pos/v1/orders/{order_id} with the POS web API keys: the transaction and its history. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const raw = this.getNodeParameter('orderId', itemIndex) as unknown;
	const orderId = raw === undefined || raw === null ? '' : String(raw).trim();
	assertValid(
		this,
		itemIndex,
		orderId === '' ? [{ field: 'order_id', rule: 'is required', value: orderId }] : [],
	);

	const response = await apiRequest.call(this, itemIndex, {
		channel: getChannel(this, itemIndex, ['pos']),
		method: 'GET',
		path: `/pos/v1/orders/${encodeURIComponent(orderId)}`,
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
