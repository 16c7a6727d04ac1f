import {
	coerce,
	decimalPlaces,
	toCalendarDate,
} from '../../../../nodes/PaymentGateway/fields/coerce';
import type { Field } from '../../../../nodes/PaymentGateway/fields/types';

const field = (more: Partial<Field>): Field => ({
	name: 'f',
	displayName: 'F',
	type: 'text',
	...more,
});

describe('coerce', () => {
	it.each([
		[field({}), '  hello  ', { value: 'hello' }],
		[field({}), 971, { value: '971' }],
		[field({}), '   ', { empty: true }],
		[field({}), null, { empty: true }],
		[field({ type: 'number' }), ' 150.25 ', { value: 150.25 }],
		[field({ type: 'number' }), '', { empty: true }],
		[field({ type: 'boolean' }), 'Yes', { value: true }],
		[field({ type: 'boolean' }), 'false', { value: false }],
		[field({ type: 'boolean' }), 0, { value: false }],
		[field({ type: 'currency', currencies: 'iso' }), 'jpy', { value: 'JPY' }],
		[field({ type: 'country' }), 'ae', { value: 'AE' }],
		[field({ type: 'date' }), '2030-02-28T10:00:00Z', { value: '2030-02-28' }],
		[
			field({ type: 'options', options: [{ name: 'A', value: 'INVOICE' }], caseInsensitive: true }),
			'invoice',
			{ value: 'INVOICE' },
		],
		[field({ type: 'json' }), '[1]', { value: [1] }],
		[field({ multiline: true }), 'line\nline', { value: 'line\nline' }],
		[field({ pathSegment: true }), '...', { value: '...' }],
		[field({ pathSegment: true }), 'a..b', { value: 'a..b' }],
	])('%# reads a good value', (f, raw, expected) => {
		expect(coerce(f, raw)).toEqual(expected);
	});

	it.each([
		[field({}), { a: 1 }, 'must be text, not a object'],
		[field({}), [1], 'must be text, not a list'],
		[field({}), true, 'must be text, not a boolean'],
		[field({}), 'a\uD800', 'broken Unicode'],
		[field({}), 'a\nb', 'one line'],
		[field({ maxLength: 50 }), '😀'.repeat(26), 'at most 50 characters'],
		[field({ type: 'number' }), '1,000', 'plain number'],
		[field({ type: 'number' }), Number.NaN, 'finite'],
		[field({ type: 'number', decimals: 2 }), 1e-7, 'at most 2 decimal places'],
		[field({ type: 'number', integer: true }), '1.5', 'whole number'],
		[field({ type: 'number', above: 0 }), 0, 'above 0'],
		[field({ type: 'boolean' }), 'maybe', 'true or false'],
		[
			field({ type: 'options', options: [{ name: 'S', value: 'SALE' }] }),
			'sale',
			'must be one of SALE',
		],
		[field({ type: 'currency', currencies: 'iso' }), 'XYZ', 'ISO 4217'],
		[field({ type: 'currency', currencies: 'supported' }), 'JPY', 'must be one of AED'],
		[field({ type: 'country' }), 'XX', 'ISO 3166-1'],
		[field({ type: 'date' }), '2031-02-30', 'exists'],
		[field({ type: 'url' }), 'https://a.example/b c', 'URL'],
		[field({ type: 'webhookUrl' }), 'http://example.com/x', 'https://'],
		[field({ type: 'json' }), '{bad', 'valid JSON'],
		[field({ pathSegment: true }), '..', 'must not be "." or ".."'],
		[field({ pathSegment: true }), ' . ', 'must not be "." or ".."'],
	])('%# names the rule a bad value breaks', (f, raw, rule) => {
		const result = coerce(f, raw);
		expect('rule' in result && result.rule).toContain(rule);
	});

	it('refuses undefined given to a JSON field (an expression that named nothing), empty elsewhere', () => {
		expect(coerce(field({ type: 'json' }), undefined, true)).toEqual({
			rule: 'must be JSON (the expression gave undefined)',
		});
		expect(coerce(field({ type: 'json' }), undefined)).toEqual({ empty: true });
		expect(coerce(field({ type: 'json' }), null, true)).toEqual({ empty: true });
		expect(coerce(field({}), undefined, true)).toEqual({ empty: true });
	});

	it.each([
		['false', false],
		['FALSE', false],
		[' no ', false],
		['0', false],
		['true', true],
		[' Yes', true],
	])('reads the boolean text %p as %p', (raw, value) => {
		expect(coerce(field({ type: 'boolean' }), raw)).toEqual({ value });
	});
});

describe('decimalPlaces', () => {
	it.each([
		[10, 0],
		[10.125, 3],
		[1e-7, 7],
		[1.5e-3, 4],
	])('%p has %p', (value, places) => expect(decimalPlaces(value)).toBe(places));
});

describe('toCalendarDate', () => {
	it.each([
		['2032-02-29', '2032-02-29'],
		['2031-02-29', undefined],
		['2031-13-01', undefined],
		[new Date(Date.UTC(2031, 0, 2)), '2031-01-02'],
		[new Date(Number.NaN), undefined],
		[{ toISO: () => '2031-05-06T00:00:00.000+04:00' }, '2031-05-06'],
		['2031-01-01T23:59:59', '2031-01-01'],
		['2031-01-01 10:00', '2031-01-01'],
		// A time that does not exist makes the whole value no date (it was once cut to its date).
		['2031-01-01T25:00:00', undefined],
		['2031-01-01T10:60', undefined],
		['2031-01-01T10:00:61Z', undefined],
		['2031-01-01Tnoon', undefined],
	])('%p → %p', (raw, expected) => expect(toCalendarDate(raw)).toBe(expected));
});
