import type { EndpointRules } from '../../rules/types';

/** One address of a comma-separated list; deliberately simple. */
export const EMAIL = /^[^\s@,;]+@[^\s@,;]+\.[A-Za-z]{2,}$/;
/** YYYY-MM-DD HH:mm (the date and time themselves are checked by the area). */
export const PLAN_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2})$/;

/** Subscription plan create input (seed: Subscription plan, Limits); amounts are JSON numbers. */
export const SUBSCRIPTION_ADD: EndpointRules = {
	method: 'POST',
	path: '/subscriptions/v1/add',
	fields: {
		plan_name: { type: 'text', required: true, maxLength: 50 },
		plan_description: {
			type: 'text',
			maxLength: 250,
			pattern: /^[\p{L}\p{Nd} .,-]*$/u,
			says: 'may contain only letters, digits, spaces, full stops, hyphens and commas',
		},
		'billing_frequency.frequency': {
			type: 'text',
			required: true,
			oneOf: ['daily', 'weekly', 'monthly', 'yearly'],
		},
		'billing_frequency.interval': { type: 'integer', required: true, min: 1 },
		// Which codes are enabled is the merchant account's setting, not a rule of the request.
		'installment_amount.currency': { type: 'currency', required: true, pattern: /^[A-Z]{3}$/ },
		'installment_amount.value': { type: 'number', required: true, min: 1 },
		'terms.unlimited': { type: 'text', required: true, oneOf: ['yes', 'no'] },
		'terms.value': { type: 'integer', min: 1, max: 1999 },
		'terms.discount_term': { type: 'integer', min: 1 },
		'terms.discount_amount': { type: 'number', min: 0 },
		initial_payment_amount: { type: 'number', required: true, min: 1 },
		final_payment_amount: { type: 'number', required: true, min: 1 },
		shipping_fee: { type: 'number', required: true, min: 0 },
		convenience_fee: { type: 'number', required: true, min: 0 },
		start_date: { type: 'dateTime', required: true, pattern: PLAN_DATE_TIME },
		expiry_date: { type: 'dateTime', pattern: PLAN_DATE_TIME },
		note: { type: 'text', maxLength: 250 },
		customer_emails: {
			type: 'emailList',
			required: true,
			mayBeEmpty: true,
			pattern: EMAIL,
			maxItems: 40,
		},
		customer_email_cc: {
			type: 'emailList',
			required: true,
			mayBeEmpty: true,
			pattern: EMAIL,
			maxItems: 5,
		},
		subject: { type: 'text', required: true, mayBeEmpty: true, maxLength: 200 },
		product_details: { type: 'text', required: true, mayBeEmpty: true, maxLength: 200 },
	},
};
