import type { Field } from './types';
import { isActiveCurrency, isCountry, SUPPORTED_CURRENCIES } from './codes';
import { unsafeUrlReason } from '../../../credentials/shared/url';

/** The outcome of reading one value: nothing given, a typed value, or the rule it breaks. */
export type Coerced = { empty: true } | { value: unknown } | { rule: string };

const EMPTY: Coerced = { empty: true };
const broken = (rule: string): Coerced => ({ rule });

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// Control characters are refused on purpose; the classes are built from code points so the
// pattern says which ones (a literal would need a no-control-regex exception).
const u = (code: number) => `\\u${code.toString(16).padStart(4, '0')}`;
const charClass = (...ranges: Array<[number, number]>) =>
	new RegExp(`[${ranges.map(([from, to]) => `${u(from)}-${u(to)}`).join('')}]`);
const CONTROL = charClass([0x00, 0x1f], [0x7f, 0x7f]);
const CONTROL_BUT_LINES = charClass([0x00, 0x08], [0x0b, 0x0c], [0x0e, 0x1f], [0x7f, 0x7f]);
const PLAIN_NUMBER = /^[-+]?\d+(\.\d+)?$/;
/** One e-mail address: local part, @, a domain ending in a top-level domain of letters. */
const EMAIL = /^[^\s@,;<>]+@[^\s@,;<>]+\.[A-Za-z]{2,}$/;
export const isEmail = (text: string) => EMAIL.test(text);

const kindOf = (value: unknown) =>
	Array.isArray(value) ? 'a list' : value === null ? 'null' : `a ${typeof value}`;

/** Digits after the decimal point of a finite number, exponent forms (1e-7) included. */
export function decimalPlaces(value: number): number {
	const [mantissa, exponent] = String(value).split('e');
	const places = mantissa.split('.')[1]?.length ?? 0;
	return Math.max(0, places - Number(exponent ?? 0));
}

/**
 * Text as the service gets it: trimmed, one line unless the field allows more, no broken Unicode.
 * Numbers from expressions are read as their usual text; objects, lists and booleans are refused.
 */
function toText(field: Field, raw: unknown, optionValue = false): Coerced {
	let text: string;
	if (typeof raw === 'string') text = raw.trim();
	else if (typeof raw === 'number') {
		if (!Number.isFinite(raw)) return broken('must be text, not a non-finite number');
		text = String(raw);
	} else if (typeof raw === 'bigint') text = String(raw);
	else return broken(`must be text, not ${kindOf(raw)}`);
	if (text === '') return EMPTY;
	if (LONE_SURROGATE.test(text)) return broken('must not contain a broken Unicode character');
	if ((field.multiline ? CONTROL_BUT_LINES : CONTROL).test(text)) {
		return broken(
			field.multiline
				? 'must not contain control characters'
				: 'must be one line without control characters',
		);
	}
	// Lengths count UTF-16 code units, the stricter of the usual server counts (an emoji counts 2).
	// An option's value is checked against its list, not against maxLength and pattern.
	if (!optionValue && field.maxLength !== undefined && text.length > field.maxLength) {
		return broken(`must be at most ${field.maxLength} characters`);
	}
	if (field.minLength !== undefined && text.length < field.minLength) {
		return broken(`must be at least ${field.minLength} characters`);
	}
	if (!optionValue && field.pattern && !field.pattern.regex.test(text))
		return broken(field.pattern.rule);
	if (field.pathSegment && (text === '.' || text === '..'))
		return broken('must not be "." or ".." (in the URL path it would name another endpoint)');
	return { value: text };
}

function toNumber(field: Field, raw: unknown): Coerced {
	let number: number;
	if (typeof raw === 'number') number = raw;
	else if (typeof raw === 'string') {
		const text = raw.trim();
		if (text === '') return EMPTY;
		if (!PLAIN_NUMBER.test(text))
			return broken('must be a plain number (no currency symbol, commas or spaces)');
		number = Number(text);
	} else return broken(`must be a number, not ${kindOf(raw)}`);
	if (!Number.isFinite(number)) return broken('must be a finite number');
	if (field.integer && !Number.isInteger(number)) return broken('must be a whole number');
	if (field.decimals !== undefined && decimalPlaces(number) > field.decimals) {
		return broken(`must have at most ${field.decimals} decimal places`);
	}
	if (field.min !== undefined && number < field.min) return broken(`must be at least ${field.min}`);
	if (field.above !== undefined && number <= field.above)
		return broken(`must be above ${field.above}`);
	if (field.max !== undefined && number > field.max) return broken(`must be at most ${field.max}`);
	return { value: number };
}

const TRUE_WORDS = ['true', 'yes', '1'];
const FALSE_WORDS = ['false', 'no', '0'];

function toBoolean(raw: unknown): Coerced {
	if (typeof raw === 'boolean') return { value: raw };
	if (raw === 1 || raw === 0) return { value: raw === 1 };
	if (typeof raw === 'string') {
		const word = raw.trim().toLowerCase();
		if (word === '') return EMPTY;
		if (TRUE_WORDS.includes(word)) return { value: true };
		if (FALSE_WORDS.includes(word)) return { value: false };
	}
	return broken('must be true or false');
}

function toOption(field: Field, raw: unknown): Coerced {
	const text = toText(field, raw, true);
	if (!('value' in text)) return text;
	const given = String(text.value);
	const options = field.options ?? [];
	const match = options.find((o) =>
		field.caseInsensitive ? o.value.toLowerCase() === given.toLowerCase() : o.value === given,
	);
	if (match) return { value: match.value };
	return broken(
		`must be one of ${options
			.filter((o) => o.value !== '')
			.map((o) => o.value)
			.join(', ')}`,
	);
}

