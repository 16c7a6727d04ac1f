import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { tableProperties } from '../../fields/properties';
import type { FieldTable } from '../../fields/types';
import { apiRequest } from '../../transport';
import type { NodeError } from '../errorItem';
import {
	doneAfterLostAnswer,
	pauseBeforeCheck,
	settledError,
	settleWriteFailure,
} from '../lostAnswer';
import { itemFields, readBody } from './common';
import { listInvoiceItems } from './list';
import type { OperationFacts } from '../tool';
import { describeTool } from '../tool';
import type { OperationOption } from '../operation';

export const option = {
	name: 'Create',
	value: 'create',
	description: 'Create a reusable invoice line item',
	action: 'Create an invoice item',
} as const satisfies OperationOption;

const show = { resource: ['invoiceItem'], operation: [option.value] };

export const table: FieldTable = itemFields;

export const facts = {
	kind: 'write',
	movesMoney: false,
	retried: false,
	lostAnswer: 'check',
	settledBy: 'the item list for an item of that name',
} as const satisfies OperationFacts;

export const toolDescription = describeTool(
	'Creates a reusable invoice item (name, rate per unit, category). Returns its data_id, which the other invoice item tools need.',
	facts,
);

export const description = updateDisplayOptions({ show }, tableProperties(table));

/** The items the list shows first (newest first): an item created a moment ago is among them. */
const CHECK_PAGE_SIZE = 100;

const sameText = (a: unknown, b: unknown) =>
	String(a ?? '')
		.trim()
		.toLowerCase() ===
	String(b ?? '')
		.trim()
		.toLowerCase();

/** After a lost answer: the item list says whether an item of this name and these values exists. */
async function settleLostAnswer(
	ctx: IExecuteFunctions,
	itemIndex: number,
	body: IDataObject,
	error: NodeError,
): Promise<IDataObject> {
	await pauseBeforeCheck();
	let items: IDataObject[];
	try {
		const list = await listInvoiceItems(ctx, itemIndex, { perpage: CHECK_PAGE_SIZE, page: 1 });
		items = Array.isArray(list.data) ? (list.data as IDataObject[]) : [];
	} catch (readError) {
		throw settledError(
			error,
			'unknown',
			"The invoice item's answer was lost and the item list could not be read to check it",
			`Reading the item list failed (${(readError as Error).message}): look for "${String(body.item_name)}" with Invoice Item > Get Many before creating it again.`,
		);
	}
	const found = items.find((item) => sameText(item.item_name, body.item_name));
	const matches =
		found &&
		Number(found.item_rate) === Number(body.item_rate_per_unit) &&
		sameText(found.item_category, body.item_category);
	if (found && matches) {
		return doneAfterLostAnswer(
			{
				...found,
				message:
					'The item was created; its answer was lost and the node found it in the item list.',
			},
			`The item list shows an item named "${String(found.item_name)}" with this rate and category (names are unique per merchant).`,
		);
	}
	const how = found
		? `The item list shows an item named "${String(found.item_name)}" with another rate or category: this create was not applied (names are unique per merchant, so running it again is refused until that item is renamed or deleted).`
		: `The item list shows no item named "${String(body.item_name)}": the item was not created. It is safe to run again.`;
	throw settledError(
		error,
		'notDone',
		'The invoice item was not created; its answer was lost',
		how,
	);
}

/**
 * POST /invoice/v1/items/add: a new Active item. Never sent twice automatically; a lost answer is
 * settled by the item list (item names are unique per merchant).
 */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const body = readBody(this, itemIndex, table);
	let response: IDataObject;
	try {
		response = await apiRequest.call(this, itemIndex, {
			channel: 'invoice',
			method: 'POST',
			path: '/invoice/v1/items/add',
			body,
			retrySafe: facts.retried,
			howToCheck: 'look the item up with Invoice Item > Get Many',
		});
	} catch (error) {
		const json = await settleWriteFailure(this, itemIndex, error, (lost) =>
			settleLostAnswer(this, itemIndex, body, lost),
		);
		return [{ json, pairedItem: { item: itemIndex } }];
	}
	const data =
		typeof response.data === 'object' && response.data !== null && !Array.isArray(response.data)
			? (response.data as IDataObject)
			: {};
	return [{ json: { ...data, message: response.message }, pairedItem: { item: itemIndex } }];
}
