import {
	FAILED_AGAIN,
	paidAs,
	standingOf,
	transition,
} from '../../../../../../nodes/PaymentGateway/actions/payout/ledger/states';

describe('payout ledger: the one transition rule', () => {
	it('a final state never moves back; processed → reversed is the one exception', () => {
		expect(transition('processed', 'reversed')).toEqual({ ok: true, to: 'reversed' });
		for (const late of ['queued', 'failed', 'rejected', 'claimed'] as const)
			expect(transition('processed', late)).toMatchObject({ ok: false, ignored: true });
		for (const final of ['failed', 'rejected', 'reversed'] as const)
			expect(transition(final, 'processed')).toMatchObject({ ok: false, ignored: true });
		expect(transition('queued', 'queued')).toMatchObject({ ok: false, ignored: true });
	});

	it('a claim starts from nothing or from unknown; results settle queued, claimed and unknown records', () => {
		expect(transition(undefined, 'claimed').ok).toBe(true);
		expect(transition(undefined, 'queued')).toMatchObject({ ok: false, ignored: false });
		expect(transition('unknown', 'claimed').ok).toBe(true);
		for (const from of ['claimed', 'unknown', 'queued'] as const)
			for (const to of ['processed', 'failed', 'rejected'] as const)
				expect(transition(from, to).ok).toBe(true);
		expect(transition('queued', 'reversed')).toMatchObject({ ok: false, ignored: false });
	});

	it('"already paid": per attempt; a later attempt counts as paid, an earlier one lets a new attempt go', () => {
		expect(paidAs(undefined, 1)).toBe('new');
		expect(paidAs({ state: 'queued', attempt: 1 }, 1)).toBe('paid');
		expect(paidAs({ state: 'failed', attempt: 1 }, 1)).toBe('paid');
		expect(paidAs({ state: 'claimed', attempt: 1 }, 1)).toBe('unknown');
		expect(paidAs({ state: 'unknown', attempt: 1 }, 1)).toBe('unknown');
		expect(paidAs({ state: 'processed', attempt: 1 }, 2)).toBe('new');
		expect(paidAs({ state: 'unknown', attempt: 2 }, 1)).toBe('paid');
	});

	it('Pay Failed Again: failed, rejected and reversed are paid as the next attempt; nothing else ever is', () => {
		for (const state of ['failed', 'rejected', 'reversed'] as const)
			expect(standingOf({ state, attempt: 2 }, FAILED_AGAIN)).toEqual({
				attempt: 3,
				standing: 'new',
			});
		for (const state of ['queued', 'processed'] as const)
			expect(standingOf({ state, attempt: 1 }, FAILED_AGAIN)).toEqual({
				attempt: 1,
				standing: 'paid',
			});
		for (const state of ['claimed', 'unknown'] as const)
			expect(standingOf({ state, attempt: 2 }, FAILED_AGAIN)).toEqual({
				attempt: 2,
				standing: 'unknown',
			});
		expect(standingOf(undefined, FAILED_AGAIN)).toEqual({ attempt: 1, standing: 'new' });
		// A given attempt is paidAs's.
		expect(standingOf({ state: 'failed', attempt: 1 }, 1)).toEqual({
			attempt: 1,
			standing: 'paid',
		});
	});
});
