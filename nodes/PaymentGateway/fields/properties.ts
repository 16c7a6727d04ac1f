import type { INodeProperties, NodePropertyTypes } from 'n8n-workflow';

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

/** The editor property of one field: type, default, limits and options from its declaration. */
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
	if (type === 'number') {
		const typeOptions: INodeProperties['typeOptions'] = {};
		const min = field.min ?? (field.above !== undefined ? field.above : undefined);
		if (min !== undefined) typeOptions.minValue = min;
		if (field.max !== undefined) typeOptions.maxValue = field.max;
		if (field.decimals !== undefined) typeOptions.numberPrecision = field.decimals;
		if (Object.keys(typeOptions).length > 0) property.typeOptions = typeOptions;
	}
	return { ...property, ...field.ui };
}

function entryProperty(entry: TableEntry): INodeProperties {
	if (!('group' in entry)) return fieldProperty(entry);
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
		options: [{ displayName: entry.entryDisplayName, name: entry.entry, values: entry.fields.map(fieldProperty) }],
	};
}

/** The node's properties for a field table, in table order. */
export const tableProperties = (table: FieldTable): INodeProperties[] => table.map(entryProperty);
