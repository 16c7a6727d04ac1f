import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { tableProperties } from '../../fields/properties';
import { executeManagePayment, managePaymentTable } from './common';
import type { OperationFacts } from '../tool';
import { describeTool } from '../tool';

const show = { resource: ['payment'], operation: ['capture'] };

export const table = managePaymentTable('CAPTURE');

/** Captures an authorisation made with Capture Method Manual: AUTHORISED → CAPTURED. */
export const facts = {
	kind: 'write',
	movesMoney: true,
	retried: false,
	lostAnswer: 'check',
	settledBy: 'the transaction: CAPTURED or PARTIALLY_CAPTURE with the amount',
} as const satisfies OperationFacts;

export const toolDescription = describeTool(
	"Captures an authorized payment, taking the money. Needs the transaction_id (transaction list or the order's status), the amount and the currency of the payment.",
	facts,
);

export const description = updateDisplayOptions({ show }, tableProperties(table));

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	return await executeManagePayment(this, itemIndex, 'CAPTURE', table, facts);
}
