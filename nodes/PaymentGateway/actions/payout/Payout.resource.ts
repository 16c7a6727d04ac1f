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
				description:
					'Queue payout transfers from input items or .xlsx files, uploaded in batches of at most 500 rows',
				action: 'Create payouts in bulk',
			},
		],
		default: 'bulkCreate',
	},
	...bulkCreate.description,
];
