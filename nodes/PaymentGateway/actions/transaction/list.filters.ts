import type { IDataObject } from 'n8n-workflow';

import { SUPPORTED_CURRENCIES, TRANSACTION_STATUSES } from '../../fields/codes';
import type { Field, FieldGroup, Violation } from '../../fields/types';

/**
 * The transaction list's filters (GET /orders/v1/transaction-list, see list.ts): Transaction >
 * Get Many offers them all, the poll trigger the ones that keep a transaction in or out for good.
 */
const text = (
	name: string,
	query: string,
	displayName: string,
	description: string,
	more: Partial<Field> = {},
): Field => ({
	name,
	wire: query,
	displayName,
	description,
	type: 'text',
	...more,
});

const titleCase = (state: string) =>
	state
		.toLowerCase()
		.split('_')
		.map((word) => word[0].toUpperCase() + word.slice(1))
		.join(' ');

/** The list's 17 filters, each with the query parameter it becomes (its wire name). */
export const FILTERS: Field[] = [
	text('cardBin', 'card_bin', 'Card BIN', 'First 6 to 8 digits of the card number', {
		pattern: { regex: /^\d{6,8}$/, rule: 'must be the first 6 to 8 digits of a card number' },
	}),
	{
		name: 'currencyCode',
		wire: 'currency_code',
		displayName: 'Currency',
		description: 'ISO 4217 currency code',
		type: 'currency',
		currencies: 'iso',
		options: SUPPORTED_CURRENCIES.map((code) => ({ name: code, value: code })),
	},
	{
		...text(
			'customerCountry',
			'customer_country',
			'Customer Country',
			'Billing country, ISO 3166-1 alpha-2 code (for example AE)',
		),
		type: 'country',
	},
	{
		...text('customerEmail', 'customer_email', 'Customer Email', "Customer's email"),
		type: 'email',
	},
	text(
		'customerId',
		'm_customer_id',
		'Customer ID',
		"Merchant's customer identifier (m_customer_id)",
	),
	{
		...text(
			'customerMobile',
			'customer_mobile',
			'Customer Mobile',
			"Customer's mobile number, digits only",
		),
		type: 'digits',
	},
	{
		...text('fromDate', 'from_date', 'From Date', 'First transaction date to include'),
		type: 'date',
		ui: { type: 'dateTime' },
	},
	{
		name: 'maxAmount',
		wire: 'max_amount',
		displayName: 'Max Amount',
		description: 'Largest amount to include',
		type: 'number',
		min: 0,
	},
	{
		name: 'minAmount',
		wire: 'min_amount',
		displayName: 'Min Amount',
		description: 'Smallest amount to include',
		type: 'number',
		min: 0,
	},
	text('pOrderId', 'p_order_id', 'Order ID', "The service's order ID (p_order_id)"),
	text(
		'paymentMethod',
		'payment_method',
		'Payment Method',
		'Payment method label, for example a debit card label',
	),
	text(
		'paymentMethodId',
		'payment_method_id',
		'Payment Method ID',
		'Card PAN or payment method ID',
	),
	text('paymentToken', 'm_payment_token', 'Payment Token', 'Saved-card token (m_payment_token)'),
	text('processor', 'processor', 'Processor', 'Payment service provider (PSP) code'),
	// The service lists the states "seen", not all: any state name is passed on, in capitals.
	text('status', 'status', 'Status', 'Current status of the transaction', {
		options: TRANSACTION_STATUSES.map((value) => ({ name: titleCase(value), value })),
		pattern: {
			regex: /^[A-Za-z][A-Za-z_]*$/,
			rule: `must be a state name such as ${TRANSACTION_STATUSES.slice(0, 3).join(', ')}`,
		},
		toWire: (value) => String(value).toUpperCase(),
	}),
	{
		...text('toDate', 'to_date', 'To Date', 'Last transaction date to include'),
		type: 'date',
		ui: { type: 'dateTime' },
	},
	text('transactionId', 'transaction_id', 'Transaction ID', "The service's transaction ID"),
];

/** The Filters collection of the list's parameters. */
export const filtersGroup: FieldGroup = {
	group: 'collection',
	name: 'filters',
	displayName: 'Filters',
	placeholder: 'Add Filter',
	fields: FILTERS,
};

/** Rules between two filters: a range must not be upside down. */
export function rangeViolations(query: IDataObject): Violation[] {
	const violations: Violation[] = [];
	const { min_amount: min, max_amount: max, from_date: from, to_date: to } = query;
	if (typeof min === 'number' && typeof max === 'number' && min > max) {
		violations.push({
			field: 'min_amount',
			displayName: 'Filters > Min Amount',
			rule: `must not be above max_amount (${max})`,
			value: min,
		});
	}
	if (typeof from === 'string' && typeof to === 'string' && from > to) {
		violations.push({
			field: 'from_date',
			displayName: 'Filters > From Date',
			rule: `must not be after to_date (${to})`,
			value: from,
		});
	}
	return violations;
}
