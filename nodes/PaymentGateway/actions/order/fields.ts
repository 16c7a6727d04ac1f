import type { Field, FieldGroup, FieldList, FieldTable } from '../../fields/types';
import { SUPPORTED_CURRENCIES } from '../../fields/codes';

/** Field fragments of POST /orders/v1/create, declared once and shared by every order flow. */

export const ITEM_GENDERS = ['Male', 'Female', 'Kids', 'Other'];
export const KEYED_VALUE_KEYS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'] as const;

const WEBHOOK_HINT =
	'The final status arrives by webhook. Paste the production URL of a Payment Gateway Trigger node here (or set it once as the default webhook in the merchant dashboard).';

const text = (name: string, displayName: string, description: string, more: Partial<Field> = {}): Field => ({
	name,
	displayName,
	description,
	type: 'text',
	...more,
});

export const amountField: Field = {
	name: 'amount',
	displayName: 'Amount',
	description:
		'Order amount in the currency below, as a plain number: at least 1, with at most 2 decimal places (3 for KWD, BHD and OMR)',
	type: 'number',
	wire: 'order_details.amount',
	required: true,
	min: 1,
	minorUnitsOf: 'currency',
	// Empty until typed: version 1's default of 0 broke the rule above.
	ui: { default: null, placeholder: 'e.g. 100.00' },
	uiVersion1: { default: 0 },
};

export const currencyField: Field = {
	name: 'currency',
	displayName: 'Currency',
	description: 'ISO 4217 code of the order currency',
	type: 'currency',
	currencies: 'supported',
	wire: 'order_details.currency',
	required: true,
	options: SUPPORTED_CURRENCIES.map((code) => ({ name: code, value: code })),
	ui: { default: 'AED' },
};

export const merchantOrderIdField = text(
	'merchantOrderId',
	'Merchant Order ID',
	'Your unique reference for this order (m_order_id). Recommended: the service refuses a repeated ID, so with one the node can safely retry when the service is busy.',
	{ wire: 'order_details.m_order_id' },
);

export const customerIdField = (why?: string): Field =>
	text('customerId', 'Customer ID', `Your identifier of the customer (m_customer_id).${why ? ` ${why}` : ''}`, {
		wire: 'customer_details.m_customer_id',
		required: why !== undefined,
	});

export const webhookUrlField = (description: string): Field => ({
	name: 'webhookUrl',
	displayName: 'Webhook URL',
	description,
	type: 'webhookUrl',
	wire: 'urls.webhook_url',
	ui: { placeholder: 'https://n8n.example.com/webhook/payments' },
});

export const transactionActionField: Field = {
	name: 'transactionAction',
	displayName: 'Transaction Action',
	type: 'options',
	wire: 'action',
	required: true,
	options: [
		{ name: 'Sale', value: 'SALE', description: 'Authorize and capture in one step' },
		{ name: 'Authorize', value: 'AUTH', description: 'Hold the funds; capture later with Payment > Capture' },
	],
};

const blank = { emptyAsBlank: true };

