import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { changeItem, dataIdProperty, readDataId } from './common';

const show = { resource: ['invoiceItem'], operation: ['activate'] };

export const description = updateDisplayOptions({ show }, [dataIdProperty('activate')]);

/** POST /invoice/v1/items/activate with the data_id. Deactivated → Active: the item can be chosen for new invoices again. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const dataId = readDataId(this, itemIndex);
	return await changeItem(this, itemIndex, 'activate', { data_id: dataId });
}
