import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { changeItem, dataIdProperty, itemFields, readItemPayload } from './common';
import { toText } from '../../validation/rules';

const show = { resource: ['invoiceItem'], operation: ['update'] };

export const description = updateDisplayOptions({ show }, [dataIdProperty('update'), ...itemFields]);

/** POST /invoice/v1/items/update: name, rate and category are all sent again (the service requires them). */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const dataId = toText(this.getNodeParameter('dataId', itemIndex));
	const body = readItemPayload(this, itemIndex, dataId);
	return await changeItem(this, itemIndex, 'update', body);
}
