import type { INodeProperties } from 'n8n-workflow';

import * as getMany from './getMany.operation';

export { getMany };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['transaction'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'List transactions, filtered and paginated',
				action: 'Get many transactions',
			},
		],
		default: 'getMany',
	},
	...getMany.description,
];
