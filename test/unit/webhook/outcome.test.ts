// One reading of the service's statuses for the trigger's events, Wait for Payment and Late Status.
import { classifyEvent } from '../../../nodes/webhook/events';
import { finalOutcome, paymentOutcome } from '../../../nodes/webhook/outcome';

describe('what a status says of its order: paid, failed or open', () => {
	it.each([
		['SUCCESS', 'CAPTURED', 'paid'],
		['SUCCESS', 'AUTHORISED', 'paid'],
		['success', ' authorised ', 'paid'],
		['SUCCESS', 'REFUNDED', 'paid'],
		['FAILED', 'FAILED', 'failed'],
		['FAILED', 'PENDING', 'failed'],
		[' failed ', 'PENDING', 'failed'],
		['SUCCESS', 'FAILED', 'failed'],
		['SUCCESS', ' failed', 'failed'],
		['SUCCESS', 'PENDING', 'open'],
		['SUCCESS', ' pending ', 'open'],
		['SUCCESS', '', 'open'],
		['SUCCESS', '   ', 'open'],
		[undefined, undefined, 'open'],
		// Only text is a status: a number or an object is none.
		['SUCCESS', 7, 'open'],
	])('status %p, order_status %p → %p', (status, orderStatus, expected) => {
		expect(paymentOutcome(status, orderStatus)).toBe(expected);
		expect(finalOutcome(status, orderStatus)).toBe(expected === 'open' ? undefined : expected);
	});

	it('the trigger names a failed payment by the same rule', () => {
		for (const [status, orderStatus] of [
			[' failed ', 'PENDING'],
			['SUCCESS', ' Failed'],
		]) {
			const payload = { action: 'SALE', status, order_status: orderStatus };
			expect(paymentOutcome(status, orderStatus)).toBe('failed');
			expect(classifyEvent(payload)).toBe('payment_failed');
		}
		expect(classifyEvent({ action: 'SALE', status: 'SUCCESS', order_status: ' captured ' })).toBe(
			'payment_captured',
		);
	});
});
