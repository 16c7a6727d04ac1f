import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { tableProperties } from '../../fields/properties';
import { executeManagePayment, managePaymentTable } from './common';

const show = { resource: ['payment'], operation: ['void'] };

export const table = managePaymentTable('VOID');

/** Voids an authorisation that is not captured: AUTHORISED → VOID; no money moves. */
export const description = updateDisplayOptions({ show }, tableProperties(table));

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	return await executeManagePayment(this, itemIndex, 'VOID', table);
}