const DATE_TIME =
	/^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

/** Text of a date or date-time given as text, a Date or a Luxon DateTime. */
function dateText(raw: unknown): string | undefined {
	if (raw instanceof Date) return Number.isNaN(raw.getTime()) ? undefined : raw.toISOString();
	if (typeof raw === 'string') return raw.trim();
	if (raw && typeof (raw as { toISO?: unknown }).toISO === 'function') {
		return String((raw as { toISO: () => string }).toISO());
	}
	return undefined;
}

/**
 * The one date parser: YYYY-MM-DD of a date that exists, with an optional time that exists too
 * (2031-01-01T25:00 is no date and time, so it gives no date either).
 */
function parseDateTime(text: string | undefined): { date: string } | undefined {
	const match = text === undefined ? null : DATE_TIME.exec(text);
	if (!match) return undefined;
	const [year, month, day] = [+match[1], +match[2], +match[3]];
	const [hour, minute, second] = [+(match[4] ?? 0), +(match[5] ?? 0), +(match[6] ?? 0)];
	const date = new Date(Date.UTC(year, month - 1, day));
	const dayExists =
		date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
	const timeExists = hour <= 23 && minute <= 59 && second <= 59;
	return dayExists && timeExists ? { date: `${match[1]}-${match[2]}-${match[3]}` } : undefined;
}

/** YYYY-MM-DD of a date that exists; an ISO date-time that exists, a Date or a Luxon DateTime gives its date. */
export function toCalendarDate(raw: unknown): string | undefined {
	return parseDateTime(dateText(raw))?.date;
}

function toDate(raw: unknown): Coerced {
	if (raw === '' || (typeof raw === 'string' && raw.trim() === '')) return EMPTY;
	const date = toCalendarDate(raw);
	return date ? { value: date } : broken('must be a calendar date YYYY-MM-DD that exists');
}

/**
 * A date and time as given, once it is known to exist: YYYY-MM-DD[ HH:mm] as wall time, or an
 * instant (with Z or an offset, a Date, a Luxon DateTime) as ISO text with its offset.
 */
function toDateTime(raw: unknown): Coerced {
	const text = dateText(raw);
	if (text === '') return EMPTY;
	if (!parseDateTime(text)) return broken('must be a date and time YYYY-MM-DD HH:mm that exists');
	return { value: text };
}

function isHttpUrl(text: string): boolean {
	try {
		return ['http:', 'https:'].includes(new URL(text).protocol);
	} catch {
		return false;
	}
}

/** Rules of the text-based types beyond plain text. */
const TEXT_RULES: Partial<
	Record<Field['type'], (text: string, field: Field) => string | undefined>
> = {
	email: (t) => (EMAIL.test(t) ? undefined : 'must be a valid email address'),
	url: (t) => (isHttpUrl(t) && !/\s/.test(t) ? undefined : 'must be an http:// or https:// URL'),
	webhookUrl: (t) =>
		unsafeUrlReason(t) === undefined
			? undefined
			: 'must be an https:// URL (http:// only for localhost)',
	digits: (t) => (/^\d+$/.test(t) ? undefined : 'must contain digits only'),
	dialingCode: (t) =>
		/^\+?\d{1,4}$/.test(t) ? undefined : 'must be a dialing code such as 971 or +971',
	country: (t) => (isCountry(t) ? undefined : 'must be a 2-letter ISO 3166-1 alpha-2 country code'),
	currency: (t, f) =>
		f.currencies === 'supported'
			? SUPPORTED_CURRENCIES.includes(t)
				? undefined
				: `must be one of ${SUPPORTED_CURRENCIES.join(', ')}`
			: isActiveCurrency(t)
				? undefined
				: 'must be an ISO 4217 currency code such as USD',
};

function toJson(raw: unknown): Coerced {
	if (typeof raw !== 'string') return raw === undefined || raw === null ? EMPTY : { value: raw };
	if (raw.trim() === '') return EMPTY;
	try {
		return { value: JSON.parse(raw) as unknown };
	} catch (error) {
		return broken(`must be valid JSON (${(error as Error).message})`);
	}
}

/**
 * Reads one raw parameter value as its field's type, or names the rule it breaks. `given`: the value
 * was set, so undefined came from an expression that named nothing; that is no JSON value (a
 * mapping gone wrong must not drop the data silently), while other types read it as empty.
 */
export function coerce(field: Field, raw: unknown, given = false): Coerced {
	if (raw === undefined && given && field.type === 'json')
		return broken('must be JSON (the expression gave undefined)');
	if (raw === undefined || raw === null) return EMPTY;
	switch (field.type) {
		case 'number':
			return toNumber(field, raw);
		case 'boolean':
			return toBoolean(raw);
		case 'options':
			return toOption(field, raw);
		case 'date':
			return toDate(raw);
		case 'dateTime':
			return toDateTime(raw);
		case 'json':
			return toJson(raw);
		default: {
			const text = toText(field, raw);
			if (!('value' in text)) return text;
			const upper = field.type === 'currency' || field.type === 'country';
			const value = upper ? String(text.value).toUpperCase() : String(text.value);
			const rule = TEXT_RULES[field.type]?.(value, field);
			return rule ? broken(rule) : { value };
		}
	}
}
