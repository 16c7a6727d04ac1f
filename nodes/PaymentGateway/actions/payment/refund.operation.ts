import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { tableProperties } from '../../fields/properties';
import { executeManagePayment, managePaymentTable } from './common';

const show = { resource: ['payment'], operation: ['refund'] };

export const table = managePaymentTable('REFUND');

/** Refunds a captured payment in part or in full: PARTIALLY_REFUNDED, REFUNDED at zero balance. */
export const description = updateDisplayOptions({ show }, tableProperties(table));

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	return await executeManagePayment(this, itemIndex, 'REFUND', table);
}
