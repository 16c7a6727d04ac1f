import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { jsonParse } from 'n8n-workflow';

import { addIsoDates } from '../../helpers/dates';
import { apiRequest } from '../../transport';
import type { RequestSpec } from '../../transport';
import { ITEM_GENDERS, KEYED_VALUE_KEYS, validateOrderData } from '../../validation/order';
import type { Violation } from '../../validation/rules';
import { assertValid, isBlank, SUPPORTED_CURRENCIES, toText } from '../../validation/rules';
import { getChannel } from '../common.descriptions';

const toOptions = (values: string[]): INodePropertyOptions[] => values.map((value) => ({ name: value, value }));

const text = (name: string, displayName: string, description: string, extra: Partial<INodeProperties> = {}) =>
	({ displayName, name, type: 'string', default: '', description, ...extra }) as INodeProperties;

const WEBHOOK_HINT =
	'The final status arrives by webhook. Paste the production URL of a Payment Gateway Trigger node here (or set it once as the default webhook in the merchant dashboard).';

export const amountProperty: INodeProperties = {
	displayName: 'Amount',
	name: 'amount',
	type: 'number',
	typeOptions: { minValue: 1, numberPrecision: 3 },
	default: 0,
	required: true,
	description: 'Order amount in the currency below, at least 1',
};

export const currencyProperty: INodeProperties = {
	displayName: 'Currency',
	name: 'currency',
	type: 'options',
	options: toOptions(SUPPORTED_CURRENCIES),
	default: 'AED',
	required: true,
	description: 'ISO 4217 code of the order currency',
};

export const merchantOrderIdProperty = text(
	'merchantOrderId',
	'Merchant Order ID',
	'Your unique reference for this order (m_order_id). Recommended: the service refuses a repeated ID, so with one the node can safely retry when the service is busy.',
);

export const customerIdProperty = (why: string) =>
	text('customerId', 'Customer ID', `Your identifier of the customer (m_customer_id). ${why}`, { required: true });

export const webhookUrlProperty = (description: string) =>
	text('webhookUrl', 'Webhook URL', description, { placeholder: 'https://n8n.example.com/webhook/payments' });

export const transactionActionProperty: INodeProperties = {
	displayName: 'Transaction Action',
	name: 'transactionAction',
	type: 'options',
	options: [
		{ name: 'Sale', value: 'SALE', description: 'Authorize and capture in one step' },
		{ name: 'Authorize', value: 'AUTH', description: 'Hold the funds; capture later with Payment > Capture' },
	],
	default: 'SALE',
};

const keyedValueOptions = (what: string): INodeProperties[] =>
	KEYED_VALUE_KEYS.map((key) => text(key, key[0].toUpperCase() + key.slice(1), `${what} (${key})`));

const ITEM_FIELDS: INodeProperties[] = [
	text('title', 'Title', 'Product name'),
	text('description', 'Description', 'Product description'),
	{ displayName: 'Quantity', name: 'quantity', type: 'number', typeOptions: { minValue: 1 }, default: 1, description: 'At least 1' },
	text('unitPrice', 'Unit Price', 'Decimal text, for example 49.90'),
	text('discountAmount', 'Discount Amount', 'Decimal text'),
	text('referenceId', 'Reference ID', 'Your product ID (reference_id)'),
	text('imageUrl', 'Image URL', 'Product image address'),
	text('productUrl', 'Product URL', 'Product page address'),
	{
		displayName: 'Gender',
		name: 'gender',
		type: 'options',
		options: [{ name: 'Not Set', value: '' }, ...toOptions(ITEM_GENDERS)],
		default: '',
	},
	text('category', 'Category', 'Product category'),
	text('color', 'Color', 'Product color'),
	text('productMaterial', 'Product Material', 'Product material'),
	text('sizeType', 'Size Type', 'Size system, for example EU'),
	text('size', 'Size', 'Product size'),
	text('brand', 'Brand', 'Product brand'),
	{
		displayName: 'Is Refundable',
		name: 'isRefundable',
		type: 'options',
		options: [
			{ name: 'Not Set', value: '' },
			{ name: 'Yes', value: 'yes' },
			{ name: 'No', value: 'no' },
		],
		default: '',
	},
];

