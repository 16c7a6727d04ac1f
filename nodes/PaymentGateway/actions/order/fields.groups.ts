import type { Field, FieldGroup } from '../../fields/types';

/** Customer, order, billing, shipping and URL collections of POST /orders/v1/create. */

export const blank = { emptyAsBlank: true };

export const WEBHOOK_HINT =
	'The final status arrives by webhook. Paste the production URL of a Payment Gateway Trigger node here (or set it once as the default webhook in the merchant dashboard).';

export const text = (
	name: string,
	displayName: string,
	description: string,
	more: Partial<Field> = {},
): Field => ({
	name,
	displayName,
	description,
	type: 'text',
	...more,
});

export const customerIdField = (why?: string): Field =>
	text(
		'customerId',
		'Customer ID',
		`Your identifier of the customer (m_customer_id).${why ? ` ${why}` : ''}`,
		{
			wire: 'customer_details.m_customer_id',
			required: why !== undefined,
		},
	);

export const webhookUrlField = (description: string): Field => ({
	name: 'webhookUrl',
	displayName: 'Webhook URL',
	description,
	type: 'webhookUrl',
	wire: 'urls.webhook_url',
	ui: { placeholder: 'https://n8n.example.com/webhook/payments' },
});

export const customerDetails = (withCustomerId: boolean): FieldGroup => ({
	group: 'collection',
	name: 'customerDetails',
	displayName: 'Customer Details',
	fields: [
		...(withCustomerId ? [customerIdField()] : []),
		{
			name: 'mobile',
			displayName: 'Mobile',
			description: 'Digits only',
			type: 'digits',
			wire: 'customer_details.mobile',
		},
		{
			name: 'code',
			displayName: 'Dialing Code',
			description: 'Country dialing code of the mobile number, for example 971',
			type: 'dialingCode',
			wire: 'customer_details.code',
		},
	],
});

const address = (root: string): Field[] => [
	text('addressLine1', 'Address Line 1', 'First address line', {
		wire: `${root}.address_line1`,
		...blank,
	}),
	text('addressLine2', 'Address Line 2', 'Second address line', {
		wire: `${root}.address_line2`,
		...blank,
	}),
	text('city', 'City', 'City', { wire: `${root}.city`, ...blank }),
	text('province', 'Province', 'Province or state', { wire: `${root}.province`, ...blank }),
	{
		name: 'country',
		displayName: 'Country',
		description: 'ISO 3166-1 alpha-2 code, for example AE',
		type: 'country',
		wire: `${root}.country`,
		...blank,
	},
	text('pin', 'Postal Code', 'Postal code (pin)', { wire: `${root}.pin`, ...blank }),
];

const money = (
	name: string,
	displayName: string,
	description: string,
	wire: string,
	more?: Partial<Field>,
): Field => ({
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

export const orderDetails: FieldGroup = {
	group: 'collection',
	name: 'orderDetails',
	displayName: 'Order Details',
	fields: [
		text('description', 'Description', 'Order description', {
			wire: 'order_details.description',
			multiline: true,
			...blank,
		}),
		{
			name: 'quantity',
			displayName: 'Quantity',
			description: 'Defaults to 1 when not sent',
			type: 'number',
			wire: 'order_details.quantity',
			integer: true,
			min: 1,
			...blank,
			ui: { default: 1 },
		},
		money(
			'convenienceFee',
			'Convenience Fee',
			'Fee added to the order',
			'order_details.convenience_fee',
			{
				minorUnitsOf: 'currency',
			},
		),
		{
			name: 'returnUrl',
			displayName: 'Return URL',
			description: 'Stored with the order',
			type: 'url',
			wire: 'order_details.return_url',
		},
	],
};

export const billingAddress: FieldGroup = {
	group: 'collection',
	name: 'billingAddress',
	displayName: 'Billing Address',
	fields: address('billing_details'),
};

export const shippingDetails: FieldGroup = {
	group: 'collection',
	name: 'shippingDetails',
	displayName: 'Shipping Details',
	fields: [
		text('name', 'Name', 'Name of the recipient', {
			wire: 'shipping_details.shipping_name',
			...blank,
		}),
		{
			name: 'email',
			displayName: 'Email',
			description: 'Email of the recipient',
			type: 'email',
			wire: 'shipping_details.shipping_email',
			...blank,
			ui: { placeholder: 'name@email.com' },
		},
		{
			name: 'code',
			displayName: 'Dialing Code',
			description: 'Dialing code of the shipping mobile',
			type: 'dialingCode',
			wire: 'shipping_details.shipping_code',
		},
		{
			name: 'mobile',
			displayName: 'Mobile',
			description: 'Digits only',
			type: 'digits',
			wire: 'shipping_details.shipping_mobile',
		},
		...address('shipping_details'),
		{
			name: 'locationPin',
			displayName: 'Location Pin',
			description: 'Map location URL',
			type: 'url',
			wire: 'shipping_details.location_pin',
			...blank,
		},
		{
			name: 'currency',
			displayName: 'Shipping Currency',
			description: 'ISO 4217 code',
			type: 'currency',
			currencies: 'iso',
			wire: 'shipping_details.shipping_currency',
			...blank,
		},
		money('amount', 'Shipping Amount', 'Shipping fee', 'shipping_details.shipping_amount'),
	],
};

export const urls = (withWebhook: boolean): FieldGroup => ({
	group: 'collection',
	name: 'urls',
	displayName: 'URLs',
	placeholder: 'Add URL',
	fields: [
		{
			name: 'success',
			displayName: 'Success URL',
			description: 'Where the customer goes after paying; empty uses the account default',
			type: 'url',
			wire: 'urls.success',
			...blank,
		},
		{
			name: 'cancel',
			displayName: 'Cancel URL',
			description: 'Where the customer goes after canceling',
			type: 'url',
			wire: 'urls.cancel',
			...blank,
		},
		{
			name: 'failure',
			displayName: 'Failure URL',
			description: 'Where the customer goes after a failed payment',
			type: 'url',
			wire: 'urls.failure',
			...blank,
		},
		...(withWebhook ? [webhookUrlField(WEBHOOK_HINT)] : []),
	],
});