/** Line item fields; their wire names are the keys of one `items[]` object. */
export const ITEM_FIELDS: Field[] = [
	text('title', 'Title', 'Product name', { wire: 'title' }),
	text('description', 'Description', 'Product description', { wire: 'description', multiline: true }),
	{ name: 'quantity', displayName: 'Quantity', description: 'At least 1', type: 'number', wire: 'quantity', integer: true, min: 1, ui: { default: 1 } },
	text('unitPrice', 'Unit Price', 'Decimal text, for example 49.90', { wire: 'unit_price', pattern: { regex: /^\d+(\.\d+)?$/, rule: 'must be decimal text such as 12.50' } }),
	text('discountAmount', 'Discount Amount', 'Decimal text', { wire: 'discount_amount', pattern: { regex: /^\d+(\.\d+)?$/, rule: 'must be decimal text such as 12.50' } }),
	text('referenceId', 'Reference ID', 'Your product ID (reference_id)', { wire: 'reference_id' }),
	{ name: 'imageUrl', displayName: 'Image URL', description: 'Product image address', type: 'url', wire: 'image_url' },
	{ name: 'productUrl', displayName: 'Product URL', description: 'Product page address', type: 'url', wire: 'product_url' },
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

const customerDetails = (withCustomerId: boolean): FieldGroup => ({
	group: 'collection',
	name: 'customerDetails',
	displayName: 'Customer Details',
	fields: [
		...(withCustomerId ? [customerIdField()] : []),
		{ name: 'mobile', displayName: 'Mobile', description: 'Digits only', type: 'digits', wire: 'customer_details.mobile' },
		{ name: 'code', displayName: 'Dialing Code', description: 'Country dialing code of the mobile number, for example 971', type: 'dialingCode', wire: 'customer_details.code' },
	],
});

const address = (root: string): Field[] => [
	text('addressLine1', 'Address Line 1', 'First address line', { wire: `${root}.address_line1`, ...blank }),
	text('addressLine2', 'Address Line 2', 'Second address line', { wire: `${root}.address_line2`, ...blank }),
	text('city', 'City', 'City', { wire: `${root}.city`, ...blank }),
	text('province', 'Province', 'Province or state', { wire: `${root}.province`, ...blank }),
	{ name: 'country', displayName: 'Country', description: 'ISO 3166-1 alpha-2 code, for example AE', type: 'country', wire: `${root}.country`, ...blank },
	text('pin', 'Postal Code', 'Postal code (pin)', { wire: `${root}.pin`, ...blank }),
];

const money = (name: string, displayName: string, description: string, wire: string, more?: Partial<Field>): Field => ({
	name,
	displayName,
	description,
	type: 'number',
	wire,
	min: 0,
	...blank,
	ui: { placeholder: 'e.g. 10.00' },
	...more,
});

const orderDetails: FieldGroup = {
	group: 'collection',
	name: 'orderDetails',
	displayName: 'Order Details',
	fields: [
		text('description', 'Description', 'Order description', { wire: 'order_details.description', multiline: true, ...blank }),
		{ name: 'quantity', displayName: 'Quantity', description: 'Defaults to 1 when not sent', type: 'number', wire: 'order_details.quantity', integer: true, min: 1, ...blank, ui: { default: 1 } },
		money('convenienceFee', 'Convenience Fee', 'Fee added to the order', 'order_details.convenience_fee', {
			minorUnitsOf: 'currency',
		}),
		{ name: 'returnUrl', displayName: 'Return URL', description: 'Stored with the order', type: 'url', wire: 'order_details.return_url' },
	],
};

const billingAddress: FieldGroup = {
	group: 'collection',
	name: 'billingAddress',
	displayName: 'Billing Address',
	fields: address('billing_details'),
};

const shippingDetails: FieldGroup = {
	group: 'collection',
	name: 'shippingDetails',
	displayName: 'Shipping Details',
	fields: [
		text('name', 'Name', 'Name of the recipient', { wire: 'shipping_details.shipping_name', ...blank }),
		{ name: 'email', displayName: 'Email', description: 'Email of the recipient', type: 'email', wire: 'shipping_details.shipping_email', ...blank, ui: { placeholder: 'name@email.com' } },
		{ name: 'code', displayName: 'Dialing Code', description: 'Dialing code of the shipping mobile', type: 'dialingCode', wire: 'shipping_details.shipping_code' },
		{ name: 'mobile', displayName: 'Mobile', description: 'Digits only', type: 'digits', wire: 'shipping_details.shipping_mobile' },
		...address('shipping_details'),
		{ name: 'locationPin', displayName: 'Location Pin', description: 'Map location URL', type: 'url', wire: 'shipping_details.location_pin', ...blank },
		{ name: 'currency', displayName: 'Shipping Currency', description: 'ISO 4217 code', type: 'currency', currencies: 'iso', wire: 'shipping_details.shipping_currency', ...blank },
		money('amount', 'Shipping Amount', 'Shipping fee', 'shipping_details.shipping_amount'),
	],
};

const urls = (withWebhook: boolean): FieldGroup => ({
	group: 'collection',
	name: 'urls',
	displayName: 'URLs',
	placeholder: 'Add URL',
	fields: [
		{ name: 'success', displayName: 'Success URL', description: 'Where the customer goes after paying; empty uses the account default', type: 'url', wire: 'urls.success', ...blank },
		{ name: 'cancel', displayName: 'Cancel URL', description: 'Where the customer goes after canceling', type: 'url', wire: 'urls.cancel', ...blank },
		{ name: 'failure', displayName: 'Failure URL', description: 'Where the customer goes after a failed payment', type: 'url', wire: 'urls.failure', ...blank },
		...(withWebhook ? [webhookUrlField(WEBHOOK_HINT)] : []),
	],
});

/** alpha … epsilon: five single-key objects on the wire, built by the order builder. */
const keyedValues = (name: string, displayName: string, placeholder: string, what: string, description: string): FieldGroup => ({
	group: 'collection',
	name,
	displayName,
	placeholder,
	description,
	fields: KEYED_VALUE_KEYS.map((key) => text(key, key[0].toUpperCase() + key.slice(1), `${what} (${key})`, { label: `${name === 'parameters' ? 'parameters' : 'custom_data'}.${key}` })),
});

export const parametersGroup = keyedValues('parameters', 'Parameters', 'Add Parameter', 'Metadata echoed in webhooks', 'Your metadata, echoed back in webhooks');
export const customDataGroup = keyedValues('customData', 'Custom Data', 'Add Field', 'Feature flag or routing value', 'Feature flags and routing, for example a MID group in Alpha and a MID label in Beta');

export const lineItemsJsonGroup: FieldGroup = {
	group: 'collection',
	name: 'options',
	displayName: 'Options',
	placeholder: 'Add Option',
	fields: [
		{
			name: 'lineItemsJson',
			displayName: 'Line Items (JSON)',
			label: 'Line Items (JSON)',
			type: 'json',
			description:
				"More items as a JSON array using the service's field names (title, reference_id, unit_price, quantity, …), for example from an expression; added after Items",
			ui: { default: '[]' },
		},
	],
};

export interface OrderFlow {
	/** Customer ID is a required top-level parameter (save card, pay by saved card). */
	customerIdOnTop?: boolean;
	/** Webhook URL is a top-level parameter (save card: the token only arrives by webhook). */
	webhookUrlOnTop?: boolean;
	/** Split payments build custom_data from their recipients instead. */
	customData?: boolean;
}

/** The fields every order flow shares after its own top fields; rare ones live in collections. */
export function orderFields(flow: OrderFlow = {}): FieldTable {
	return [
		text('customerName', 'Customer Name', 'Full name; may be left empty', { wire: 'customer_details.name', ...blank }),
		{ name: 'customerEmail', displayName: 'Customer Email', description: 'May be left empty', type: 'email', wire: 'customer_details.email', ...blank, ui: { placeholder: 'name@email.com' } },
		customerDetails(!flow.customerIdOnTop),
		orderDetails,
		billingAddress,
		shippingDetails,
		itemsList,
		urls(!flow.webhookUrlOnTop),
		parametersGroup,
		...(flow.customData === false ? [] : [customDataGroup]),
		lineItemsJsonGroup,
	];
}
