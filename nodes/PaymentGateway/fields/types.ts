import type { INodeProperties } from 'n8n-workflow';

/** What a value must be; each type has one coercion and one set of rules (see coerce.ts). */
export type FieldType =
	| 'text'
	| 'number'
	| 'boolean'
	| 'options'
	| 'date'
	| 'dateTime'
	| 'email'
	| 'url'
	| 'webhookUrl'
	| 'currency'
	| 'country'
	| 'digits'
	| 'dialingCode'
	| 'json';

export interface FieldOption {
	name: string;
	value: string;
	description?: string;
}

/**
 * One field, declared once: its parameter, its type and rules, and where its value goes on the wire.
 * The node's property, the typed reader, the validation and the request body all come from it.
 */
export interface Field {
	/** Parameter name (inside its collection, if it is in one). Public: never rename. */
	name: string;
	displayName: string;
	description?: string;
	type: FieldType;
	/** Dotted path in the request body; without it the operation uses the value itself. */
	wire?: string;
	/** The name a violation uses; defaults to the wire path, then the display name. */
	label?: string;
	/** A value must be given (after trimming). */
	required?: boolean;
	/** Sent as '' when empty (the service wants every key present); otherwise an empty field is left out. */
	emptyAsBlank?: boolean;
	// number
	min?: number;
	max?: number;
	/** The value must be strictly above this. */
	above?: number;
	integer?: boolean;
	decimals?: number;
	/**
	 * An amount in the currency of this top-level parameter: at most that currency's minor units
	 * (three for KWD, BHD, OMR; two otherwise).
	 */
	minorUnitsOf?: string;
	// text-like
	minLength?: number;
	maxLength?: number;
	/** Line breaks and tabs allowed (descriptions, notes). */
	multiline?: boolean;
	pattern?: { regex: RegExp; rule: string };
	/**
	 * The value is one segment of the request's URL path: "." and ".." are refused, since a URL
	 * resolves them to another endpoint.
	 */
	pathSegment?: boolean;
	// options
	options?: readonly FieldOption[];
	/** Options matched without regard to case, sent in the declared case. */
	caseInsensitive?: boolean;
	/** currency: the ten the order endpoints take, or any active ISO 4217 code. */
	currencies?: 'supported' | 'iso';
	/** The value as the wire wants it, after validation (for example 'yes' → true). */
	toWire?: (value: unknown) => unknown;
	/** Extra property settings for the editor (default, placeholder, hint, typeOptions, type). */
	ui?: Partial<INodeProperties>;
	/**
	 * What version 1 of the node showed where version 2 differs (a default that broke the field's
	 * own rule): version-1 workflows keep it, new nodes get `ui`.
	 */
	uiVersion1?: Partial<INodeProperties>;
	/**
	 * What new nodes (version 3 on) show where versions 1 and 2 showed `ui`: a money field's
	 * default removed without changing saved workflows.
	 */
	uiVersion3?: Partial<INodeProperties>;
}

/** A collection parameter (an "Add Field" group); its fields read from one parameter value. */
export interface FieldGroup {
	group: 'collection';
	name: string;
	displayName: string;
	placeholder?: string;
	description?: string;
	fields: Field[];
}

/** A node's Options collection (parameter `options`), as n8n's nodes name it, of `fields`. */
export const optionsOf = (fields: Field[]): FieldGroup => ({
	group: 'collection',
	name: 'options',
	displayName: 'Options',
	placeholder: 'Add Option',
	fields,
});

/** A repeatable fixedCollection: each entry is read like a group and becomes one object of a list. */
export interface FieldList {
	group: 'list';
	name: string;
	displayName: string;
	/** Name of the entry inside the fixedCollection (items.item). */
	entry: string;
	entryDisplayName: string;
	buttonText: string;
	description?: string;
	required?: boolean;
	/** Where the list goes on the wire; without it the operation uses the entries itself. */
	wire?: string;
	/** Label prefix for violations, for example "items". */
	label: string;
	fields: Field[];
}

export type TableEntry = Field | FieldGroup | FieldList;
export type FieldTable = TableEntry[];

/**
 * One broken rule: the field as the service names it (wire path, or its label), the field as the
 * node's panel shows it, the rule in words, the value received.
 */
export interface Violation {
	field: string;
	displayName?: string;
	rule: string;
	value: unknown;
}
