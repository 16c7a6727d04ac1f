/**
 * What a status of the service says of its order's payment, read one way by every part of the
 * package that reads statuses: the trigger's events (events.ts), Wait for Payment (its webhook, its
 * look at the order, its last look at the wait limit) and the trigger passing late statuses on
 * (late-status.ts).
 */
export type PaymentOutcome = 'paid' | 'failed' | 'open';

/** A status field as the service's rules compare it: trimmed, upper case; '' when not text. */
export const statusText = (value: unknown): string =>
	typeof value === 'string' ? value.trim().toUpperCase() : '';

/**
 * FAILED (status or order status) → failed; PENDING or no order status → open (not final yet); any
 * other order status (CAPTURED, AUTHORISED, also later ones such as REFUNDED) → the customer paid.
 */
export function paymentOutcome(status: unknown, orderStatus: unknown): PaymentOutcome {
	const state = statusText(orderStatus);
	if (statusText(status) === 'FAILED' || state === 'FAILED') return 'failed';
	return state === '' || state === 'PENDING' ? 'open' : 'paid';
}

/** paid / failed for a final status; undefined while the order is open. */
export function finalOutcome(status: unknown, orderStatus: unknown): 'paid' | 'failed' | undefined {
	const outcome = paymentOutcome(status, orderStatus);
	return outcome === 'open' ? undefined : outcome;
}
