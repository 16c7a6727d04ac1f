import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { addIsoDates } from '../../helpers/dates';
import { SUPPORTED_CURRENCIES } from '../../fields/codes';
import { readTable, toWire } from '../../fields/read';
import type { FieldTable } from '../../fields/types';
import { apiRequest } from '../../transport';
import { assertValid } from '../../fields/violations';
import type { Channel } from '../../transport';
import { getChannel } from '../channel';
import type { NodeError } from '../errorItem';
import {
	doneAfterLostAnswer,
	pauseBeforeCheck,
	settledError,
	settleWriteFailure,
} from '../lostAnswer';
import type { OperationOption } from '../operation';
import { tableOperation } from '../operation';
import type { OperationFacts } from '../tool';
import { withAmountValues } from '../transaction/list';
import { leftToRefund } from './leftToRefund';
import { findingOf, readTransaction, type ManagePaymentAction } from './lostAnswer';

/** The three actions of POST /orders/v1/transaction (Manage payment). */

/** The service's E0044 on capture, void and refund. */
export const NOT_IN_STATE =
	'The transaction is not in a state that allows this: not refundable or voidable, already refunded or voided, or refund or void not enabled on the MID.';

/** Smallest refund the service takes (seed, Limits: "Refund: minimum amount.value 1"). */
export const MIN_REFUND_AMOUNT = 1;

const WORDS: Record<ManagePaymentAction, { verb: string; amount: string; reason: string }> = {
	CAPTURE: {
		verb: 'capture',
		amount: 'Amount to capture from the authorization, as a plain number',
		reason: 'Merchant note kept with the capture',
	},
	VOID: {
		verb: 'void',
		amount: 'Amount of the authorization to void (release), as a plain number',
		reason: 'Merchant note kept with the void, for example why the order was cancelled',
	},
	REFUND: {
		verb: 'refund',
		amount:
			'Amount to refund, as a plain number of at least 1; several partial refunds are allowed ' +
			'until the captured amount is used up',
		reason: 'Merchant note kept with the refund, for example why the customer is refunded',
	},
};

/** The fields of capture, void and refund (POST /orders/v1/transaction), worded for each action. */
export function managePaymentTable(action: ManagePaymentAction): FieldTable {
	const words = WORDS[action];
	return [
		{
			name: 'transactionId',
			displayName: 'Transaction ID',
			type: 'text',
			wire: 'transaction_id',
			required: true,
			description: `The service's ID of the transaction to ${words.verb}`,
			ui: { hint: "The transaction_id from the order's webhook or from Transaction > Get Many" },
		},
		{
			name: 'amount',
			displayName: 'Amount',
			type: 'number',
			wire: 'amount.value',
			required: true,
			...(action === 'REFUND' ? { min: MIN_REFUND_AMOUNT } : { above: 0 }),
			minorUnitsOf: 'currency',
			description: words.amount,
			uiVersion3: { default: '', placeholder: 'e.g. 100.00' },
		},
		{
			name: 'currency',
			displayName: 'Currency',
			type: 'currency',
			currencies: 'supported',
			wire: 'amount.currencyCode',
			required: true,
			options: SUPPORTED_CURRENCIES.map((code) => ({ name: code, value: code })),
			description: 'Currency of the transaction (ISO 4217), the one the order was created in',
			ui: { default: 'AED' },
		},
		{
			group: 'collection',
			name: 'additionalFields',
			displayName: 'Additional Fields',
			fields: [
				{
					name: 'reason',
					displayName: 'Reason',
					type: 'text',
					wire: 'reason',
					multiline: true,
					description: words.reason,
				},
			],
		},
	];
}

/** What the node sent to the manage-payment endpoint, for the settling read and the item. */
interface SentManage {
	channel: Channel;
	action: ManagePaymentAction;
	transactionId: string;
	value: number;
	currency: string;
}

/** The item of a capture, void or refund the node found done after its answer was lost. */
function doneItem(record: IDataObject, how: string, verb: string): IDataObject {
	const { status, m_order_id, p_order_id, transaction_id, currency } = record;
	return doneAfterLostAnswer(
		{
			status,
			m_order_id,
			p_order_id,
			transaction_id,
			currency,
			message: `The ${verb} went through; its answer was lost and the node read the transaction.`,
			transaction: withAmountValues({ ...record }),
		},
		how,
	);
}