const ITEM_KEYS: Record<string, string> = {
	title: 'title',
	description: 'description',
	quantity: 'quantity',
	unitPrice: 'unit_price',
	discountAmount: 'discount_amount',
	referenceId: 'reference_id',
	imageUrl: 'image_url',
	productUrl: 'product_url',
	gender: 'gender',
	category: 'category',
	color: 'color',
	productMaterial: 'product_material',
	sizeType: 'size_type',
	size: 'size',
	brand: 'brand',
	isRefundable: 'is_refundable',
};

interface OrderFlowOptions {
	/** Customer ID is a required top-level parameter (save card, pay by saved card). */
	customerIdOnTop?: boolean;
	/** Webhook URL is a top-level parameter (save card: the token only arrives by webhook). */
	webhookUrlOnTop?: boolean;
	/** Split payments build custom_data from their recipients instead. */
	customData?: boolean;
}

/** The parameters every order flow shares; rarely needed fields live in collections. */
export function orderFields(flow: OrderFlowOptions = {}): INodeProperties[] {
	const customerOptions = [
		text('mobile', 'Mobile', 'Digits only'),
		text('code', 'Dialing Code', 'Country dialing code of the mobile number, for example 971'),
	];
	if (!flow.customerIdOnTop) {
		customerOptions.unshift(text('customerId', 'Customer ID', 'Your identifier of the customer (m_customer_id)'));
	}
	const urlOptions = [
		text('success', 'Success URL', 'Where the customer goes after paying; empty uses the account default'),
		text('cancel', 'Cancel URL', 'Where the customer goes after cancelling'),
		text('failure', 'Failure URL', 'Where the customer goes after a failed payment'),
	];
	if (!flow.webhookUrlOnTop) urlOptions.push(webhookUrlProperty(WEBHOOK_HINT));

	const fields: INodeProperties[] = [
		text('customerName', 'Customer Name', 'Full name; may be left empty'),
		text('customerEmail', 'Customer Email', 'May be left empty', { placeholder: 'name@email.com' }),
		{
			displayName: 'Customer Details',
			name: 'customerDetails',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: customerOptions,
		},
		{
			displayName: 'Order Details',
			name: 'orderDetails',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [
				text('description', 'Description', 'Order description'),
				{ displayName: 'Quantity', name: 'quantity', type: 'number', typeOptions: { minValue: 1 }, default: 1, description: 'Defaults to 1 when not sent' },
				{ displayName: 'Convenience Fee', name: 'convenienceFee', type: 'number', typeOptions: { minValue: 0, numberPrecision: 3 }, default: 0, description: 'Fee added to the order' },
				text('returnUrl', 'Return URL', 'Stored with the order'),
			],
		},
		{
			displayName: 'Billing Address',
			name: 'billingAddress',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [
				text('addressLine1', 'Address Line 1', 'First address line'),
				text('addressLine2', 'Address Line 2', 'Second address line'),
				text('city', 'City', 'City'),
				text('province', 'Province', 'Province or state'),
				text('country', 'Country', 'ISO 3166-1 alpha-2 code, for example AE'),
				text('pin', 'Postal Code', 'Postal code (pin)'),
			],
		},
		{
			displayName: 'Shipping Details',
			name: 'shippingDetails',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			options: [
				text('name', 'Name', 'Name of the recipient'),
				text('email', 'Email', 'Email of the recipient', { placeholder: 'name@email.com' }),
				text('code', 'Dialing Code', 'Dialing code of the shipping mobile'),
				text('mobile', 'Mobile', 'Digits only'),
				text('addressLine1', 'Address Line 1', 'First address line'),
				text('addressLine2', 'Address Line 2', 'Second address line'),
				text('city', 'City', 'City'),
				text('province', 'Province', 'Province or state'),
				text('country', 'Country', 'ISO 3166-1 alpha-2 code, for example AE'),
				text('pin', 'Postal Code', 'Postal code (pin)'),
				text('locationPin', 'Location Pin', 'Map location URL'),
				text('currency', 'Shipping Currency', 'ISO 4217 code'),
				{ displayName: 'Shipping Amount', name: 'amount', type: 'number', typeOptions: { minValue: 0, numberPrecision: 3 }, default: 0, description: 'Shipping fee' },
			],
		},
		{
			displayName: 'Items',
			name: 'items',
			type: 'fixedCollection',
			typeOptions: { multipleValues: true, multipleValueButtonText: 'Add Item' },
			default: {},
			placeholder: 'Add Item',
			options: [{ displayName: 'Item', name: 'item', values: ITEM_FIELDS }],
		},
		{
			displayName: 'URLs',
			name: 'urls',
			type: 'collection',
			placeholder: 'Add URL',
			default: {},
			options: urlOptions,
		},
		{
			displayName: 'Parameters',
			name: 'parameters',
			type: 'collection',
			placeholder: 'Add Parameter',
			default: {},
			description: 'Your metadata, echoed back in webhooks',
			options: keyedValueOptions('Metadata echoed in webhooks'),
		},
	];
	if (flow.customData !== false) {
		fields.push({
			displayName: 'Custom Data',
			name: 'customData',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			description: 'Feature flags and routing, for example a MID group in Alpha and a MID label in Beta',
			options: keyedValueOptions('Feature flag or routing value'),
		});
	}
	fields.push({
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Line Items (JSON)',
				name: 'lineItemsJson',
				type: 'json',
				default: '[]',
				description:
					'More items as a JSON array using the service\'s field names (title, reference_id, unit_price, quantity, …), for example from an expression; added after Items',
			},
		],
	});
	return fields;
}


