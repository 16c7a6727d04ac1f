import type { INodeProperties } from 'n8n-workflow';

import * as bulkCreate from './bulkCreate.operation';
import * as deactivate from './deactivate.operation';

export { bulkCreate, deactivate };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['paymentLink'] } },
		options: [
			{
				name: 'Bulk Create',
				value: 'bulkCreate',
				description: 'Create many payment links from one .xlsx upload',
				action: 'Create payment links in bulk',
			},
			{
				name: 'Deactivate',
				value: 'deactivate',
				description: 'Stop a payment link from taking new payments',
				action: 'Deactivate a payment link',
			},
		],
		default: 'bulkCreate',
	},
	...bulkCreate.description,
	...deactivate.description,
];
