import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { addIsoDates } from '../../helpers/dates';
import { getChannel } from '../channel';
import { listTransactions } from '../transaction/list';
import type { WaitOutcome } from './waitForPayment.outcome';

/** The order as the transaction list shows it; undefined when it is not listed. */
export async function lookUpOrder(
	ctx: IExecuteFunctions,
	orderId: string,
): Promise<IDataObject | undefined> {
	const response = await listTransactions(ctx, 0, getChannel(ctx, 0), {
		p_order_id: orderId,
		page: 1,
		perpage: 100,
	});
	const rows = Array.isArray(response.data) ? (response.data as IDataObject[]) : [];
	return rows.find((row) => String(row.p_order_id) === orderId);
}

/** The Paid or Failed item of an order read from the transaction list (`source: 'lookup'`). */
export function lookedUpJson(
	ctx: IExecuteFunctions,
	outcome: WaitOutcome,
	order: IDataObject,
): IDataObject {
	return {
		outcome,
		source: 'lookup',
		...addIsoDates(order, ['transaction_date'], ctx.getTimezone()),
	};
}
