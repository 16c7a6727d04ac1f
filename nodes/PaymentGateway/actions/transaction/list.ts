/**
 * The transaction-list client: GET /orders/v1/transaction-list, the service's only read of orders
 * and transactions. Get, Get Many, Wait for Payment, the payment operations' settle step, the
 * credential test and the poll trigger all read through here.
 */
import type { IDataObject } from 'n8n-workflow';

import type { Channel, NodeContext } from '../../transport';
import { apiRequest } from '../../transport';

/** The service's list pages: perpage default 100, max 100. */
export const LIST_MAX_PER_PAGE = 100;

export const TRANSACTION_LIST_PATH = '/orders/v1/transaction-list';

/** One page of the list, filtered by `qs`. A read: retried. */
export async function listTransactions(
	ctx: NodeContext,
	itemIndex: number,
	channel: Channel,
	qs: IDataObject,
): Promise<IDataObject> {
	return await apiRequest.call(ctx, itemIndex, {
		channel,
		method: 'GET',
		path: TRANSACTION_LIST_PATH,
		qs,
		retrySafe: true,
	});
}

/** The service sends amounts as text ("100.00"): a number beside it saves a conversion in every workflow. */
const AMOUNT_FIELDS = ['amount', 'amount_captured', 'amount_refunded'];

export function withAmountValues(record: IDataObject): IDataObject {
	for (const field of AMOUNT_FIELDS) {
		const text = record[field];
		if (typeof text !== 'string' || !/^-?\d+(\.\d+)?$/.test(text.trim())) continue;
		record[`${field}_value`] = Number(text);
	}
	return record;
}
