import type { Field } from '../../nodes/PaymentGateway/fields/types';
import type { WireRule } from '../sandbox/rules';

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
/** ISO 4217 codes that exist; one outside an endpoint's list is refused by that list alone. */
const OTHER_CURRENCIES = ['JPY', 'CHF', 'CAD', 'AUD'];

/**
 * Text of exactly `length` UTF-16 units that breaks nothing but the length where it can: a URL
 * for URL fields, an address for emails, words for patterns that want them.
 */
function textOfLength(field: Field, rule: WireRule, length: number): string {
	const fill = (prefix: string, suffix = '') =>
		prefix + 'x'.repeat(Math.max(length - prefix.length - suffix.length, 0)) + suffix;
	if (['url', 'webhookUrl'].includes(field.type)) return fill('https://example.com/');
	if (field.type === 'email') return fill('', '@example.com');
	const words = 'Ab Cd '.repeat(length).slice(0, length).replace(/ $/, 'e');
	const candidates = [fill(''), words, '1'.repeat(length)];
	return candidates.find((c) => !rule.pattern || rule.pattern.test(c)) ?? candidates[0];
}

/** Values just outside the sandbox's text rule: length, pattern, list. */
function textLimits(field: Field, rule: WireRule): BadValue[] {
	const out: BadValue[] = [];
	if (rule.maxLength !== undefined) {
		out.push(value(textOfLength(field, rule, rule.maxLength + 1), 'one character too long'));
		out.push(value('😀'.repeat(Math.floor(rule.maxLength / 2) + 1), 'too long in UTF-16 units'));
	}
	if (rule.minLength !== undefined && rule.minLength > 1)
		out.push(value(textOfLength(field, rule, rule.minLength - 1), 'too short'));
	if (rule.pattern) {
		const regex = rule.pattern;
		out.push(
			...PATTERN_BREAKERS.filter((c) => !regex.test(c))
				.slice(0, 2)
				.map((c) => value(c, 'breaks the pattern')),
		);
	}
	if (rule.maxItems !== undefined) {
		const list = Array.from({ length: rule.maxItems + 1 }, (_, i) => `a${i}@example.com`);
		out.push(value(list.join(','), 'one entry too many'));
	}
	if (rule.inPath) {
		// A URL resolves dot segments, so these would name another endpoint.
		out.push(value('..', 'the parent path'), value('.', 'the same path'));
	}
	if (rule.oneOf && field.type === 'currency') {
		const other = OTHER_CURRENCIES.find((c) => !rule.oneOf?.includes(c));
		if (other) out.push(value(other, 'a currency the endpoint does not take'));
	}
	return out;
}

function textValues(field: Field, rule?: WireRule): BadValue[] {
	const out: BadValue[] = [
		value(true, 'a boolean'),
		value('ab\uD800cd', 'a lone surrogate'),
		value('a\u0007b', 'a control character'),
	];
	if (!field.multiline) out.push(value('line one\nline two', 'two lines'));
	return rule ? [...out, ...textLimits(field, rule)] : out;
}

/** Values just outside the sandbox's number rule: bounds, whole numbers, decimal places. */
function numberLimits(rule: WireRule): BadValue[] {
	const out: BadValue[] = [];
	if (rule.min !== undefined)
		out.push(
			value(rule.min - 1, 'below the minimum'),
			value(String(rule.min - 0.5), 'below the minimum, as text'),
		);
	if (rule.above !== undefined)
		out.push(
			value(rule.above, 'not above the bound'),
			value(1e-7 + rule.above - 1, 'below the bound'),
		);
	if (rule.max !== undefined) out.push(value(rule.max + 1, 'above the maximum'));
	if (rule.type === 'integer') out.push(value(1.5, 'not whole'));
	const listed = rule.oneOf?.map(Number) ?? [];
	if (listed.length > 0 && listed.every(Number.isFinite)) {
		const outside = [Math.min(...listed) - 1, Math.max(...listed) + 1, Math.min(...listed) + 0.5];
		out.push(...outside.map((n) => value(n, 'not one of the allowed numbers')));
	}
	if (rule.decimals !== undefined) {
		const step = 10 ** -(rule.decimals + 1);
		const base = Math.max(rule.min ?? 1, 1) + step;
		out.push(value(Number(base.toFixed(rule.decimals + 1)), 'too many decimals'));
	}
	return out;
}

