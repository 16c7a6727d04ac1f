import type { Field, FieldGroup, FieldList } from '../../fields/types';
import { optionsOf } from '../../fields/types';
import { text } from './fields.groups';

/** Line items, parameters, custom data and the JSON line items of POST /orders/v1/create. */

const ITEM_GENDERS = ['Male', 'Female', 'Kids', 'Other'];
export const KEYED_VALUE_KEYS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'] as const;

/** Line item fields; their wire names are the keys of one `items[]` object. */
export const ITEM_FIELDS: Field[] = [
	text('title', 'Title', 'Product name', { wire: 'title' }),
	text('description', 'Description', 'Product description', {
		wire: 'description',
		multiline: true,
	}),
	{
		name: 'quantity',
		displayName: 'Quantity',
		description: 'At least 1',
		type: 'number',
		wire: 'quantity',
		integer: true,
		min: 1,
		ui: { default: 1 },
	},
	text('unitPrice', 'Unit Price', 'Decimal text, for example 49.90', {
		wire: 'unit_price',
		pattern: { regex: /^\d+(\.\d+)?$/, rule: 'must be decimal text such as 12.50' },
	}),
	text('discountAmount', 'Discount Amount', 'Decimal text', {
		wire: 'discount_amount',
		pattern: { regex: /^\d+(\.\d+)?$/, rule: 'must be decimal text such as 12.50' },
	}),
	text('referenceId', 'Reference ID', 'Your product ID (reference_id)', { wire: 'reference_id' }),
	{
		name: 'imageUrl',
		displayName: 'Image URL',
		description: 'Product image address',
		type: 'url',
		wire: 'image_url',
	},
	{
		name: 'productUrl',
		displayName: 'Product URL',
		description: 'Product page address',
		type: 'url',
		wire: 'product_url',
	},
	{
		name: 'gender',
		displayName: 'Gender',
		type: 'options',
		wire: 'gender',
		options: [{ name: 'Not Set', value: '' }, ...ITEM_GENDERS.map((g) => ({ name: g, value: g }))],
	},
	text('category', 'Category', 'Product category', { wire: 'category' }),
	text('color', 'Color', 'Product color', { wire: 'color' }),
	text('productMaterial', 'Product Material', 'Product material', { wire: 'product_material' }),
	text('sizeType', 'Size Type', 'Size system, for example EU', { wire: 'size_type' }),
	text('size', 'Size', 'Product size', { wire: 'size' }),
	text('brand', 'Brand', 'Product brand', { wire: 'brand' }),
	{
		name: 'isRefundable',
		displayName: 'Is Refundable',
		type: 'boolean',
		wire: 'is_refundable',
		options: [
			{ name: 'Not Set', value: '' },
			{ name: 'Yes', value: 'yes' },
			{ name: 'No', value: 'no' },
		],
	},
];

export const itemsList: FieldList = {
	group: 'list',
	name: 'items',
	displayName: 'Items',
	entry: 'item',
	entryDisplayName: 'Item',
	buttonText: 'Add Item',
	label: 'items',
	fields: ITEM_FIELDS,
};

/** alpha … epsilon: five single-key objects on the wire, built by the order builder. */
const keyedValues = (
	name: string,
	displayName: string,
	placeholder: string,
	what: string,
	description: string,
): FieldGroup => ({
	group: 'collection',
	name,
	displayName,
	placeholder,
	description,
	fields: KEYED_VALUE_KEYS.map((key) =>
		text(key, key[0].toUpperCase() + key.slice(1), `${what} (${key})`, {
			label: `${name === 'parameters' ? 'parameters' : 'custom_data'}.${key}`,
		}),
	),
});

export const parametersGroup = keyedValues(
	'parameters',
	'Parameters',
	'Add Parameter',
	'Metadata echoed in webhooks',
	'Your metadata, echoed back in webhooks',
);
export const customDataGroup = keyedValues(
	'customData',
	'Custom Data',
	'Add Field',
	'Feature flag or routing value',
	'Feature flags and routing, for example a MID group in Alpha and a MID label in Beta',
);

export const lineItemsJsonGroup: FieldGroup = optionsOf([
	{
		name: 'lineItemsJson',
		displayName: 'Line Items (JSON)',
		label: 'Line Items (JSON)',
		type: 'json',
		description:
			"More items as a JSON array using the service's field names (title, reference_id, unit_price, quantity, …), for example from an expression; added after Items",
		ui: { default: '[]' },
	},
]);
