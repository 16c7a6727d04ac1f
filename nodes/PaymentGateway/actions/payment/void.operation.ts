import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { tableProperties } from '../../fields/properties';
import { executeManagePayment, managePaymentTable } from './common';
import type { OperationFacts } from '../tool';
import { describeTool } from '../tool';

const show = { resource: ['payment'], operation: ['void'] };

export const table = managePaymentTable('VOID');

/** Voids an authorisation that is not captured: AUTHORISED → VOID; no money moves. */
export const facts = {
	kind: 'write',
	movesMoney: false,
	retried: false,
	lostAnswer: 'check',
	settledBy: 'the transaction: VOID or still AUTHORISED',
} as const satisfies OperationFacts;

export const toolDescription = describeTool(
	'Voids (releases) an authorization that was not captured, so the customer is not charged. Needs the transaction_id, the amount and the currency.',
	facts,
);

export const description = updateDisplayOptions({ show }, tableProperties(table));

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	return await executeManagePayment(this, itemIndex, 'VOID', table, facts);
}
