import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { Channel } from '../../transport';
import type { LostAnswerOutcome } from '../lostAnswer';
import { listTransactions } from '../transaction/list';
import { pageOf } from '../list.pages';

/** What the transaction list shows of one transaction, or nothing when it lists none. */
export async function readTransaction(
	ctx: IExecuteFunctions,
	itemIndex: number,
	channel: Channel,
	transactionId: string,
): Promise<IDataObject | undefined> {
	const response = await listTransactions(ctx, itemIndex, channel, {
		transaction_id: transactionId,
		page: 1,
		perpage: 1,
	});
	return pageOf(response).records[0];
}

/** The three actions of the one manage-payment endpoint. */
export type ManagePaymentAction = 'CAPTURE' | 'VOID' | 'REFUND';

export interface Finding {
	outcome: LostAnswerOutcome;
	how: string;
}

const amountOf = (value: unknown) => Number(String(value ?? '').replace(/,/g, ''));
/** Amounts as the service writes them ("40.00") against the amount sent, to a thousandth. */
const sameAmount = (a: unknown, b: unknown) => Math.abs(amountOf(a) - amountOf(b)) < 0.0005;

const CAPTURED = ['CAPTURED', 'PARTIALLY_CAPTURE'];
const REFUNDED = ['PARTIALLY_REFUNDED', 'REFUNDED'];

function captureFinding(after: IDataObject, value: number): Finding {
	const status = String(after.status);
	if (CAPTURED.includes(status) && sameAmount(after.amount_captured, value)) {
		return {
			outcome: 'done',
			how: `The transaction list shows the transaction ${status} with ${String(after.amount_captured)} captured, the amount of this capture.`,
		};
	}
	if (status === 'AUTHORISED') {
		return {
			outcome: 'notDone',
			how: 'The transaction list shows the transaction still AUTHORISED: nothing was captured. It is safe to run the capture again.',
		};
	}
	return {
		outcome: 'notDone',
		how: `The transaction list shows the transaction ${status} with ${String(after.amount_captured ?? 'nothing')} captured, not the ${value} this capture asked for: this capture was not applied (the service takes captures of AUTHORISED transactions only).`,
	};
}

function voidFinding(after: IDataObject): Finding {
	const status = String(after.status);
	if (status === 'VOID') {
		return { outcome: 'done', how: 'The transaction list shows the transaction VOID.' };
	}
	return {
		outcome: 'notDone',
		how:
			status === 'AUTHORISED'
				? 'The transaction list shows the transaction still AUTHORISED: it was not voided. It is safe to run the void again.'
				: `The transaction list shows the transaction ${status}: it was not voided (the service voids AUTHORISED transactions only).`,
	};
}

/**
 * A refund not seen on one look is not a refund that will never happen: the service may still apply
 * it, and only a refund the service refused can be called not done. Partial refunds stack, so
 * sending it again could refund twice.
 */
const REFUND_NOT_SEEN =
	'The service may still apply it, so it is not safe to send it again yet: read the transaction again with Transaction > Get in a few minutes and check the refunds in the merchant dashboard; send the refund again only when both show no refund.';

const SAME_AMOUNT_CAVEAT =
	'A refund of the same transaction made elsewhere between the two reads could not be told apart from this one.';

/** Status and captured balance, read before the refund was sent and after its answer was lost. */
function refundFinding(
	before: IDataObject | undefined,
	after: IDataObject,
	value: number,
	lookedAt: Date,
): Finding {
	const seen = `${String(after.status)} with ${String(after.amount_captured)} captured`;
	if (!before) {
		return {
			outcome: 'unknown',
			how: `The transaction could not be read before the refund was sent, so its state now (${seen}) cannot be compared: look it up with Transaction > Get and in the merchant dashboard before sending the refund again.`,
		};
	}
	const was = `${String(before.status)} with ${String(before.amount_captured)} captured`;
	const balanceDrop = amountOf(before.amount_captured) - amountOf(after.amount_captured);
	if (sameAmount(balanceDrop, value) && balanceDrop > 0) {
		return {
			outcome: 'done',
			how: `The captured balance fell by ${value}, the amount of this refund (before: ${was}; after: ${seen}). ${SAME_AMOUNT_CAVEAT}`,
		};
	}
	const refundedNow =
		(CAPTURED.includes(String(before.status)) && REFUNDED.includes(String(after.status))) ||
		(before.status === 'PARTIALLY_REFUNDED' && after.status === 'REFUNDED');
	if (refundedNow) {
		return {
			outcome: 'done',
			how: `The transaction went from ${was} to ${seen}: a refund went through. ${SAME_AMOUNT_CAVEAT}`,
		};
	}
	const unchanged =
		before.status === after.status && sameAmount(before.amount_captured, after.amount_captured);
	if (unchanged && String(before.status) === 'PARTIALLY_REFUNDED') {
		return {
			outcome: 'unknown',
			how: `The transaction is ${seen} before and after. A further partial refund leaves that status as it was, and the transaction list shows no refunded total, so the node cannot tell whether this refund went through: check the refunds in the merchant dashboard before sending it again.`,
		};
	}
	if (unchanged) {
		// Not proof: the service may apply a refund after its answer was lost (see REFUND_NOT_SEEN).
		return {
			outcome: 'unknown',
			how: `At ${lookedAt.toISOString()} the transaction was ${seen}, as before the refund was sent: the refund had not been applied yet. ${REFUND_NOT_SEEN}`,
		};
	}
	return {
		outcome: 'unknown',
		how: `The transaction changed from ${was} to ${seen}, which is not what this refund of ${value} would do: check the refunds in the merchant dashboard before sending it again.`,
	};
}

/** What the transaction shows about a capture, void or refund whose answer was lost. */
export function findingOf(
	action: ManagePaymentAction,
	before: IDataObject | undefined,
	after: IDataObject | undefined,
	value: number,
	lookedAt = new Date(),
): Finding {
	if (!after) {
		return {
			outcome: 'unknown',
			how: 'The transaction list no longer shows the transaction: look it up with Transaction > Get and in the merchant dashboard before sending it again.',
		};
	}
	if (action === 'CAPTURE') return captureFinding(after, value);
	if (action === 'VOID') return voidFinding(after);
	return refundFinding(before, after, value, lookedAt);
}
