import { toIsoDate } from '../../nodes/PaymentGateway/validation/rules';

describe('shared rules', () => {
	it('reads date picker values as YYYY-MM-DD', () => {
		expect(toIsoDate('2026-03-04T00:00:00')).toBe('2026-03-04');
		expect(toIsoDate('2026-03-04')).toBe('2026-03-04');
		expect(toIsoDate('04/03/2026')).toBeUndefined();
		expect(toIsoDate('2031-02-30')).toBeUndefined();
	});
});
