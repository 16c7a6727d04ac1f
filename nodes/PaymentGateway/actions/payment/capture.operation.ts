import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { tableProperties } from '../../fields/properties';
import { executeManagePayment, managePaymentTable } from './common';

const show = { resource: ['payment'], operation: ['capture'] };

export const table = managePaymentTable('CAPTURE');

/** Captures an authorisation made with Capture Method Manual: AUTHORISED → CAPTURED. */
export const description = updateDisplayOptions({ show }, tableProperties(table));

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	return await executeManagePayment(this, itemIndex, 'CAPTURE', table);
}
