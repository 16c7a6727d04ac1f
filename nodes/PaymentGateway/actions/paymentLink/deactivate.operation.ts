import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { assertValid } from '../../validation/rules';
import { apiRequest } from '../../transport';

const show = { resource: ['paymentLink'], operation: ['deactivate'] };

const properties: INodeProperties[] = [
	{
		displayName: 'Data ID',
		name: 'dataId',
		type: 'string',
		default: '',
		required: true,
		description:
			'The data_id of the payment link (from the link\'s record in the merchant dashboard or its creation). No new payments can start on a deactivated link; payments in progress are unaffected.',
	},
];

export const description = updateDisplayOptions({ show }, properties);

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const dataId = String(this.getNodeParameter('dataId', itemIndex, '') ?? '').trim();
	assertValid(this, itemIndex, dataId ? [] : [{ field: 'data_id', rule: 'is required', value: dataId }]);
	const response = await apiRequest.call(this, itemIndex, {
		channel: 'paymentLink',
		method: 'POST',
		path: '/payment-links/v1/deactivate',
		body: { data_id: dataId },
		retrySafe: false,
		explainFailure: (failure) =>
			failure.code === 'E0021'
				? {
						description: `No active payment link has data_id "${dataId}": it does not exist, is already deactivated or has expired.`,
					}
				: undefined,
	});
	return [
		{ json: { data_id: dataId, deactivated: true, message: response.message }, pairedItem: { item: itemIndex } },
	];
}