const keyedValues = (values: IDataObject, override?: IDataObject[]): IDataObject[] =>
	override ?? KEYED_VALUE_KEYS.map((key) => ({ [key]: toText(values[key]) }));

function readLineItems(ctx: IExecuteFunctions, itemIndex: number, violations: Violation[]): IDataObject[] {
	const items = (ctx.getNodeParameter('items.item', itemIndex, []) as IDataObject[]).map((item) => {
		const out: IDataObject = {};
		for (const [param, key] of Object.entries(ITEM_KEYS)) {
			const value = item[param];
			if (value === undefined || value === '') continue;
			if (param === 'isRefundable') out[key] = value === 'yes';
			else out[key] = typeof value === 'string' ? value.trim() : value;
		}
		return out;
	});
	const raw = ctx.getNodeParameter('options.lineItemsJson', itemIndex, '[]') as unknown;
	const extra = typeof raw === 'string' ? jsonParse<unknown>(raw || '[]', { fallbackValue: undefined }) : raw;
	if (Array.isArray(extra)) items.push(...(extra as IDataObject[]));
	else violations.push({ field: 'Line Items (JSON)', rule: 'must be a JSON array of items', value: raw });
	return items;
}

export interface OrderSettings {
	class: 'ECOM' | 'CAUTH';
	action: 'SALE' | 'AUTH' | 'AUTH_REVERSAL';
	captureMethod?: 'AUTOMATIC' | 'MANUAL';
	paymentToken?: string;
	customData?: IDataObject[];
}

