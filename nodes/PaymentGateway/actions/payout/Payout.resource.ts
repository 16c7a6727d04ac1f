import type { INodeProperties } from 'n8n-workflow';

import * as bulkCreate from './bulkCreate.operation';

export { bulkCreate };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['payout'] } },
		options: [
			{
				name: 'Bulk Create',
				value: 'bulkCreate',
				description: 'Queue many payout transfers from one .xlsx upload',
				action: 'Create payouts in bulk',
			},
		],
		default: 'bulkCreate',
	},
	...bulkCreate.description,
];
