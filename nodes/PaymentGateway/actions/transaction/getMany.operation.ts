import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { SUPPORTED_CURRENCIES, TRANSACTION_STATUSES } from '../../fields/codes';
import { tableProperties } from '../../fields/properties';
import { toWire } from '../../fields/read';
import type { Field, FieldTable, Violation } from '../../fields/types';
import { assertValid } from '../../fields/violations';
import { getChannel } from '../channel';
import { limitField, readListTable, returnAllField, simplifyField } from '../list.fields';
import { addIsoDatesInPlace } from '../../helpers/dates';
import { pageOf, walkPages } from '../list.pages';
import type { OperationFacts } from '../tool';
import { describeTool } from '../tool';
import { LIST_MAX_PER_PAGE, listTransactions } from './list';
import type { OperationOption } from '../operation';

export const option = {
	name: 'Get Many',
	value: 'getMany',
	description: 'List transactions, filtered and paginated',
	action: 'Get many transactions',
} as const satisfies OperationOption;

const show = { resource: ['transaction'], operation: [option.value] };

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

export const table: FieldTable = [
	returnAllField,
	limitField(show),
	simplifyField,
	{
		group: 'collection',
		name: 'filters',
		displayName: 'Filters',
		placeholder: 'Add Filter',
		fields: FILTERS,
	},
];

export const facts = { kind: 'read' } as const satisfies OperationFacts;

export const toolDescription = describeTool(
	'Lists transactions, newest first, filtered by status, currency, dates, amounts or IDs. Use it to find a transaction_id or p_order_id and the current status of a payment.',
	facts,
);

export const description = updateDisplayOptions({ show }, tableProperties(table));

/** What Simplify keeps of a transaction. */
const SIMPLE_FIELDS = [
	'transaction_id',
	'p_order_id',
	'm_order_id',
	'status',
	'amount',
	'amount_captured',
	'currency',
	'transaction_date',
	'transaction_date_iso',
	'payment_method',
	'm_customer_id',
	'psp',
];

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

/** One output item per record, made as its page arrives: Simplify picks without copying the rest. */
function toOutput(simplify: boolean, timeZone: string, itemIndex: number) {
	return (record: IDataObject): INodeExecutionData => {
		const full = addIsoDatesInPlace(record, ['transaction_date'], timeZone);
		if (!simplify) return { json: full, pairedItem: { item: itemIndex } };
		const json: IDataObject = {};
		for (const field of SIMPLE_FIELDS) if (field in full) json[field] = full[field];
		return { json, pairedItem: { item: itemIndex } };
	};
}

/** The transaction list, filtered, page by page. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const channel = getChannel(this, itemIndex);
	const { values, violations, list } = readListTable(this, itemIndex, table);
	const query = toWire(table, values);
	violations.push(...rangeViolations(query));
	assertValid(this, itemIndex, violations);

	const fetchPage = async (page: number, perpage: number) =>
		pageOf(await listTransactions(this, itemIndex, channel, { ...query, page, perpage }));
	return await walkPages(
		fetchPage,
		list,
		LIST_MAX_PER_PAGE,
		toOutput(list.simplify, this.getTimezone(), itemIndex),
	);
}
