import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { apiRequest } from '../../transport';
import {
	ITEM_CATEGORY_MAX,
	ITEM_DESCRIPTION_MAX,
	ITEM_NAME_MAX,
	ITEM_RATE_MAX,
	validateDataId,
	validateInvoiceItem,
} from '../../validation/invoiceItem';
import { assertValid, toPlainNumber, toText } from '../../validation/rules';

export const ITEMS_PATH = '/invoice/v1/items';

export const dataIdProperty = (verb: string): INodeProperties => ({
	displayName: 'Data ID',
	name: 'dataId',
	type: 'string',
	required: true,
	default: '',
	description: `The token (data_id) of the invoice item to ${verb}`,
	hint: 'The data_id returned by Create or Get Many; not the item_id shown in the dashboard',
});

/** Item Name, Rate Per Unit, Category and Additional Fields → Description (create and update). */
export const itemFields: INodeProperties[] = [
	{
		displayName: 'Item Name',
		name: 'itemName',
		type: 'string',
		required: true,
		default: '',
		description: `Name of the item, 1-${ITEM_NAME_MAX} characters; the service refuses a name another item of the merchant already has`,
	},
	{
		displayName: 'Rate Per Unit',
		name: 'ratePerUnit',
		type: 'number',
		required: true,
		typeOptions: { minValue: 0, maxValue: ITEM_RATE_MAX },
		default: 0,
		description: `Price of one unit, above 0 and at most ${ITEM_RATE_MAX}; an expression may give numeric text such as "12.50"`,
	},
	{
		displayName: 'Category',
		name: 'category',
		type: 'string',
		required: true,
		default: '',
		description: `Category of the item, at most ${ITEM_CATEGORY_MAX} characters. Required: the service takes it with every create and update.`,
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Description',
				name: 'description',
				type: 'string',
				typeOptions: { rows: 2 },
				default: '',
				description: `Description of the item, at most ${ITEM_DESCRIPTION_MAX} characters`,
			},
		],
	},
];


export const readDataId = (ctx: IExecuteFunctions, itemIndex: number) => {
	const dataId = toText(ctx.getNodeParameter('dataId', itemIndex));
	assertValid(ctx, itemIndex, validateDataId(dataId));
	return dataId;
};

/** The add/update payload from the parameters, checked against the seed's rules before sending. */
export function readItemPayload(ctx: IExecuteFunctions, itemIndex: number, dataId?: string): IDataObject {
	const additionalFields = ctx.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const input = {
		item_name: toText(ctx.getNodeParameter('itemName', itemIndex)),
		item_rate_per_unit: ctx.getNodeParameter('ratePerUnit', itemIndex) as unknown,
		item_category: toText(ctx.getNodeParameter('category', itemIndex)),
		item_description: toText(additionalFields.description),
	};
	const violations = dataId === undefined ? [] : validateDataId(dataId);
	violations.push(...validateInvoiceItem(input));
	assertValid(ctx, itemIndex, violations);

	const body: IDataObject = dataId === undefined ? {} : { data_id: dataId };
	body.item_name = input.item_name;
	body.item_rate_per_unit = toPlainNumber(input.item_rate_per_unit);
	body.item_category = input.item_category;
	if (input.item_description !== '') body.item_description = input.item_description;
	return body;
}

/**
 * update, activate, deactivate and delete: POST {data_id, …}, answered with message, status and
 * code only. Each leaves the item in the same state however often it arrives, so it is retried
 * after HTTP 429, 5xx or a dropped connection (create is not: see create.operation.ts).
 */
export async function changeItem(
	ctx: IExecuteFunctions,
	itemIndex: number,
	action: 'update' | 'activate' | 'deactivate' | 'delete',
	body: IDataObject,
): Promise<INodeExecutionData[]> {
	const response = await apiRequest.call(ctx, itemIndex, {
		channel: 'invoice',
		method: 'POST',
		path: `${ITEMS_PATH}/${action}`,
		body,
		retrySafe: true,
	});
	return [
		{
			json: { data_id: body.data_id, success: true, message: response.message },
			pairedItem: { item: itemIndex },
		},
	];
}
