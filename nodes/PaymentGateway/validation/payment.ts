import type { Violation } from './rules';
import { SUPPORTED_CURRENCIES, toPlainNumber } from './rules';

/** The three actions of POST /orders/v1/transaction (Manage payment). */
export type ManagePaymentAction = 'CAPTURE' | 'VOID' | 'REFUND';

/** Smallest refund the service takes (seed, Limits: "Refund: minimum amount.value 1"). */
export const MIN_REFUND_AMOUNT = 1;

/** A manage payment request as the user gave it, before the amount is read as a number. */
export interface ManagePaymentInput {
	action: ManagePaymentAction;
	transaction_id: string;
	currencyCode: string;
	/** Whatever the Amount parameter held: a number, or text from an expression. */
	value: unknown;
}

/** Rules of POST /orders/v1/transaction, on the fields as the service names them. */
export function validateManagePayment(input: ManagePaymentInput): Violation[] {
	const violations: Violation[] = [];
	if (input.transaction_id.trim() === '') {
		violations.push({ field: 'transaction_id', rule: 'is required', value: input.transaction_id });
	}

	const amount = toPlainNumber(input.value);
	if (amount === undefined) {
		violations.push({
			field: 'amount.value',
			rule: 'must be a plain number (no currency symbol, commas or spaces)',
			value: input.value,
		});
	} else if (input.action === 'REFUND' && amount < MIN_REFUND_AMOUNT) {
		violations.push({
			field: 'amount.value',
			rule: `must be at least ${MIN_REFUND_AMOUNT} for a refund`,
			value: input.value,
		});
	} else if (input.action !== 'REFUND' && amount <= 0) {
		violations.push({
			field: 'amount.value',
			rule: `must be above 0 for a ${input.action.toLowerCase()}`,
			value: input.value,
		});
	}

	if (!SUPPORTED_CURRENCIES.includes(input.currencyCode)) {
		violations.push({
			field: 'amount.currencyCode',
			rule: `must be one of the supported currencies ${SUPPORTED_CURRENCIES.join(', ')}`,
			value: input.currencyCode,
		});
	}
	return violations;
}
