import type { Field, FieldGroup, FieldTable } from '../../fields/types';
import { optionsOf } from '../../fields/types';
import { SUPPORTED_CURRENCIES } from '../../fields/codes';
import {
	BILLING_FREQUENCIES,
	PLAN_DESCRIPTION_MAX,
	PLAN_MAX_CC,
	PLAN_MAX_RECIPIENTS,
	PLAN_NAME_MAX,
	PLAN_NOTE_MAX,
	PLAN_PRODUCT_DETAILS_MAX,
	PLAN_SUBJECT_MAX,
	PLAN_TERMS_MAX,
	PLAN_TERMS_MIN,
} from './rules';

/** The fields of POST /subscriptions/v1/add, each declared once with its wire path and rules. */

const DATE_HINT =
	"Sent as YYYY-MM-DD HH:mm in the workflow's time zone (Workflow Settings → Timezone)";

const amount = (name: string, displayName: string, wire: string, description: string): Field => ({
	name,
	displayName,
	type: 'number',
	wire,
	required: true,
	min: 1,
	description,
	ui: { default: 1 },
	// Empty until typed, like every amount of new nodes.
	uiVersion3: { default: '', placeholder: 'e.g. 100.00' },
});

const fee = (name: string, displayName: string, wire: string, what: string): Field => ({
	name,
	displayName,
	type: 'number',
	wire,
	min: 0,
	description: `${what} added to each payment, at least 0; sent as 0 when not set`,
});

const blank = { emptyAsBlank: true };

const additionalFields: FieldGroup = {
	group: 'collection',
	name: 'additionalFields',
	displayName: 'Additional Fields',
	fields: [
		fee('convenienceFee', 'Convenience Fee', 'convenience_fee', 'Convenience fee'),
		{
			name: 'planDescription',
			displayName: 'Description',
			type: 'text',
			wire: 'plan_description',
			maxLength: PLAN_DESCRIPTION_MAX,
			pattern: {
				regex: /^[\p{L}\p{Nd} .,-]*$/u,
				rule: 'may contain only letters, numbers, spaces, full stops, hyphens and commas',
			},
			description: `Plan description, at most ${PLAN_DESCRIPTION_MAX} characters: letters, numbers, spaces, full stops, hyphens and commas only`,
		},
		{
			name: 'discountAmount',
			displayName: 'Discount Amount',
			type: 'number',
			wire: 'terms.discount_amount',
			min: 0,
			description:
				'Amount charged for the discounted term; required when Discount Term is above 0, not above the installment amount',
		},
		{
			name: 'discountTerm',
			displayName: 'Discount Term',
			type: 'number',
			wire: 'terms.discount_term',
			integer: true,
			min: 0,
			description:
				'Which payment (1 = the first) is charged the discount amount; at most the number of terms when they are fixed; 0 for none',
			ui: { default: 1 },
		},
		{
			name: 'expiryDate',
			displayName: 'Expiry Date',
			type: 'dateTime',
			wire: 'expiry_date',
			description: `When the plan expires: after the start date. ${DATE_HINT}.`,
			ui: { type: 'dateTime' },
		},
		{
			name: 'note',
			displayName: 'Note',
			type: 'text',
			wire: 'note',
			multiline: true,
			maxLength: PLAN_NOTE_MAX,
			description: `Internal note, at most ${PLAN_NOTE_MAX} characters`,
			ui: { typeOptions: { rows: 2 } },
		},
		fee('shippingFee', 'Shipping Fee', 'shipping_fee', 'Shipping fee'),
	],
};

