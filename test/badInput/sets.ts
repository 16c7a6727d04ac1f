import type { INodeParameters } from 'n8n-workflow';

import type { Field, FieldTable } from '../../nodes/PaymentGateway/fields/types';
import { rulesFor, type WireRule, type WireRules } from '../sandbox/rules';
import type { BadValue } from './values';
import { BAD_EXPRESSION, badValuesFor } from './values';

/** One field of an operation's table and how to put a generated value into the parameters. */
export interface FieldSlot {
	field: Field;
	/** The name the node must give the field when it refuses a value. */
	label: string;
	/** Where the value goes on the wire ("items[].title"): the key of the sandbox's rule. */
	wire: string;
	/** The baseline parameters with this field set to the generated expression. */
	withBad: (baseline: INodeParameters) => INodeParameters;
}

const labelOf = (field: Field, prefix = '') =>
	prefix + (field.label ?? field.wire ?? field.displayName);

/** The wire name of a field: its body path, else the name the operation sends it under. */
const wireOf = (field: Field) => field.wire ?? field.label ?? field.name;

const clone = (parameters: INodeParameters) => structuredClone(parameters);

/** Every field of a table as a slot: top level, inside collections, and in a list's first entry. */
/**
 * A field the panel shows only with another parameter's value (a sibling, inside a collection) is
 * read only then (n8n drops the parameters a node does not show): it is tried with that value.
 */
function shownWithOf(field: Field): INodeParameters {
	return Object.fromEntries(
		Object.entries(field.ui?.displayOptions?.show ?? {})
			.filter(([name]) => !name.startsWith('@') && !name.startsWith('/'))
			.map(([name, values]) => [name, (values as unknown[])[0]]),
	) as INodeParameters;
}

export function slotsOf(table: FieldTable): FieldSlot[] {
	const slots: FieldSlot[] = [];
	for (const entry of table) {
		if (!('group' in entry)) {
			const shownWith = shownWithOf(entry);
			slots.push({
				field: entry,
				label: labelOf(entry),
				wire: wireOf(entry),
				withBad: (b) => ({ ...clone(b), ...shownWith, [entry.name]: BAD_EXPRESSION }),
			});
			continue;
		}
		for (const field of entry.fields) {
			if (entry.group === 'collection') {
				slots.push({
					field,
					label: labelOf(field),
					wire: wireOf(field),
					withBad: (b) => {
						const out = clone(b);
						out[entry.name] = {
							...((out[entry.name] as INodeParameters) ?? {}),
							...shownWithOf(field),
							[field.name]: BAD_EXPRESSION,
						};
						return out;
					},
				});
			} else {
				slots.push({
					field,
					label: labelOf(field, `${entry.label}[0].`),
					wire: `${entry.wire ?? entry.label}[].${wireOf(field)}`,
					withBad: (b) => {
						const out = clone(b);
						const list = (out[entry.name] as { [k: string]: INodeParameters[] } | undefined)?.[
							entry.entry
						] ?? [{}];
						out[entry.name] = {
							[entry.entry]: [{ ...list[0], [field.name]: BAD_EXPRESSION }, ...list.slice(1)],
						};
						return out;
					},
				});
			}
		}
	}
	return slots;
}

/** The input items of one slot's run: one item per bad value. */
export const itemsOf = (values: BadValue[]) =>
	values.map(({ v, special, why }) => ({ v, special, why }));

export { badValuesFor };

/** The body of a logged request as an object, when it is JSON. */
function jsonBody(body?: Buffer): Record<string, unknown> {
	try {
		const parsed: unknown = JSON.parse(body?.toString('utf8') ?? '');
		return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
	} catch {
		return {};
	}
}

/**
 * The sandbox's rules of the endpoints a run called: request fields (with the variants the sent
 * body selects, such as a refund's minimum) and sheet columns.
 */
export function rulesOfRequests(requests: { method: string; path: string; body?: Buffer }[]): {
	fields: WireRules;
	columns: WireRules;
} {
	const fields: Record<string, WireRule> = {};
	const columns: Record<string, WireRule> = {};
	for (const request of requests) {
		const endpoint = rulesFor(request.method, request.path);
		if (!endpoint) continue;
		Object.assign(fields, endpoint.fields);
		Object.assign(columns, endpoint.columns ?? {});
		for (const segment of endpoint.path.split('/').filter((s) => s.startsWith(':'))) {
			const name = segment.slice(1);
			if (fields[name]) fields[name] = { ...fields[name], inPath: true };
		}
		const body = jsonBody(request.body);
		for (const variant of endpoint.variants ?? []) {
			const applies = Object.entries(variant.when).every(([key, want]) => body[key] === want);
			if (applies) Object.assign(fields, variant.fields);
		}
	}
	return { fields, columns };
}
