import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { executeManagePayment, managePaymentProperties } from './common';

const show = { resource: ['payment'], operation: ['capture'] };

/** Captures an authorisation made with Capture Method Manual: AUTHORISED → CAPTURED. */
export const description = updateDisplayOptions({ show }, managePaymentProperties('CAPTURE', show));

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	return await executeManagePayment(this, itemIndex, 'CAPTURE');
}
