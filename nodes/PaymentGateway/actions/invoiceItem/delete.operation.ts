import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { changeItem, dataIdProperty, readDataId } from './common';

const show = { resource: ['invoiceItem'], operation: ['delete'] };

export const description = updateDisplayOptions({ show }, [dataIdProperty('delete')]);

/** POST /invoice/v1/items/delete with the data_id. Removes the item permanently (Active or Deactivated); existing invoices keep their data. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const dataId = readDataId(this, itemIndex);
	return await changeItem(this, itemIndex, 'delete', { data_id: dataId });
}
