import { EMAIL } from '../subscriptions/rules';
import type { EndpointRules, WireRule } from '../../rules/types';

const FREQUENCY = ['per_day', 'per_month', 'till_expiry'];
const range = (min: number, max: number, type: 'number' | 'integer' = 'number'): WireRule => ({
	type,
	required: true,
	min,
	max,
});
const flag: WireRule = { type: 'text', oneOf: ['0', '1'] };

/** Payment link bulk upload: the sheet's columns (seed: Payment link bulk row). */
export const BULK_PAYMENT_LINKS: EndpointRules = {
	method: 'POST',
	path: '/payment-links/v1/bulk-upload',
	fields: {},
	columns: {
		Currency: {
			type: 'currency',
			required: true,
			pattern: /^[A-Z]{3}$/,
			says: '3-letter currency code',
		},
		Amount: range(1, 99_999_999),
		'Shipping Fee': range(0, 99_999),
		'Convenience Fee': range(0, 99_999),
		'Qty Per Transaction': range(1, 9_999_999, 'integer'),
		'No Of Transactions': range(1, 9_999_999, 'integer'),
		'No Limit Per User': flag,
		'Total Collection': { type: 'text', required: true, oneOf: FREQUENCY },
		'Overall Qty Allowed': range(1, 9_999_999, 'integer'),
		'No Limit Over All': flag,
		'Qty Frequency': { type: 'text', required: true, oneOf: FREQUENCY },
		'Is Expiry': { type: 'text', required: true, oneOf: ['0', '1'] },
		'End Date': { type: 'date' },
		Description: { type: 'text', maxLength: 100 },
		'Error Message': { type: 'text', maxLength: 100 },
		'Customer Name': {
			type: 'text',
			maxLength: 50,
			pattern: /^\p{L}+(\s+\p{L}+)+$/u,
			says: 'Firstname Lastname',
		},
		'Customer Email': { type: 'email', maxLength: 50, pattern: EMAIL, says: 'valid email address' },
		'Product Details': { type: 'text', maxLength: 200 },
		'Split Payment': flag,
		Tip: flag,
	},
};

/** Payment link deactivation. */
export const PAYMENT_LINK_DEACTIVATE: EndpointRules = {
	method: 'POST',
	path: '/payment-links/v1/deactivate',
	fields: { data_id: { type: 'text', required: true } },
};