/** After a lost answer: reads the transaction and says done, not done or unknown. Never resends. */
async function settleLostAnswer(
	ctx: IExecuteFunctions,
	itemIndex: number,
	sent: SentManage,
	before: IDataObject | undefined,
	error: NodeError,
): Promise<IDataObject> {
	const verb = WORDS[sent.action].verb;
	await pauseBeforeCheck();
	let after: IDataObject | undefined;
	const lookedAt = new Date();
	try {
		after = await readTransaction(ctx, itemIndex, sent.channel, sent.transactionId);
	} catch (readError) {
		throw settledError(
			error,
			'unknown',
			`The ${verb}'s answer was lost and the transaction could not be read to check it`,
			`Reading the transaction failed (${(readError as Error).message}): look it up with Transaction > Get, by its transaction ID, before sending the ${verb} again.`,
		);
	}
	const finding = findingOf(sent.action, before, after, sent.value, lookedAt);
	if (finding.outcome === 'done') {
		const item = doneItem(after!, finding.how, verb);
		if (sent.action !== 'REFUND') return item;
		return { ...item, ...leftToRefund(after!.status, before, sent.value, sent.currency) };
	}
	const message =
		finding.outcome === 'notDone'
			? `The ${verb} was not made: its answer was lost and the transaction shows no ${verb}`
			: `The ${verb}'s answer was lost and the node cannot tell whether it went through`;
	throw settledError(error, finding.outcome, message, finding.how);
}

/**
 * Sends one capture, void or refund. Never sent twice automatically: it moves money; a lost answer
 * is settled by reading the transaction (lostAnswer.ts). A failure body
 * (E0044, or an over-refund answered with HTTP 200 and success false) is an error.
 */
export async function executeManagePayment(
	ctx: IExecuteFunctions,
	itemIndex: number,
	action: ManagePaymentAction,
	table: FieldTable,
	facts: { retried: boolean },
): Promise<INodeExecutionData[]> {
	const channel = getChannel(ctx, itemIndex);
	const { values, violations } = readTable(ctx, itemIndex, table);
	assertValid(ctx, itemIndex, violations);
	const body = toWire(table, values, { action });

	const sent: SentManage = {
		channel,
		action,
		transactionId: String(body.transaction_id),
		value: Number((body.amount as IDataObject).value),
		currency: String((body.amount as IDataObject).currencyCode),
	};
	// A refund is settled by comparing the transaction before and after: read it first.
	const before =
		action === 'REFUND'
			? await readTransaction(ctx, itemIndex, channel, sent.transactionId)
			: undefined;
	let response: IDataObject;
	try {
		response = await apiRequest.call(ctx, itemIndex, {
			channel,
			method: 'POST',
			path: '/orders/v1/transaction',
			body,
			retrySafe: facts.retried,
			howToCheck: 'look the payment up with Transaction > Get, with its transaction ID or order ID',
			badRequestCauses: 'for example the amount, the currency or the transaction ID',
			codes: { E0044: NOT_IN_STATE },
		});
	} catch (error) {
		const json = await settleWriteFailure(ctx, itemIndex, error, (lost) =>
			settleLostAnswer(ctx, itemIndex, sent, before, lost),
		);
		return [{ json, pairedItem: { item: itemIndex } }];
	}

	const data =
		typeof response.data === 'object' && response.data !== null
			? (response.data as IDataObject)
			: {};
	const json = addIsoDates({ ...data, message: response.message }, ['date'], ctx.getTimezone());
	// From the read made before sending: the refund answer itself carries no balance.
	if (action === 'REFUND')
		Object.assign(json, leftToRefund(data.status, before, sent.value, sent.currency));
	return [{ json, pairedItem: { item: itemIndex } }];
}

/** What tells capture, void and refund apart besides their action: their option, facts and tool text. */
interface ManagePaymentSpec<
	O extends OperationOption,
	F extends OperationFacts & { retried: boolean },
> {
	action: ManagePaymentAction;
	option: O;
	facts: F;
	tool: string;
}

/** Capture, void and refund: one request (POST /orders/v1/transaction) declared three times as data. */
export function managePayment<
	const O extends OperationOption,
	F extends OperationFacts & { retried: boolean },
>({ action, ...spec }: ManagePaymentSpec<O, F>) {
	return tableOperation({
		...spec,
		resource: 'payment',
		table: managePaymentTable(action),
		run: async (ctx, itemIndex, table) =>
			await executeManagePayment(ctx, itemIndex, action, table, spec.facts),
	});
}
