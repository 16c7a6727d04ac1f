import type { IDataObject } from 'n8n-workflow';

import { minorUnits } from '../../fields/codes';

/** What a refund's item says is left to refund, and how the node knows it (or why it does not). */
export interface LeftToRefund extends IDataObject {
	amount_left_to_refund: number | null;
	amount_left_to_refund_how: string;
}

const CAPTURED = ['CAPTURED', 'PARTIALLY_CAPTURE'];

const unknown = (how: string): LeftToRefund => ({
	amount_left_to_refund: null,
	amount_left_to_refund_how: `Unknown: ${how}`,
});

/**
 * The amount left to refund after a refund the service answered with `status`. The refund answer
 * carries no balance and the transaction list no refunded total (see docs/assumptions.md), so it is
 * worked out from the transaction as read just before the refund: exact when nothing was refunded
 * before; unknown after earlier refunds. Never a reason to fail: the refund has been made.
 */
export function leftToRefund(
	status: unknown,
	before: IDataObject | undefined,
	value: number,
	currency: string,
): LeftToRefund {
	if (status === 'REFUNDED') {
		return {
			amount_left_to_refund: 0,
			amount_left_to_refund_how: 'The service answered REFUNDED: nothing is left to refund.',
		};
	}
	if (status !== 'PARTIALLY_REFUNDED') {
		return unknown(`the service answered ${String(status)}, not REFUNDED or PARTIALLY_REFUNDED.`);
	}
	if (!before) {
		return unknown(
			'the transaction list did not show the transaction before the refund, so its captured amount is not known. Look it up with Transaction > Get and in the merchant dashboard.',
		);
	}
	if (before.status === 'PARTIALLY_REFUNDED') {
		return unknown(
			'the transaction was already PARTIALLY_REFUNDED before this refund, and the service shows no total of earlier refunds (the transaction list has amount and amount_captured only). The merchant dashboard lists the refunds; the service refuses a refund above what is left.',
		);
	}
	const captured = Number(String(before.amount_captured ?? '').replace(/,/g, ''));
	if (
		!CAPTURED.includes(String(before.status)) ||
		before.amount_captured === '' ||
		!(captured > 0)
	) {
		return unknown(
			`before the refund the transaction list showed it ${String(before.status)} with ${String(before.amount_captured ?? 'no amount')} captured, from which what is left cannot be worked out.`,
		);
	}
	const scale = 10 ** minorUnits(currency);
	const left = Math.round((captured - value) * scale) / scale;
	if (!(left > 0)) {
		return unknown(
			`the service answered PARTIALLY_REFUNDED, but ${String(before.amount_captured)} captured less this refund of ${value} leaves nothing: check the transaction in the merchant dashboard.`,
		);
	}
	return {
		amount_left_to_refund: left,
		amount_left_to_refund_how: `${String(before.amount_captured)} captured (the transaction as read just before the refund, ${String(before.status)}) minus this refund of ${value}.`,
	};
}
