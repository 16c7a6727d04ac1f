import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { readTable, toWire } from '../../fields/read';
import type { Field, FieldTable } from '../../fields/types';
import { apiRequest } from '../../transport';
import { assertValid } from '../../fields/violations';
import type { OperationOption } from '../operation';
import { tableOperation } from '../operation';
import type { OperationFacts } from '../tool';

/** An invoice item: name 1-50 chars, rate above 0 and max 9999999, category max 100, description max 200. */
/** Update, Activate, Deactivate and Delete: each leaves the item in the same state however often it arrives. */
export const sameStateChangeFacts = {
	kind: 'write',
	movesMoney: false,
	retried: true,
	lostAnswer: 'sameState',
} as const satisfies OperationFacts;

export const ITEM_NAME_MAX = 50;
export const ITEM_RATE_MAX = 9999999;
export const ITEM_CATEGORY_MAX = 100;
export const ITEM_DESCRIPTION_MAX = 200;

export const dataIdField = (verb: string): Field => ({
	name: 'dataId',
	displayName: 'Data ID',
	type: 'text',
	wire: 'data_id',
	required: true,
	description: `The token (data_id) of the invoice item to ${verb}`,
	ui: {
		hint: 'The data_id returned by Create or Get Many; not the item_id shown in the dashboard',
	},
});

/** Item Name, Rate Per Unit, Category and Additional Fields → Description (create and update). */
export const itemFields: FieldTable = [
	{
		name: 'itemName',
		displayName: 'Item Name',
		type: 'text',
		wire: 'item_name',
		required: true,
		maxLength: ITEM_NAME_MAX,
		description: `Name of the item, 1-${ITEM_NAME_MAX} characters; the service refuses a name another item of the merchant already has`,
	},
	{
		name: 'ratePerUnit',
		displayName: 'Rate Per Unit',
		type: 'number',
		wire: 'item_rate_per_unit',
		required: true,
		above: 0,
		max: ITEM_RATE_MAX,
		description: `Price of one unit, above 0 and at most ${ITEM_RATE_MAX}; an expression may give numeric text such as "12.50"`,
	},
	{
		name: 'category',
		displayName: 'Category',
		type: 'text',
		wire: 'item_category',
		// The endpoints list the category as a payload field of add and update (the description is the
		// optional one): required here, so the service never sees an item without one.
		required: true,
		maxLength: ITEM_CATEGORY_MAX,
		description: `Category of the item, at most ${ITEM_CATEGORY_MAX} characters. Required: the service takes it with every create and update.`,
	},
	{
		group: 'collection',
		name: 'additionalFields',
		displayName: 'Additional Fields',
		fields: [
			{
				name: 'description',
				displayName: 'Description',
				type: 'text',
				wire: 'item_description',
				multiline: true,
				maxLength: ITEM_DESCRIPTION_MAX,
				description: `Description of the item, at most ${ITEM_DESCRIPTION_MAX} characters`,
				ui: { typeOptions: { rows: 2 } },
			},
		],
	},
];

/** A table's request body for one item, every rule checked first; nothing is sent on a violation. */
export function readBody(
	ctx: IExecuteFunctions,
	itemIndex: number,
	table: FieldTable,
): IDataObject {
	const { values, violations } = readTable(ctx, itemIndex, table);
	assertValid(ctx, itemIndex, violations);
	return toWire(table, values);
}

/** What the service answers a repeat of a change already made (the sandbox's wording; the service's contract gives none). */
const ALREADY_DONE: Partial<Record<'update' | 'activate' | 'deactivate' | 'delete', RegExp>> = {
	activate: /already active/i,
	deactivate: /already deactivated/i,
	delete: /not found/i,
};

/**
 * update, activate, deactivate and delete: POST {data_id, …}, answered with message, status and
 * code only. Each leaves the item in the same state however often it arrives, so it is retried
 * after HTTP 429, 5xx or a dropped connection (create is not: see create.operation.ts).
 */
export async function changeItem(
	ctx: IExecuteFunctions,
	itemIndex: number,
	{ action, path }: { action: 'update' | 'activate' | 'deactivate' | 'delete'; path: string },
	table: FieldTable,
): Promise<INodeExecutionData[]> {
	const body = readBody(ctx, itemIndex, table);
	const response = await apiRequest.call(ctx, itemIndex, {
		channel: 'invoice',
		method: 'POST',
		path,
		body,
		retrySafe: true,
		howToCheck: 'look the item up with Invoice Item > Get Many',
		// The node's own repeat, after an attempt whose answer was lost, finds the change made.
		confirmDuplicate: (failure) =>
			ALREADY_DONE[action]?.test(failure.message)
				? {
						confirmedByDuplicate: true,
						message: `The ${action} went through on an earlier attempt whose answer was lost; the repeat was answered "${failure.message}".`,
					}
				: undefined,
	});
	if (response.confirmedByDuplicate) {
		return [
			{
				json: { data_id: body.data_id, success: true, ...response },
				pairedItem: { item: itemIndex },
			},
		];
	}
	return [
		{
			json: { data_id: body.data_id, success: true, message: response.message },
			pairedItem: { item: itemIndex },
		},
	];
}

type StateChange = 'activate' | 'deactivate' | 'delete';

/**
 * Activate, deactivate and delete: POST {data_id} to their path, each leaving the item in the same
 * state however often it arrives; declared as data over changeItem.
 */
export function itemStateChange<const O extends OperationOption>(spec: {
	action: StateChange;
	path: string;
	option: O;
	tool: string;
}) {
	const { action, path, option, tool } = spec;
	return tableOperation({
		resource: 'invoiceItem',
		option,
		table: [dataIdField(action)],
		facts: sameStateChangeFacts,
		tool,
		run: async (ctx, itemIndex, table) => await changeItem(ctx, itemIndex, { action, path }, table),
	});
}
