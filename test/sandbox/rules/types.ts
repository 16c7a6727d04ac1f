/**
 * The service's request rules as data, one table per endpoint, written from the spec. The sandbox
 * validates requests with these tables (so they are its rules, not a copy of them), and the
 * generated bad-input suite reads its limits from them: an independent source for the node's own
 * declarations. Rules across fields (for example "required for CAUTH") stay code in the areas.
 */

/** What a value must be on the wire. */
export type WireType =
	| 'text'
	| 'number'
	| 'integer'
	| 'boolean'
	| 'email'
	/** Comma-separated email addresses. */
	| 'emailList'
	| 'url'
	/** HTTPS, or plain HTTP to the local machine. */
	| 'webhookUrl'
	| 'date'
	| 'dateTime'
	| 'currency'
	| 'country';

export interface WireRule {
	type: WireType;
	/** A value must be given; with `mayBeEmpty`, only the key must be present. */
	required?: boolean;
	/** '' is accepted (the spec: "may be empty string"). */
	mayBeEmpty?: boolean;
	/** Inclusive bounds of numbers. */
	min?: number;
	max?: number;
	/** The number must be strictly above this. */
	above?: number;
	/** Most digits after the decimal point. */
	decimals?: number;
	/** Length bounds of text, in UTF-16 units (String.length). */
	minLength?: number;
	maxLength?: number;
	/** The form text must have; `says` is the rule in the sandbox's answer. */
	pattern?: RegExp;
	/** The values allowed. */
	oneOf?: readonly string[];
	/** oneOf compared without regard to case. */
	caseInsensitive?: boolean;
	/** Most entries of a comma-separated list (`pattern` then applies to each entry). */
	maxItems?: number;
	/** The rule in words, as the sandbox names it when the pattern or the list is broken. */
	says?: string;
	/** A `:name` segment of the endpoint's path (set by the bad-input suite from the route). */
	inPath?: boolean;
}

/** Rules by wire path ("order_details.amount", "items[].title", a query or multipart name). */
export type WireRules = Readonly<Record<string, WireRule>>;

export interface EndpointRules {
	method: 'GET' | 'POST';
	/** As routed: `:name` segments match one segment. */
	path: string;
	/** Body, query, path and multipart fields by wire path. */
	fields: WireRules;
	/** Spreadsheet columns of an uploaded sheet, by header. */
	columns?: WireRules;
	/** Rules that replace `fields` ones when the body's top-level fields have these values. */
	variants?: ReadonlyArray<{ when: Readonly<Record<string, string>>; fields: WireRules }>;
}

/** The rule of one wire path; a missing one is a defect in the table, so it throws. */
export function ruleAt(rules: WireRules, path: string): WireRule {
	const rule = rules[path];
	if (!rule) throw new Error(`no sandbox rule for ${path}`);
	return rule;
}

/** Does text fit the rule's length, pattern and list (type checks are the area's own)? */
export function textFits(rule: WireRule, text: string): boolean {
	if (rule.maxLength !== undefined && text.length > rule.maxLength) return false;
	if (rule.minLength !== undefined && text.length < rule.minLength) return false;
	if (rule.pattern && !rule.pattern.test(text)) return false;
	if (rule.oneOf) {
		const list = rule.caseInsensitive ? rule.oneOf.map((v) => v.toUpperCase()) : rule.oneOf;
		if (!list.includes(rule.caseInsensitive ? text.toUpperCase() : text)) return false;
	}
	return true;
}

/** "A, B or C". */
export const orList = (values: readonly string[]) =>
	`${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;
