import type { Field } from '../../nodes/PaymentGateway/fields/types';

/** A value an expression can resolve to; `special` covers what JSON items cannot carry. */
export interface BadValue {
	v?: unknown;
	special?: 'nan' | 'inf' | '-inf' | 'undef';
	why: string;
}

/** The expression a generated parameter holds: the item's value, or a special one. */
export const BAD_EXPRESSION =
	"={{ $json.special === 'nan' ? NaN : $json.special === 'inf' ? Infinity : $json.special === '-inf' ? -Infinity : $json.special === 'undef' ? undefined : $json.v }}";

const value = (v: unknown, why: string): BadValue => ({ v, why });
const special = (kind: BadValue['special'], why: string): BadValue => ({ special: kind, why });

const SHAPES: BadValue[] = [value({ id: 7 }, 'an object'), value(['a', 'b'], 'a list')];
const EMPTIES: BadValue[] = [
	value('', 'empty text'),
	value('   ', 'blank text'),
	value(null, 'null'),
	special('undef', 'undefined'),
];

/** Candidates that break most patterns; only those the pattern really refuses are used. */
const PATTERN_BREAKERS = ['!!', 'a|b', 'A,B', '-1', '1.2.3', 'abc', '12 34', 'Ab1'];

function textValues(field: Field): BadValue[] {
	const out: BadValue[] = [
		value(true, 'a boolean'),
		value('ab\uD800cd', 'a lone surrogate'),
		value('a\u0007b', 'a control character'),
	];
	if (!field.multiline) out.push(value('line one\nline two', 'two lines'));
	if (field.maxLength !== undefined) {
		out.push(value('x'.repeat(field.maxLength + 1), 'one character too long'));
		out.push(value('😀'.repeat(Math.floor(field.maxLength / 2) + 1), 'too long in UTF-16 units'));
	}
	if (field.minLength !== undefined && field.minLength > 1)
		out.push(value('x'.repeat(field.minLength - 1), 'too short'));
	if (field.pattern) {
		const regex = field.pattern.regex;
		out.push(
			...PATTERN_BREAKERS.filter((c) => !regex.test(c))
				.slice(0, 2)
				.map((c) => value(c, 'breaks the pattern')),
		);
	}
	return out;
}

function numberValues(field: Field): BadValue[] {
	const out: BadValue[] = [
		value('abc', 'words'),
		value('1,000', 'a thousands separator'),
		value('$5', 'a currency symbol'),
		value(true, 'a boolean'),
		special('nan', 'NaN'),
		special('inf', 'Infinity'),
		special('-inf', '-Infinity'),
	];
	if (field.min !== undefined)
		out.push(
			value(field.min - 1, 'below the minimum'),
			value(String(field.min - 0.5), 'below the minimum, as text'),
		);
	if (field.above !== undefined)
		out.push(
			value(field.above, 'not above the bound'),
			value(1e-7 + field.above - 1, 'below the bound'),
		);
	if (field.max !== undefined) out.push(value(field.max + 1, 'above the maximum'));
	if (field.integer) out.push(value(1.5, 'not whole'));
	if (field.decimals !== undefined) {
		const step = 10 ** -(field.decimals + 1);
		out.push(
			value(
				Number((Math.max(field.min ?? 1, 1) + step).toFixed(field.decimals + 1)),
				'too many decimals',
			),
		);
	}
	return out;
}

const TYPE_VALUES: Partial<Record<Field['type'], BadValue[]>> = {
	boolean: [value('maybe', 'not a yes/no word'), value(2, 'a number other than 0 or 1')],
	date: [
		value('2031-02-30', 'a day that does not exist'),
		value('31/12/2031', 'another format'),
		value('tomorrow', 'words'),
	],
	dateTime: [
		value('2031-02-30 10:00', 'a day that does not exist'),
		value('2031-01-10 24:30', 'an hour that does not exist'),
		value('31/12/2031 10:00', 'another format'),
		value('next week', 'words'),
	],
	email: [value('x@', 'no domain'), value('a b@example.com', 'a space')],
	url: [
		value('not a url', 'not a URL'),
		value('ftp://example.com/x', 'another scheme'),
		value('https://example.com/a b', 'a space'),
	],
	webhookUrl: [
		value('http://example.com/hook', 'plain http to a public host'),
		value('ftp://example.com/hook', 'another scheme'),
	],
	country: [value('XX', 'an unassigned code'), value('ARE', 'three letters')],
	digits: [value('12a4', 'a letter'), value('+971', 'a plus sign')],
	dialingCode: [value('97123', 'five digits'), value('UAE', 'letters')],
	json: [value('{not json', 'invalid JSON')],
};

function currencyValues(field: Field): BadValue[] {
	return field.currencies === 'supported'
		? [value('JPY', 'a currency the endpoint does not take'), value('XYZ', 'no currency')]
		: [value('XYZ', 'no currency'), value('US', 'two letters')];
}

function optionValues(field: Field): BadValue[] {
	const out = [value('NOT_AN_OPTION', 'not an option')];
	const first = field.options?.find(
		(o) => o.value !== '' && o.value.toLowerCase() !== o.value,
	)?.value;
	if (first && !field.caseInsensitive)
		out.push(value(first.toLowerCase(), 'an option in the wrong case'));
	return out;
}

/** Every bad value for one field: wrong shapes, its type's breakers, and empties when required. */
export function badValuesFor(field: Field): BadValue[] {
	const out = field.type === 'json' ? [] : [...SHAPES];
	if (field.type === 'number') out.push(...numberValues(field));
	else if (field.type === 'options') out.push(...optionValues(field));
	else if (field.type === 'currency')
		out.push(...textValues(field).slice(0, 1), ...currencyValues(field));
	else if (['boolean', 'date', 'dateTime', 'json'].includes(field.type))
		out.push(...(TYPE_VALUES[field.type] ?? []));
	else out.push(...textValues(field), ...(TYPE_VALUES[field.type] ?? []));
	if (field.required) out.push(...EMPTIES);
	return out;
}
