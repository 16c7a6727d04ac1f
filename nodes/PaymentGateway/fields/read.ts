import type { IDataObject } from 'n8n-workflow';

import type { NodeContext } from '../helpers/context';
import { resolveParameter } from '../helpers/context';

import { minorUnits } from './codes';
import { coerce, decimalPlaces } from './coerce';
import type { Field, FieldList, FieldTable, Violation } from './types';

/** Values by parameter name: fields as typed values, collections as objects, lists as arrays. */
export type FieldValues = Record<string, unknown>;

export interface ReadResult {
	values: FieldValues;
	violations: Violation[];
}

const labelOf = (field: Field, prefix = '') =>
	prefix + (field.label ?? field.wire ?? field.displayName);

const isObject = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** Where a field sits: the prefixes of its service name and of its name on the panel. */
interface Place {
	prefix: string;
	panel: string;
}
const TOP: Place = { prefix: '', panel: '' };

/**
 * Reads one field's raw value into `into`, or records the rule it breaks. `given`: the parameter is
 * set (a top-level parameter always is: a missing one reads as null).
 */
function readField(
	field: Field,
	raw: unknown,
	into: FieldValues,
	violations: Violation[],
	at = TOP,
	given = true,
): void {
	const result = coerce(field, raw, given);
	const names = { field: labelOf(field, at.prefix), displayName: at.panel + field.displayName };
	if ('rule' in result) {
		violations.push({ ...names, rule: result.rule, value: raw });
	} else if ('value' in result) {
		into[field.name] = result.value;
	} else if (field.required) {
		violations.push({ ...names, rule: 'is required', value: raw ?? '' });
	}
}

function readFields(
	fields: Field[],
	source: IDataObject,
	violations: Violation[],
	at = TOP,
): FieldValues {
	const out: FieldValues = {};
	for (const field of fields) {
		const given = Object.prototype.hasOwnProperty.call(source, field.name);
		readField(field, source[field.name], out, violations, at, given);
	}
	return out;
}

function readList(list: FieldList, raw: unknown, violations: Violation[]): FieldValues[] {
	const entries = isObject(raw) ? raw[list.entry] : undefined;
	if (
		entries === undefined ||
		entries === null ||
		entries === '' ||
		(Array.isArray(entries) && entries.length === 0)
	) {
		if (list.required)
			violations.push({ field: list.label, rule: 'must have at least one entry', value: [] });
		return [];
	}
	if (!Array.isArray(entries)) {
		violations.push({ field: list.label, rule: 'must be a list of entries', value: entries });
		return [];
	}
	return entries.map((entry: unknown, i) => {
		if (!isObject(entry)) {
			violations.push({ field: `${list.label}[${i}]`, rule: 'must be an object', value: entry });
			return {};
		}
		if (onlyDefaults(list, entry))
			violations.push({
				field: `${list.label}[${i}]`,
				displayName: `${list.displayName} ${i + 1}`,
				rule: 'must set at least one field besides the defaults (a list given as one expression arrives as such entries: give each field its own expression)',
				value: entry,
			});
		return readFields(list.fields, entry, violations, {
			prefix: `${list.label}[${i}].`,
			panel: `${list.displayName} ${i + 1} > `,
		});
	});
}

/**
 * An entry that sets nothing but the panel's defaults: an entry added and left empty, or what n8n
 * makes of a list given as one expression (one such entry per character of the expression). A list
 * with a required field names the missing field instead.
 */
function onlyDefaults(list: FieldList, entry: IDataObject): boolean {
	if (list.fields.some((field) => field.required)) return false;
	return list.fields.every((field) => {
		const value = entry[field.name];
		return value === undefined || value === '' || value === field.ui?.default;
	});
}

/**
 * Reads every parameter of a table for one item, each parameter once (a collection is one read),
 * typed and checked; values from expressions get the same rules as values typed in the editor.
 * Parameters without expressions are read once per run, plain $json references directly.
 */
export function readTable(ctx: NodeContext, itemIndex: number, table: FieldTable): ReadResult {
	const raw = table.map((entry) =>
		resolveParameter(ctx, entry.name, itemIndex, 'group' in entry ? {} : null),
	);
	return readValues(table, raw);
}

