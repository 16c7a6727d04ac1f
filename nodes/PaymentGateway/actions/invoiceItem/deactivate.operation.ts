import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { changeItem, dataIdProperty, readDataId } from './common';

const show = { resource: ['invoiceItem'], operation: ['deactivate'] };

export const description = updateDisplayOptions({ show }, [dataIdProperty('deactivate')]);

/** POST /invoice/v1/items/deactivate with the data_id. Active → Deactivated: hidden from selection for new invoices; existing invoices keep it. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const dataId = readDataId(this, itemIndex);
	return await changeItem(this, itemIndex, 'deactivate', { data_id: dataId });
}
