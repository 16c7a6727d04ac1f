import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { addIsoDates } from '../../helpers/dates';
import { apiRequest, collectPages } from '../../transport';
import { assertValid, SUPPORTED_CURRENCIES, toIsoDate, TRANSACTION_STATUSES } from '../../validation/rules';
import { LIST_MAX_PER_PAGE, validateTransactionListQuery } from '../../validation/transaction';
import {
	getChannel,
	limitProperty,
	returnAllProperty,
	simplifyProperty,
} from '../common.descriptions';

const toOptions = (values: string[]): INodePropertyOptions[] =>
	values.map((value) => ({ name: value, value }));

/** The list's 17 filters: parameter name, query parameter, and how the user enters it. */
export const FILTERS: Array<{
	name: string;
	query: string;
	displayName: string;
	description: string;
	type?: 'number' | 'dateTime' | 'options';
	options?: INodePropertyOptions[];
}> = [
	{ name: 'pOrderId', query: 'p_order_id', displayName: 'Order ID', description: "The service's order ID (p_order_id)" },
	{ name: 'transactionId', query: 'transaction_id', displayName: 'Transaction ID', description: "The service's transaction ID" },
	{
		name: 'status',
		query: 'status',
		displayName: 'Status',
		description: 'Current status of the transaction',
		type: 'options',
		options: TRANSACTION_STATUSES.map((value) => ({
			name: value
				.toLowerCase()
				.split('_')
				.map((word) => word[0].toUpperCase() + word.slice(1))
				.join(' '),
			value,
		})),
	},
	{ name: 'paymentMethod', query: 'payment_method', displayName: 'Payment Method', description: 'Payment method label, for example a debit card label' },
	{ name: 'paymentMethodId', query: 'payment_method_id', displayName: 'Payment Method ID', description: 'Card PAN or payment method ID' },
	{ name: 'paymentToken', query: 'm_payment_token', displayName: 'Payment Token', description: 'Saved-card token (m_payment_token)' },
	{ name: 'cardBin', query: 'card_bin', displayName: 'Card BIN', description: 'First 6 to 8 digits of the card number' },
	{ name: 'processor', query: 'processor', displayName: 'Processor', description: 'Payment service provider (PSP) code' },
	{
		name: 'currencyCode',
		query: 'currency_code',
		displayName: 'Currency',
		description: 'ISO 4217 currency code',
		type: 'options',
		options: toOptions(SUPPORTED_CURRENCIES),
	},
	{ name: 'fromDate', query: 'from_date', displayName: 'From Date', description: 'First transaction date to include', type: 'dateTime' },
	{ name: 'toDate', query: 'to_date', displayName: 'To Date', description: 'Last transaction date to include', type: 'dateTime' },
	{ name: 'minAmount', query: 'min_amount', displayName: 'Min Amount', description: 'Smallest amount to include', type: 'number' },
	{ name: 'maxAmount', query: 'max_amount', displayName: 'Max Amount', description: 'Largest amount to include', type: 'number' },
	{ name: 'customerId', query: 'm_customer_id', displayName: 'Customer ID', description: "Merchant's customer identifier (m_customer_id)" },
	{ name: 'customerEmail', query: 'customer_email', displayName: 'Customer Email', description: "Customer's email" },
	{ name: 'customerMobile', query: 'customer_mobile', displayName: 'Customer Mobile', description: "Customer's mobile number, digits only" },
	{ name: 'customerCountry', query: 'customer_country', displayName: 'Customer Country', description: 'Billing country, ISO 3166-1 alpha-2 code (for example AE)' },
];

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

const show = { resource: ['transaction'], operation: ['getMany'] };

const properties: INodeProperties[] = [
	returnAllProperty(show),
	limitProperty(show),
	simplifyProperty(show),
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: FILTERS.map(
			({ name, displayName, description, type, options }): INodeProperties => ({
			displayName,
			name,
			description,
			type: type ?? 'string',
			default: type === 'number' ? 0 : type === 'options' ? options![0].value : '',
			...(options ? { options } : {}),
		})).sort((a, b) => a.displayName.localeCompare(b.displayName)),
	},
];

export const description = updateDisplayOptions({ show }, properties);

/** Maps the Filters collection to the service's query; dates become YYYY-MM-DD. */
export function buildListQuery(filters: IDataObject): IDataObject {
	const qs: IDataObject = {};
	for (const { name, query, type } of FILTERS) {
		const value = filters[name];
		if (value === undefined || value === null || value === '') continue;
		if (type === 'dateTime') {
			qs[query] = toIsoDate(value) ?? value;
		} else if (type === 'number') {
			qs[query] = value;
		} else if (query === 'status' || query === 'currency_code' || query === 'customer_country') {
			qs[query] = String(value).trim().toUpperCase();
		} else {
			qs[query] = typeof value === 'string' ? value.trim() : value;
		}
	}
	return qs;
}

export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const channel = getChannel(this, itemIndex);
	const returnAll = this.getNodeParameter('returnAll', itemIndex) as boolean;
	const limit = returnAll ? 0 : (this.getNodeParameter('limit', itemIndex) as number);
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const simplify = this.getNodeParameter('simplify', itemIndex, true) as boolean;

	const query = buildListQuery(filters);
	assertValid(this, itemIndex, validateTransactionListQuery(query));
	if (!returnAll) {
		assertValid(
			this,
			itemIndex,
			Number.isInteger(limit) && limit >= 1 ? [] : [{ field: 'limit', rule: 'must be an integer of at least 1', value: limit }],
		);
	}

	const records = await collectPages(
		async (page, perpage) => {
			const response = await apiRequest.call(this, itemIndex, {
				channel,
				method: 'GET',
				path: '/orders/v1/transaction-list',
				qs: { ...query, page, perpage },
				retrySafe: true,
			});
			const data = Array.isArray(response.data) ? (response.data as IDataObject[]) : [];
			const total = Number(response.total_records);
			return { records: data, total: Number.isFinite(total) ? total : undefined };
		},
		{ returnAll, limit, maxPerPage: LIST_MAX_PER_PAGE },
	);

	const timeZone = this.getTimezone();
	return records.map((record) => {
		const full = addIsoDates(record, ['transaction_date'], timeZone);
		const json = simplify
			? Object.fromEntries(SIMPLE_FIELDS.filter((f) => f in full).map((f) => [f, full[f]]))
			: full;
		return { json, pairedItem: { item: itemIndex } };
	});
}
