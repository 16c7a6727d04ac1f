/**
 * The invoice item list client: GET /invoice/v1/items/list. Get Many pages through it, Create reads
 * it after a lost answer, and the credential test reads one row of it.
 */
import type { IDataObject } from 'n8n-workflow';

import type { NodeContext } from '../../transport';
import { apiRequest } from '../../transport';

export const INVOICE_ITEM_LIST_PATH = '/invoice/v1/items/list';

/** One page of the list, filtered by `qs`. A read: retried. */
export async function listInvoiceItems(
	ctx: NodeContext,
	itemIndex: number,
	qs: IDataObject,
): Promise<IDataObject> {
	return await apiRequest.call(ctx, itemIndex, {
		channel: 'invoice',
		method: 'GET',
		path: INVOICE_ITEM_LIST_PATH,
		qs,
		retrySafe: true,
	});
}
