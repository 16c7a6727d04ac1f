import type { Field, FieldTable } from '../../fields/types';
import { SUPPORTED_CURRENCIES } from '../../fields/codes';
import {
	billingAddress,
	blank,
	customerDetails,
	orderDetails,
	shippingDetails,
	text,
	urls,
} from './fields.groups';
import { customDataGroup, itemsList, lineItemsJsonGroup, parametersGroup } from './fields.items';

export { ITEM_FIELDS, KEYED_VALUE_KEYS } from './fields.items';
export { customerIdField, webhookUrlField } from './fields.groups';

/** Field fragments of POST /orders/v1/create, declared once and shared by every order flow. */

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
	// n8n's editor (2.41) keeps a null default as {} and shows it as "[object Object]" in a text
	// field of the same name (a bulk column) after a switch of operation: new nodes start at "".
	uiVersion3: { default: '' },
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
	'Your unique reference for this order (m_order_id). Left empty, the node makes one per order (n8n-<execution>-<item>-<random>) and shows it in the output. The service refuses a repeated ID, so the node can safely retry when an answer is lost.',
	{ wire: 'order_details.m_order_id' },
);

export const transactionActionField: Field = {
	name: 'transactionAction',
	displayName: 'Transaction Action',
	type: 'options',
	wire: 'action',
	required: true,
	options: [
		{ name: 'Sale', value: 'SALE', description: 'Authorize and capture in one step' },
		{
			name: 'Authorize',
			value: 'AUTH',
			description: 'Hold the funds; capture later with Payment > Capture',
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
		text('customerName', 'Customer Name', 'Full name; may be left empty', {
			wire: 'customer_details.name',
			...blank,
		}),
		{
			name: 'customerEmail',
			displayName: 'Customer Email',
			description: 'May be left empty',
			type: 'email',
			wire: 'customer_details.email',
			...blank,
			ui: { placeholder: 'name@email.com' },
		},
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