/** The whole `data` object of an order, every required key present (empty strings where unset). */
export function buildOrderData(
	ctx: IExecuteFunctions,
	itemIndex: number,
	settings: OrderSettings,
	violations: Violation[] = [],
): IDataObject {
	const get = (name: string) => ctx.getNodeParameter(name, itemIndex, {}) as IDataObject;
	const customer = get('customerDetails');
	const order = get('orderDetails');
	const billing = get('billingAddress');
	const shipping = get('shippingDetails');
	const urls = get('urls');
	const customerId = toText(ctx.getNodeParameter('customerId', itemIndex, '') || customer.customerId);
	const merchantOrderId = toText(ctx.getNodeParameter('merchantOrderId', itemIndex, ''));
	const webhookUrl = toText(ctx.getNodeParameter('webhookUrl', itemIndex, '') || urls.webhookUrl);

	const optional = (entries: Array<[string, unknown]>) =>
		Object.fromEntries(entries.filter(([, value]) => !isBlank(value)).map(([k, v]) => [k, typeof v === 'string' ? v.trim() : v]));

	const data: IDataObject = { class: settings.class, action: settings.action };
	if (settings.captureMethod) data.capture_method = settings.captureMethod;
	if (settings.paymentToken !== undefined) data.payment_token = settings.paymentToken;
	data.customer_details = {
		...optional([['m_customer_id', customerId]]),
		name: toText(ctx.getNodeParameter('customerName', itemIndex, '')),
		email: toText(ctx.getNodeParameter('customerEmail', itemIndex, '')),
		...optional([
			['mobile', customer.mobile],
			['code', customer.code],
		]),
	};
	data.order_details = {
		...optional([['m_order_id', merchantOrderId]]),
		amount: ctx.getNodeParameter('amount', itemIndex) as number,
		convenience_fee: order.convenienceFee ?? '',
		quantity: order.quantity ?? '',
		currency: toText(ctx.getNodeParameter('currency', itemIndex)).toUpperCase(),
		description: toText(order.description),
		...optional([['return_url', order.returnUrl]]),
	};
	data.billing_details = {
		address_line1: toText(billing.addressLine1),
		address_line2: toText(billing.addressLine2),
		city: toText(billing.city),
		province: toText(billing.province),
		country: toText(billing.country).toUpperCase(),
		pin: toText(billing.pin),
	};
	data.shipping_details = {
		shipping_name: toText(shipping.name),
		shipping_email: toText(shipping.email),
		...optional([
			['shipping_code', shipping.code],
			['shipping_mobile', shipping.mobile],
		]),
		address_line1: toText(shipping.addressLine1),
		address_line2: toText(shipping.addressLine2),
		city: toText(shipping.city),
		province: toText(shipping.province),
		country: toText(shipping.country).toUpperCase(),
		pin: toText(shipping.pin),
		location_pin: toText(shipping.locationPin),
		shipping_currency: toText(shipping.currency).toUpperCase(),
		shipping_amount: shipping.amount ?? '',
	};
	data.items = readLineItems(ctx, itemIndex, violations);
	data.urls = {
		success: toText(urls.success),
		cancel: toText(urls.cancel),
		failure: toText(urls.failure),
		...optional([['webhook_url', webhookUrl]]),
	};
	data.parameters = keyedValues(get('parameters'));
	data.custom_data = keyedValues(get('customData'), settings.customData);
	return data;
}

/** Builds, checks and sends an order; retried only when it carries an m_order_id. */
export async function createOrder(
	ctx: IExecuteFunctions,
	itemIndex: number,
	settings: OrderSettings,
	extraViolations: (data: IDataObject) => Violation[] = () => [],
	acceptFailure?: RequestSpec['acceptFailure'],
): Promise<IDataObject> {
	const violations: Violation[] = [];
	const data = buildOrderData(ctx, itemIndex, settings, violations);
	violations.push(...validateOrderData(data), ...extraViolations(data));
	assertValid(ctx, itemIndex, violations);
	const orderDetails = data.order_details as IDataObject;
	return await apiRequest.call(ctx, itemIndex, {
		channel: getChannel(ctx, itemIndex),
		method: 'POST',
		path: '/orders/v1/create',
		body: { data },
		// The service refuses a repeated m_order_id, so only then can a retry not create a second order.
		retrySafe: !isBlank(orderDetails.m_order_id),
		acceptFailure,
	});
}

/** The create response as one item, with an ISO 8601 copy of order_creation_date. */
export function orderOutput(ctx: IExecuteFunctions, itemIndex: number, response: IDataObject): INodeExecutionData[] {
	return [{ json: addIsoDates(response, ['order_creation_date'], ctx.getTimezone()), pairedItem: { item: itemIndex } }];
}
