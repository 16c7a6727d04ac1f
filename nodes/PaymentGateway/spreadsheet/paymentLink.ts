import type { Column, Row, SheetSchema } from './schema';
import { column } from './schema';

const FREQUENCIES = ['per_day', 'per_month', 'till_expiry'];
const options = (values: string[]) => ({
	options: values.map((value) => ({ name: value, value })),
});
const flag = options(['0', '1']);
const between = (min: number, max: number) => ({ min, max });
const count = { ...between(1, 9999999), integer: true };

/** Amounts and fees: what one payment through the link costs. */
const MONEY_COLUMNS: Column[] = [
	column('Currency', 'currency', 'currency', 'ISO 4217 code', {
		required: true,
		currencies: 'iso',
	}),
	column('Amount', 'amount', 'number', '1 to 99999999', {
		required: true,
		...between(1, 99999999),
	}),
	column('Shipping Fee', 'shippingFee', 'number', '0 to 99999', {
		required: true,
		...between(0, 99999),
	}),
	column('Convenience Fee', 'convenienceFee', 'number', '0 to 99999', {
		required: true,
		...between(0, 99999),
	}),
	column(
		'Qty Per Transaction',
		'qtyPerTransaction',
		'number',
		'How many units one payment buys, 1 to 9999999',
		{ required: true, ...count, label: 'Quantity per Payment' },
	),
	column(
		'No Of Transactions',
		'noOfTransactions',
		'number',
		'How many times one customer may pay the link, 1 to 9999999',
		{ required: true, ...count, label: 'Payments per Customer' },
	),
];

/** How often and how many times the link can be paid. */
const LIMIT_COLUMNS: Column[] = [
	column(
		'No Limit Per User',
		'noLimitPerUser',
		'options',
		'1 = a customer may pay the link any number of times (Payments per Customer is then ignored), 0 otherwise (default 0)',
		{ ...flag, label: 'Unlimited Payments per Customer' },
	),
	column(
		'Total Collection',
		'totalCollection',
		'options',
		'The period the Overall Quantity Allowed counts over: per_day, per_month or till_expiry',
		{ required: true, ...options(FREQUENCIES), label: 'Overall Limit Period' },
	),
	column(
		'Overall Qty Allowed',
		'overallQtyAllowed',
		'number',
		'How many units all customers together may buy in the Overall Limit Period, 1 to 9999999',
		{ required: true, ...count, label: 'Overall Quantity Allowed' },
	),
	column(
		'No Limit Over All',
		'noLimitOverAll',
		'options',
		'1 = no overall limit (Overall Quantity Allowed is then ignored), 0 otherwise (default 0)',
		{ ...flag, label: 'No Overall Limit' },
	),
	column(
		'Qty Frequency',
		'qtyFrequency',
		'options',
		'The period Payments per Customer counts over: per_day, per_month or till_expiry',
		{ required: true, ...options(FREQUENCIES), label: 'Per-Customer Limit Period' },
	),
	column(
		'Is Expiry',
		'isExpiry',
		'number',
		'1 = the link stops working after End Date, 0 = it never expires',
		{ required: true, integer: true, ...between(0, 1), label: 'Expires' },
	),
];

/** What the payer sees and who the link is for. */
const DETAIL_COLUMNS: Column[] = [
	column('Description', 'description', 'text', 'At most 100 characters', { maxLength: 100 }),
	column(
		'Error Message',
		'errorMessage',
		'text',
		'Shown when validation fails; at most 100 characters',
		{ maxLength: 100 },
	),
	column('Customer Name', 'customerName', 'text', 'Firstname Lastname, at most 50 characters', {
		maxLength: 50,
		pattern: {
			// Letters of any script: the service takes "José García" as it takes "Layla Haddad".
			regex: /^\p{L}+(\s+\p{L}+)+$/u,
			rule: 'must have the form Firstname Lastname',
		},
	}),
	column('Customer Email', 'customerEmail', 'email', 'At most 50 characters', {
		maxLength: 50,
	}),
	column('Product Details', 'productDetails', 'text', 'At most 200 characters', {
		maxLength: 200,
		multiline: true,
	}),
	column(
		'Split Payment',
		'splitPayment',
		'options',
		'1 = the payer may split the amount with others, 0 otherwise (default 0)',
		flag,
	),
	column(
		'Tip',
		'tip',
		'options',
		'1 = the payer may add a tip, 0 otherwise; the service forces 0 unless Split Payment is 1',
		{ ...flag, label: 'Allow Tip' },
	),
];

function endDateColumn(today: string): Column {
	return column(
		'End Date',
		'endDate',
		'date',
		'Last day the link can be paid, YYYY-MM-DD, today or later; required when Expires is 1',
		{
			check: (v) => (String(v) < today ? `must be today (${today}) or later` : undefined),
		},
	);
}

/** The 20 columns of the payment link file, exactly as the service spells them. */
export function paymentLinkSchema(today: string): SheetSchema {
	return {
		maxRows: 100000,
		columns: [...MONEY_COLUMNS, ...LIMIT_COLUMNS, endDateColumn(today), ...DETAIL_COLUMNS],
		rowRules: (row: Row) =>
			row['Is Expiry'] === 1 && row['End Date'] === undefined
				? [['End Date', 'is required when Is Expiry is 1']]
				: [],
		// The service stores Tip as 0 unless Split Payment is 1: write what it will keep.
		adjust: (row: Row) =>
			String(row['Split Payment'] ?? '0') === '1' || row.Tip === undefined
				? row
				: { ...row, Tip: '0' },
	};
}
