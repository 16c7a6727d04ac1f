import { toIsoDate } from '../../nodes/PaymentGateway/validation/rules';
import { validateTransactionListQuery } from '../../nodes/PaymentGateway/validation/transaction';

const fieldsOf = (qs: Record<string, unknown>) =>
	validateTransactionListQuery(qs as never).map((v) => v.field);

describe('transaction list query rules', () => {
	it('accepts a query that follows every rule', () => {
		expect(
			fieldsOf({
				page: 1,
				perpage: 100,
				status: 'CAPTURED',
				currency_code: 'AED',
				customer_country: 'AE',
				card_bin: '411111',
				customer_mobile: '971500000001',
				from_date: '2026-01-01',
				to_date: '2026-01-31',
				min_amount: 0,
				max_amount: '250.50',
			}),
		).toEqual([]);
	});

	it.each([
		['perpage', { perpage: 101 }],
		['perpage', { perpage: 0 }],
		['page', { page: 0 }],
		['status', { status: 'settled' }],
		['currency_code', { currency_code: 'DIRHAM' }],
		['customer_country', { customer_country: 'ARE' }],
		['card_bin', { card_bin: '4111' }],
		['customer_mobile', { customer_mobile: '+971 50' }],
		['from_date', { from_date: '2026-02-30' }],
		['to_date', { to_date: '01-02-2026' }],
		['min_amount', { min_amount: '1,000' }],
		['max_amount', { max_amount: -5 }],
		['min_amount', { min_amount: 10, max_amount: 5 }],
		['from_date', { from_date: '2026-02-01', to_date: '2026-01-01' }],
	])('flags %s in %j', (field, qs) => {
		expect(fieldsOf(qs)).toEqual([field]);
	});

	it('reads date picker values as YYYY-MM-DD', () => {
		expect(toIsoDate('2026-03-04T00:00:00')).toBe('2026-03-04');
		expect(toIsoDate('2026-03-04')).toBe('2026-03-04');
		expect(toIsoDate('04/03/2026')).toBeUndefined();
	});
});
