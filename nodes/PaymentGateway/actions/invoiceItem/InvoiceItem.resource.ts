import type { INodeProperties } from 'n8n-workflow';

import * as activate from './activate.operation';
import * as create from './create.operation';
import * as deactivate from './deactivate.operation';
import * as deleteItem from './delete.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as update from './update.operation';

// `delete` is a keyword: the module is deleteItem in code, the operation value stays `delete`.
export { activate, create, deactivate, deleteItem as delete, get, getMany, update };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['invoiceItem'] } },
		options: [
			{
				name: 'Activate',
				value: 'activate',
				description: 'Make a deactivated item available for new invoices again',
				action: 'Activate an invoice item',
			},
			{
				name: 'Create',
				value: 'create',
				description: 'Create a reusable invoice line item',
				action: 'Create an invoice item',
			},
			{
				name: 'Deactivate',
				value: 'deactivate',
				description: 'Hide an item from new invoices; existing invoices keep it',
				action: 'Deactivate an invoice item',
			},
			{
				name: 'Delete',
				value: 'delete',
				description: 'Delete an item permanently; existing invoices keep their data',
				action: 'Delete an invoice item',
			},
			{
				name: 'Get',
				value: 'get',
				description: 'Get an item by its data_id',
				action: 'Get an invoice item',
			},
			{
				name: 'Get Many',
				value: 'getMany',
				description: 'List items, optionally only active or deactivated ones',
				action: 'Get many invoice items',
			},
			{
				name: 'Update',
				value: 'update',
				description: "Change an item's name, rate, category and description",
				action: 'Update an invoice item',
			},
		],
		default: 'create',
	},
	...create.description,
	...update.description,
	...activate.description,
	...deactivate.description,
	...deleteItem.description,
	...get.description,
	...getMany.description,
];
