import type { INodeProperties } from 'n8n-workflow';

import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as getPosOrder from './getPosOrder.operation';
import * as uploadDocument from './uploadDocument.operation';

export { get, getMany, getPosOrder, uploadDocument };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['transaction'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				description: 'Get one transaction, with its current status, by order ID or transaction ID',
				action: 'Get a transaction',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'List transactions, filtered and paginated',
				action: 'Get many transactions',
			},
			{
				name: 'Get POS Order',
				value: 'getPosOrder',
				description: 'Get a POS order with its transaction history, using the POS web API keys',
				action: 'Get a POS order',
			},
			{
				name: 'Upload Document',
				value: 'uploadDocument',
				description: 'Attach an invoice or airway bill (AWB) to a captured transaction',
				action: 'Upload a transaction document',
			},
		],
		default: 'getMany',
	},
	...get.description,
	...getMany.description,
	...getPosOrder.description,
	...uploadDocument.description,
];
