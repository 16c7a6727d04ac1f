import type { Row, SheetSchema } from './schema';
import { rules } from './schema';

const FREQUENCIES = ['per_day', 'per_month', 'till_expiry'];
const flag = rules.oneOf(['0', '1']);

/** The 20 columns of the payment link file, exactly as the service spells them. */
export function paymentLinkSchema(today: string): SheetSchema {
	return {
		maxRows: 100000,
		columns: [
			{ header: 'Currency', param: 'currency', kind: 'text', required: true, description: 'ISO 4217 code', check: rules.pattern(/^[A-Z]{3}$/, 'must be a 3-letter ISO 4217 code') },
			{ header: 'Amount', param: 'amount', kind: 'number', required: true, description: '1 to 99999999', check: rules.numberBetween(1, 99999999) },
			{ header: 'Shipping Fee', param: 'shippingFee', kind: 'number', required: true, description: '0 to 99999', check: rules.numberBetween(0, 99999) },
			{ header: 'Convenience Fee', param: 'convenienceFee', kind: 'number', required: true, description: '0 to 99999', check: rules.numberBetween(0, 99999) },
			{ header: 'Qty Per Transaction', param: 'qtyPerTransaction', kind: 'number', required: true, description: '1 to 9999999', check: rules.numberBetween(1, 9999999, true) },
			{ header: 'No Of Transactions', param: 'noOfTransactions', kind: 'number', required: true, description: '1 to 9999999, per user', check: rules.numberBetween(1, 9999999, true) },
			{ header: 'No Limit Per User', param: 'noLimitPerUser', kind: 'text', description: '1 = unlimited per user, 0 otherwise (default 0)', check: flag },
			{ header: 'Total Collection', param: 'totalCollection', kind: 'text', required: true, description: 'per_day, per_month or till_expiry', check: rules.oneOf(FREQUENCIES) },
			{ header: 'Overall Qty Allowed', param: 'overallQtyAllowed', kind: 'number', required: true, description: '1 to 9999999', check: rules.numberBetween(1, 9999999, true) },
			{ header: 'No Limit Over All', param: 'noLimitOverAll', kind: 'text', description: '1 = unlimited overall, 0 otherwise (default 0)', check: flag },
			{ header: 'Qty Frequency', param: 'qtyFrequency', kind: 'text', required: true, description: 'per_day, per_month or till_expiry', check: rules.oneOf(FREQUENCIES) },
			{ header: 'Is Expiry', param: 'isExpiry', kind: 'number', required: true, description: '1 to enable an end date, 0 to disable', check: (v) => (v === 0 || v === 1 ? undefined : 'must be 0 or 1') },
			{
				header: 'End Date',
				param: 'endDate',
				kind: 'date',
				description: 'YYYY-MM-DD, today or later; required when Is Expiry is 1',
				check: (v) => {
					const text = String(v);
					if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || Number.isNaN(Date.parse(`${text}T00:00:00Z`))) return 'must be a date in the form YYYY-MM-DD';
					return text < today ? `must be today (${today}) or later` : undefined;
				},
			},
			{ header: 'Description', param: 'description', kind: 'text', description: 'At most 100 characters', check: rules.maxLength(100) },
			{ header: 'Error Message', param: 'errorMessage', kind: 'text', description: 'Shown when validation fails; at most 100 characters', check: rules.maxLength(100) },
			{
				header: 'Customer Name',
				param: 'customerName',
				kind: 'text',
				description: 'Firstname Lastname, at most 50 characters',
				check: (v) => rules.maxLength(50)(v) ?? rules.pattern(/^[A-Za-z]+( [A-Za-z]+)+$/, 'must have the form Firstname Lastname')(v),
			},
			{ header: 'Customer Email', param: 'customerEmail', kind: 'text', description: 'At most 50 characters', check: (v) => rules.maxLength(50)(v) ?? rules.email(v) },
			{ header: 'Product Details', param: 'productDetails', kind: 'text', description: 'At most 200 characters', check: rules.maxLength(200) },
			{ header: 'Split Payment', param: 'splitPayment', kind: 'text', description: '1 to enable, 0 to disable (default 0)', check: flag },
			{ header: 'Tip', param: 'tip', kind: 'text', description: '0 or 1; the service forces 0 unless Split Payment is 1', check: flag },
		],
		rowRules: (row: Row) =>
			row['Is Expiry'] === 1 && row['End Date'] === undefined ? [['End Date', 'is required when Is Expiry is 1']] : [],
		// The service stores Tip as 0 unless Split Payment is 1: write what it will keep.
		adjust: (row: Row) => (String(row['Split Payment'] ?? '0') === '1' || row.Tip === undefined ? row : { ...row, Tip: '0' }),
	};
}