const NUMBER_VALUES: BadValue[] = [
	value('abc', 'words'),
	value('1,000', 'a thousands separator'),
	value('$5', 'a currency symbol'),
	value(true, 'a boolean'),
	special('nan', 'NaN'),
	special('inf', 'Infinity'),
	special('-inf', '-Infinity'),
];

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
	json: [value('{not json', 'invalid JSON'), special('undef', 'undefined')],
	currency: [value('XYZ', 'no currency'), value('US', 'two letters')],
};

/** Not an option at all; and, where neither side ignores case, an allowed value in another case. */
function optionValues(field: Field, rule?: WireRule): BadValue[] {
	const out = [value('NOT_AN_OPTION', 'not an option')];
	const first = rule?.oneOf?.find((o) => o.toLowerCase() !== o);
	if (first && !rule?.caseInsensitive && !field.caseInsensitive)
		out.push(value(first.toLowerCase(), 'an option in the wrong case'));
	return out;
}

/**
 * Every bad value for one field: wrong shapes and its type's breakers (the same for every field of
 * a type), then values just outside the limits, patterns and lists of `rule`, the sandbox's rule
 * for the field's wire name (never the node's own declaration), and empties where the parameter is
 * required.
 */
export function badValuesFor(field: Field, rule?: WireRule): BadValue[] {
	const out = field.type === 'json' ? [] : [...SHAPES];
	if (field.type === 'number') out.push(...NUMBER_VALUES, ...(rule ? numberLimits(rule) : []));
	else if (field.type === 'options') out.push(...optionValues(field, rule));
	else if (field.type === 'currency')
		out.push(
			...textValues(field).slice(0, 1),
			...TYPE_VALUES.currency!,
			...textLimits(field, rule ?? { type: 'currency' }),
		);
	else if (['boolean', 'date', 'dateTime', 'json'].includes(field.type))
		out.push(...(TYPE_VALUES[field.type] ?? []));
	else out.push(...textValues(field, rule), ...(TYPE_VALUES[field.type] ?? []));
	// The node's own word: an empty optional parameter may be filled by the node (a generated
	// request_id, the binary's file name), so only parameters it requires must refuse emptiness.
	if (field.required) out.push(...EMPTIES);
	return out;
}

/**
 * Values just inside the sandbox's limits (the longest text, the bounds themselves): the node must
 * not refuse them, so a node limit stricter than the service's fails the suite too.
 */
export function edgeValuesFor(field: Field, rule?: WireRule): BadValue[] {
	if (!rule) return [];
	const out: BadValue[] = [];
	const fits = (text: string) => !rule.pattern || rule.pattern.test(text);
	const text = ['text', 'email', 'url', 'webhookUrl'].includes(field.type);
	for (const [length, why] of [
		[rule.maxLength, 'the longest text'],
		[rule.minLength, 'the shortest text'],
	] as const) {
		if (!text || length === undefined || length < 1) continue;
		const edge = textOfLength(field, rule, length);
		if (fits(edge)) out.push(value(edge, why));
	}
	if (rule.maxItems !== undefined) {
		const list = Array.from({ length: rule.maxItems }, (_, i) => `a${i}@example.com`);
		out.push(value(list.join(','), 'the most entries'));
	}
	if (field.type === 'number') {
		if (rule.min !== undefined) out.push(value(rule.min, 'the minimum'));
		if (rule.max !== undefined) out.push(value(rule.max, 'the maximum'));
		if (rule.above !== undefined) out.push(value(rule.above + 0.01, 'just above the bound'));
	}
	return out;
}
