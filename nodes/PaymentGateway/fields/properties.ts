import type { DisplayCondition, INodeProperties, NodePropertyTypes } from 'n8n-workflow';

import type { Field, FieldTable, TableEntry } from './types';

const UI_TYPES: Partial<Record<Field['type'], NodePropertyTypes>> = {
	number: 'number',
	boolean: 'boolean',
	options: 'options',
	json: 'json',
};

const DEFAULTS: Partial<Record<NodePropertyTypes, INodeProperties['default']>> = {
	number: 0,
	boolean: false,
	json: '',
};

/**
 * The editor property of one field: type, default and options from its declaration. Limits are
 * not given to the editor: n8n's number input clamps and rounds to them on blur, and a payment
 * node must never change a value the user typed; the node refuses it with a clear error instead.
 */
export function fieldProperty(field: Field): INodeProperties {
	const type: NodePropertyTypes = field.options ? 'options' : (UI_TYPES[field.type] ?? 'string');
	const property: INodeProperties = {
		displayName: field.displayName,
		name: field.name,
		type,
		default: type === 'options' ? (field.options?.[0]?.value ?? '') : (DEFAULTS[type] ?? ''),
	};
	if (field.description) property.description = field.description;
	if (field.required) property.required = true;
	if (field.options) property.options = field.options.map((o) => ({ ...o }));
	return { ...property, ...field.ui };
}

/** A field's property, once per range of node versions that show it differently. */
function versionedFieldProperties(field: Field): INodeProperties[] {
	const property = fieldProperty(field);
	const inVersion = (version: Array<number | DisplayCondition>) => ({
		show: { ...property.displayOptions?.show, '@version': version },
	});
	if (!field.uiVersion1 && !field.uiVersion3) return [property];
	const ranges: Array<[Array<number | DisplayCondition>, Partial<INodeProperties>]> = [];
	if (field.uiVersion1) ranges.push([[1], field.uiVersion1]);
	const middle = field.uiVersion1 ? [2] : [1, 2];
	if (field.uiVersion3) ranges.push([middle, {}], [[{ _cnd: { gte: 3 } }], field.uiVersion3]);
	else ranges.push([[{ _cnd: { gte: 2 } }], {}]);
	return ranges.map(([version, changes]) => ({
		...property,
		...changes,
		displayOptions: inVersion(version),
	}));
}

function entryProperty(entry: TableEntry): INodeProperties[] {
	if (!('group' in entry)) return versionedFieldProperties(entry);
	return [groupProperty(entry)];
}

function groupProperty(entry: Exclude<TableEntry, Field>): INodeProperties {
	if (entry.group === 'collection') {
		return {
			displayName: entry.displayName,
			name: entry.name,
			type: 'collection',
			placeholder: entry.placeholder ?? 'Add Field',
			default: {},
			...(entry.description ? { description: entry.description } : {}),
			options: entry.fields.map(fieldProperty),
		};
	}
	return {
		displayName: entry.displayName,
		name: entry.name,
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, multipleValueButtonText: entry.buttonText },
		default: {},
		placeholder: entry.buttonText,
		...(entry.required ? { required: true } : {}),
		...(entry.description ? { description: entry.description } : {}),
		options: [
			{
				displayName: entry.entryDisplayName,
				name: entry.entry,
				values: entry.fields.map(fieldProperty),
			},
		],
	};
}

/** The node's properties for a field table, in table order. */
export const tableProperties = (table: FieldTable): INodeProperties[] =>
	table.flatMap(entryProperty);
