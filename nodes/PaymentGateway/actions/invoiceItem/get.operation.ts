import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest } from '../../transport';
import { dataIdProperty, ITEMS_PATH, readDataId } from './common';

const show = { resource: ['invoiceItem'], operation: ['get'] };

export const description = updateDisplayOptions({ show }, [dataIdProperty('get')]);

/** GET /invoice/v1/items/details?data_id=: the item with its rate, category, status and submerchant. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const dataId = readDataId(this, itemIndex);
	const response = await apiRequest.call(this, itemIndex, {
		channel: 'invoice',
		method: 'GET',
		path: `${ITEMS_PATH}/details`,
		qs: { data_id: dataId },
		retrySafe: true,
	});
	const data =
		typeof response.data === 'object' && response.data !== null && !Array.isArray(response.data)
			? (response.data as IDataObject)
			: {};
	return [{ json: data, pairedItem: { item: itemIndex } }];
}