/** Types and checks a table's raw parameter values, given in the table's order. */
function readValues(table: FieldTable, raw: unknown[]): ReadResult {
	const values: FieldValues = {};
	const violations: Violation[] = [];
	table.forEach((entry, i) => {
		const value = raw[i];
		if (!('group' in entry)) {
			readField(entry, value, values, violations);
		} else if (entry.group === 'collection') {
			if (isObject(value))
				values[entry.name] = readFields(entry.fields, value, violations, {
					prefix: '',
					panel: `${entry.displayName} > `,
				});
			else violations.push({ field: entry.displayName, rule: 'must be a set of fields', value });
		} else {
			values[entry.name] = readList(entry, value, violations);
		}
	});
	violations.push(...minorUnitViolations(table, values));
	return { values, violations };
}

/** Amounts with more decimals than their currency has minor units (Field.minorUnitsOf). */
function minorUnitViolations(table: FieldTable, values: FieldValues): Violation[] {
	const violations: Violation[] = [];
	for (const entry of table) {
		if ('group' in entry && entry.group !== 'collection') continue;
		const [fields, source, panel] =
			'group' in entry
				? [entry.fields, (values[entry.name] ?? {}) as FieldValues, `${entry.displayName} > `]
				: [[entry], values, ''];
		for (const field of fields) {
			const value = source[field.name];
			const currency = field.minorUnitsOf ? values[field.minorUnitsOf] : undefined;
			if (typeof value !== 'number' || typeof currency !== 'string') continue;
			const places = minorUnits(currency);
			if (decimalPlaces(value) <= places) continue;
			const rule = `must have at most ${places} decimal places in ${currency}`;
			violations.push({
				field: labelOf(field),
				displayName: panel + field.displayName,
				rule,
				value,
			});
		}
	}
	return violations;
}

/**
 * How a violation names the parameter at `path` ("name", or "collection.name"): its service name
 * and its panel name, as readTable names them.
 */
export function fieldNames(
	table: FieldTable,
	path: string,
): Pick<Violation, 'field' | 'displayName'> {
	const [first, second] = path.split('.');
	for (const entry of table) {
		if (entry.name !== first) continue;
		if (!('group' in entry)) return { field: labelOf(entry), displayName: entry.displayName };
		const field = entry.fields.find((f) => f.name === second);
		if (field)
			return { field: labelOf(field), displayName: `${entry.displayName} > ${field.displayName}` };
	}
	throw new Error(`No parameter ${path} in the table`);
}

/** Sets a dotted path (a.b.c) in an object, creating the objects on the way. */
export function setPath(target: IDataObject, path: string, value: unknown): void {
	const keys = path.split('.');
	let at = target;
	for (const key of keys.slice(0, -1)) {
		if (!isObject(at[key])) at[key] = {};
		at = at[key] as IDataObject;
	}
	at[keys[keys.length - 1]] = value as IDataObject[keyof IDataObject];
}

function placeFields(fields: Field[], values: FieldValues, body: IDataObject): void {
	for (const field of fields) {
		if (!field.wire) continue;
		const value = values[field.name];
		if (value === undefined) {
			if (field.emptyAsBlank) setPath(body, field.wire, '');
			continue;
		}
		setPath(body, field.wire, field.toWire ? field.toWire(value) : value);
	}
}

/** The request body of a table's values: each field at its wire path, empty fields as declared. */
export function toWire(
	table: FieldTable,
	values: FieldValues,
	body: IDataObject = {},
): IDataObject {
	for (const entry of table) {
		if (!('group' in entry)) placeFields([entry], values, body);
		else if (entry.group === 'collection')
			placeFields(entry.fields, (values[entry.name] ?? {}) as FieldValues, body);
		else if (entry.wire) {
			const entries = (values[entry.name] ?? []) as FieldValues[];
			setPath(
				body,
				entry.wire,
				entries.map((one) => toWire(entry.fields, one)),
			);
		}
	}
	return body;
}
