import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { executeManagePayment, managePaymentProperties } from './common';

const show = { resource: ['payment'], operation: ['refund'] };

/** Refunds a captured payment in part or in full: PARTIALLY_REFUNDED, REFUNDED at zero balance. */
export const description = updateDisplayOptions({ show }, managePaymentProperties('REFUND', show));

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	return await executeManagePayment(this, itemIndex, 'REFUND');
}