const email: FieldGroup = {
	group: 'collection',
	name: 'email',
	displayName: 'Email',
	placeholder: 'Add Email Field',
	description: 'Send the plan to customers by email; leave empty to create the plan without email',
	fields: [
		{
			name: 'customerEmailCc',
			displayName: 'CC Emails',
			type: 'text',
			wire: 'customer_email_cc',
			...blank,
			description: `Comma-separated copies, at most ${PLAN_MAX_CC}; only with Customer Emails`,
			ui: { placeholder: 'name@email.com' },
		},
		{
			name: 'customerEmails',
			displayName: 'Customer Emails',
			type: 'text',
			wire: 'customer_emails',
			...blank,
			description: `Comma-separated recipients, at most ${PLAN_MAX_RECIPIENTS}; a Subject is then required`,
			ui: { placeholder: 'name@email.com' },
		},
		{
			name: 'productDetails',
			displayName: 'Product Details',
			type: 'text',
			wire: 'product_details',
			multiline: true,
			maxLength: PLAN_PRODUCT_DETAILS_MAX,
			...blank,
			description: `Product details for the email, at most ${PLAN_PRODUCT_DETAILS_MAX} characters`,
			ui: { typeOptions: { rows: 2 } },
		},
		{
			name: 'subject',
			displayName: 'Subject',
			type: 'text',
			wire: 'subject',
			maxLength: PLAN_SUBJECT_MAX,
			...blank,
			description: `Email subject, at most ${PLAN_SUBJECT_MAX} characters; required with Customer Emails and only with them`,
		},
	],
};

const options: FieldGroup = optionsOf([
	{
		name: 'binaryPropertyName',
		displayName: 'Put QR Code in Field',
		type: 'text',
		description: 'The name of the output binary field to put the QR code (PNG) in',
		ui: { default: 'qrCode' },
	},
]);

export const planTable: FieldTable = [
	{
		name: 'planName',
		displayName: 'Plan Name',
		type: 'text',
		wire: 'plan_name',
		required: true,
		maxLength: PLAN_NAME_MAX,
		description: `Name of the plan, at most ${PLAN_NAME_MAX} characters; the service refuses a name already used by a plan with the same frequency, currency and installment amount`,
	},
	{
		name: 'frequency',
		displayName: 'Frequency',
		type: 'options',
		wire: 'billing_frequency.frequency',
		required: true,
		caseInsensitive: true,
		options: BILLING_FREQUENCIES.map((value) => ({
			name: value[0].toUpperCase() + value.slice(1),
			value,
		})),
		description: 'How often the customer is billed',
		ui: { default: 'monthly' },
	},
	{
		name: 'interval',
		displayName: 'Interval',
		type: 'number',
		wire: 'billing_frequency.interval',
		required: true,
		integer: true,
		min: 1,
		description: 'Bill every this many periods: 1 = every period, 2 = every other period',
		ui: { default: 1 },
	},
	{
		name: 'currency',
		displayName: 'Currency',
		type: 'currency',
		currencies: 'iso',
		wire: 'installment_amount.currency',
		required: true,
		options: SUPPORTED_CURRENCIES.map((code) => ({ name: code, value: code })),
		description: 'ISO 4217 code of the plan currency; it must be enabled on the merchant account',
		ui: { default: 'AED' },
	},
	amount(
		'installmentAmount',
		'Installment Amount',
		'installment_amount.value',
		'Amount of each regular payment without fees, at least 1; not below the initial, final and discount amounts',
	),
	{
		name: 'unlimitedTerms',
		displayName: 'Unlimited Terms',
		type: 'boolean',
		wire: 'terms.unlimited',
		required: true,
		toWire: (value) => (value === true ? 'yes' : 'no'),
		description:
			'Whether the plan bills until it is stopped (terms.unlimited yes) rather than a fixed number of times',
		ui: { required: false },
	},
	{
		name: 'terms',
		displayName: 'Number of Terms',
		type: 'number',
		wire: 'terms.value',
		integer: true,
		min: PLAN_TERMS_MIN,
		max: PLAN_TERMS_MAX,
		description: `How many payments the plan takes (terms.value), ${PLAN_TERMS_MIN}-${PLAN_TERMS_MAX}`,
		ui: { default: 12, required: true, displayOptions: { show: { unlimitedTerms: [false] } } },
	},
	amount(
		'initialPaymentAmount',
		'Initial Payment Amount',
		'initial_payment_amount',
		'Amount of the first payment, at least 1 and not above the installment amount',
	),
	amount(
		'finalPaymentAmount',
		'Final Payment Amount',
		'final_payment_amount',
		'Amount of the last payment when terms are fixed, at least 1 and not above the installment amount',
	),
	{
		name: 'startDate',
		displayName: 'Start Date',
		type: 'dateTime',
		wire: 'start_date',
		required: true,
		description: 'When billing starts: today or later',
		ui: { type: 'dateTime', hint: DATE_HINT },
	},
	additionalFields,
	email,
	options,
];
