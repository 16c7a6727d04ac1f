import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { tableProperties } from '../../fields/properties';
import { executeManagePayment, managePaymentTable } from './common';
import type { OperationFacts } from '../tool';
import { describeTool } from '../tool';

const show = { resource: ['payment'], operation: ['refund'] };

export const table = managePaymentTable('REFUND');

/** Refunds a captured payment in part or in full: PARTIALLY_REFUNDED, REFUNDED at zero balance. */
export const facts = {
	kind: 'write',
	movesMoney: true,
	retried: false,
	lostAnswer: 'checkDoneOnly',
	settledBy: 'the transaction, read before and after: its status and captured balance',
} as const satisfies OperationFacts;

export const toolDescription = describeTool(
	'Refunds a captured payment in full or in part, sending money back to the customer. Needs the transaction_id (transaction list), an amount of at least 1 and the currency of the payment.',
	facts,
);

export const description = updateDisplayOptions({ show }, tableProperties(table));

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	return await executeManagePayment(this, itemIndex, 'REFUND', table, facts);
}
