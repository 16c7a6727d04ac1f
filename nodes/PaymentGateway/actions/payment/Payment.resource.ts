import type { INodeProperties } from 'n8n-workflow';

import * as capture from './capture.operation';
import * as refund from './refund.operation';
import * as voidPayment from './void.operation';

// `void` is a keyword: the module is voidPayment in code, the operation value stays `void`.
export { capture, refund, voidPayment as void };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['payment'] } },
		options: [
			{
				name: 'Capture',
				value: 'capture',
				description: 'Capture an authorized payment made with manual capture',
				action: 'Capture a payment',
			},
			{
				name: 'Refund',
				value: 'refund',
				description: 'Refund a captured payment in part or in full',
				action: 'Refund a payment',
			},
			{
				name: 'Void',
				value: 'void',
				description: 'Release an authorized payment that is not captured',
				action: 'Void a payment',
			},
		],
		default: 'capture',
	},
	...capture.description,
	...voidPayment.description,
	...refund.description,
];
