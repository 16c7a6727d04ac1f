import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';

export { create };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['subscriptionPlan'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				description: 'Create a recurring billing plan with its payment link and QR code',
				action: 'Create a subscription plan',
			},
		],
		default: 'create',
	},
	...create.description,
];
