import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { executeManagePayment, managePaymentProperties } from './common';

const show = { resource: ['payment'], operation: ['void'] };

/** Voids an authorisation that is not captured: AUTHORISED → VOID; no money moves. */
export const description = updateDisplayOptions({ show }, managePaymentProperties('VOID', show));

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	return await executeManagePayment(this, itemIndex, 'VOID');
}
