import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { tableProperties } from '../../fields/properties';
import { readTable, toWire } from '../../fields/read';
import type { FieldTable } from '../../fields/types';
import { apiRequest } from '../../transport';
import { assertValid } from '../../fields/violations';
import type { OperationFacts } from '../tool';
import { describeTool } from '../tool';
import { doneAfterLostAnswer, settleWriteFailure } from '../lostAnswer';
import type { OperationOption } from '../operation';
import { DEACTIVATE_LINK_PATH } from '../paths';

export const option = {
	name: 'Deactivate',
	value: 'deactivate',
	description: 'Stop a payment link from taking new payments',
	action: 'Deactivate a payment link',
} as const satisfies OperationOption;

const show = { resource: ['paymentLink'], operation: [option.value] };

export const table: FieldTable = [
	{
		name: 'dataId',
		displayName: 'Data ID',
		type: 'text',
		wire: 'data_id',
		required: true,
		description:
			"The data_id of the payment link (from the link's record in the merchant dashboard or its creation). No new payments can start on a deactivated link; payments in progress are unaffected.",
	},
];

export const facts = {
	kind: 'write',
	movesMoney: false,
	retried: true,
	lostAnswer: 'repeatRefused',
	settledBy: 'the service answers a repeat with E0021 "already deactivated"',
} as const satisfies OperationFacts;

export const toolDescription = describeTool(
	"Deactivates a payment link so it can no longer be paid. Needs the link's data_id.",
	facts,
);

export const description = updateDisplayOptions({ show }, tableProperties(table));

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { values, violations } = readTable(this, itemIndex, table);
	assertValid(this, itemIndex, violations);
	const body = toWire(table, values);
	const dataId = String(body.data_id);
	let response: IDataObject;
	try {
		response = await apiRequest.call(this, itemIndex, {
			channel: 'paymentLink',
			method: 'POST',
			path: DEACTIVATE_LINK_PATH,
			body,
			// A repeat leaves the link deactivated and is answered E0021 "already deactivated".
			retrySafe: facts.retried,
			howToCheck: 'check the payment links in the merchant dashboard',
			codes: { E0021: 'The payment link does not exist or is already deactivated.' },
			explainFailure: (failure) =>
				failure.code === 'E0021'
					? {
							description: `No active payment link has data_id "${dataId}": it does not exist, is already deactivated or has expired.`,
						}
					: undefined,
			confirmDuplicate: (failure) =>
				failure.code === 'E0021'
					? doneAfterLostAnswer(
							{ data_id: dataId, deactivated: true, message: failure.message },
							'The answer to the first attempt was lost; the node sent it again and the service answered E0021 (not found or already deactivated), read as deactivated by the first attempt. A wrong data_id is answered the same way: if the link still takes payments, check its data_id.',
						)
					: undefined,
		});
	} catch (error) {
		throw settleWriteFailure(this, itemIndex, error, {
			message: "The deactivation's answer was lost and no later attempt settled it",
			how: "An attempt's answer was lost and no later attempt settled it. Deactivating again is safe: it deactivates the link, or answers E0021 when it is already deactivated.",
		});
	}
	if (response.lostAnswer) return [{ json: response, pairedItem: { item: itemIndex } }];
	return [
		{
			json: { data_id: dataId, deactivated: true, message: response.message },
			pairedItem: { item: itemIndex },
		},
	];
}
