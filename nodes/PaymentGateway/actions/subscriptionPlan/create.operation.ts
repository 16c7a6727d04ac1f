import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { earliestToday } from '../../helpers/dates';
import { apiRequest } from '../../transport';
import { assertValid, isBlank, SUPPORTED_CURRENCIES, toPlainNumber, toText } from '../../validation/rules';
import type { SubscriptionPlanInput } from '../../validation/subscription';
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
	splitEmails,
	toServiceDateTime,
	validateSubscriptionPlan,
} from '../../validation/subscription';

const show = { resource: ['subscriptionPlan'], operation: ['create'] };

const amount = (displayName: string, name: string, description: string): INodeProperties => ({
	displayName,
	name,
	type: 'number',
	required: true,
	typeOptions: { minValue: 1 },
	default: 1,
	description,
});

const fee = (displayName: string, name: string, what: string): INodeProperties => ({
	displayName,
	name,
	type: 'number',
	typeOptions: { minValue: 0 },
	default: 0,
	description: `${what} added to each payment, at least 0; sent as 0 when not set`,
});

const DATE_HINT = "Sent as YYYY-MM-DD HH:mm in the workflow's time zone (Workflow Settings → Timezone)";

const properties: INodeProperties[] = [
	{
		displayName: 'Plan Name',
		name: 'planName',
		type: 'string',
		required: true,
		default: '',
		description: `Name of the plan, at most ${PLAN_NAME_MAX} characters; the service refuses a name already used by a plan with the same frequency, currency and installment amount`,
	},
	{
		displayName: 'Frequency',
		name: 'frequency',
		type: 'options',
		options: BILLING_FREQUENCIES.map((value) => ({ name: value[0].toUpperCase() + value.slice(1), value })),
		default: 'monthly',
		description: 'How often the customer is billed',
	},
	{
		displayName: 'Interval',
		name: 'interval',
		type: 'number',
		required: true,
		typeOptions: { minValue: 1 },
		default: 1,
		description: 'Bill every this many periods: 1 = every period, 2 = every other period',
	},
	{
		displayName: 'Currency',
		name: 'currency',
		type: 'options',
		options: SUPPORTED_CURRENCIES.map((code) => ({ name: code, value: code })),
		default: 'AED',
		description: 'ISO 4217 code of the plan currency; it must be enabled on the merchant account',
	},
	amount('Installment Amount', 'installmentAmount', 'Amount of each regular payment without fees, at least 1; not below the initial, final and discount amounts'),
	{
		displayName: 'Unlimited Terms',
		name: 'unlimitedTerms',
		type: 'boolean',
		default: false,
		description: 'Whether the plan bills until it is stopped (terms.unlimited yes) rather than a fixed number of times',
	},
	{
		displayName: 'Number of Terms',
		name: 'terms',
		type: 'number',
		required: true,
		typeOptions: { minValue: PLAN_TERMS_MIN, maxValue: PLAN_TERMS_MAX },
		default: 12,
		description: `How many payments the plan takes (terms.value), ${PLAN_TERMS_MIN}-${PLAN_TERMS_MAX}`,
		displayOptions: { show: { unlimitedTerms: [false] } },
	},
	amount('Initial Payment Amount', 'initialPaymentAmount', 'Amount of the first payment, at least 1 and not above the installment amount'),
	amount('Final Payment Amount', 'finalPaymentAmount', 'Amount of the last payment when terms are fixed, at least 1 and not above the installment amount'),
	{
		displayName: 'Start Date',
		name: 'startDate',
		type: 'dateTime',
		required: true,
		default: '',
		description: 'When billing starts: today or later',
		hint: DATE_HINT,
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			fee('Convenience Fee', 'convenienceFee', 'Convenience fee'),
			{
				displayName: 'Description',
				name: 'planDescription',
				type: 'string',
				default: '',
				description: `Plan description, at most ${PLAN_DESCRIPTION_MAX} characters: letters, numbers, spaces, full stops, hyphens and commas only`,
			},
			{
				displayName: 'Discount Amount',
				name: 'discountAmount',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 0,
				description: 'Amount charged for the discounted term; required when Discount Term is above 0, not above the installment amount',
			},
			{
				displayName: 'Discount Term',
				name: 'discountTerm',
				type: 'number',
				typeOptions: { minValue: 0 },
				default: 1,
				description: 'Which payment (1 = the first) is charged the discount amount; at most the number of terms when they are fixed; 0 for none',
			},
			{
				displayName: 'Expiry Date',
				name: 'expiryDate',
				type: 'dateTime',
				default: '',
				description: `When the plan expires: after the start date. ${DATE_HINT}.`,
			},
			{
				displayName: 'Note',
				name: 'note',
				type: 'string',
				typeOptions: { rows: 2 },
				default: '',
				description: `Internal note, at most ${PLAN_NOTE_MAX} characters`,
			},
			fee('Shipping Fee', 'shippingFee', 'Shipping fee'),
		],
	},
	{
		displayName: 'Email',
		name: 'email',
		type: 'collection',
		placeholder: 'Add Email Field',
		default: {},
		description: 'Send the plan to customers by email; leave empty to create the plan without email',
		options: [
			{
				displayName: 'CC Emails',
				name: 'customerEmailCc',
				type: 'string',
				default: '',
				placeholder: 'name@email.com',
				description: `Comma-separated copies, at most ${PLAN_MAX_CC}; only with Customer Emails`,
			},
			{
				displayName: 'Customer Emails',
				name: 'customerEmails',
				type: 'string',
				default: '',
				placeholder: 'name@email.com',
				description: `Comma-separated recipients, at most ${PLAN_MAX_RECIPIENTS}; a Subject is then required`,
			},
			{
				displayName: 'Product Details',
				name: 'productDetails',
				type: 'string',
				typeOptions: { rows: 2 },
				default: '',
				description: `Product details for the email, at most ${PLAN_PRODUCT_DETAILS_MAX} characters`,
			},
			{
				displayName: 'Subject',
				name: 'subject',
				type: 'string',
				default: '',
				description: `Email subject, at most ${PLAN_SUBJECT_MAX} characters; required with Customer Emails and only with them`,
			},
		],
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Put QR Code in Field',
				name: 'binaryPropertyName',
				type: 'string',
				default: 'qrCode',
				description: 'The name of the output binary field to put the QR code (PNG) in',
			},
		],
	},
];

export const description = updateDisplayOptions({ show }, properties);


/** The Unlimited Terms switch, or yes/no/true/false from an expression, as the service's yes/no. */
function yesNo(value: unknown): string {
	if (value === true) return 'yes';
	if (value === false) return 'no';
	const word = toText(value).toLowerCase();
	if (word === 'true' || word === 'yes') return 'yes';
	if (word === 'false' || word === 'no') return 'no';
	return toText(value);
}

/** A date-time parameter as YYYY-MM-DD HH:mm in the workflow's time zone, or as given when unreadable. */
function dateTime(value: unknown, timeZone: string): unknown {
	if (isBlank(value)) return undefined;
	return toServiceDateTime(value, timeZone) ?? value;
}

/** The parameters as the service's fields, amounts still as given (checked before conversion). */
function readPlan(ctx: IExecuteFunctions, itemIndex: number): SubscriptionPlanInput {
	const timeZone = ctx.getTimezone();
	const get = (name: string, fallback?: unknown) => ctx.getNodeParameter(name, itemIndex, fallback) as unknown;
	const fields = get('additionalFields', {}) as IDataObject;
	const email = get('email', {}) as IDataObject;
	const unlimited = yesNo(get('unlimitedTerms'));

	const terms: SubscriptionPlanInput['terms'] = { unlimited };
	if (unlimited !== 'yes') terms.value = get('terms', '');
	// 0 means no discounted term (the seed's terms are 1-based): then the key is not sent.
	if (!isBlank(fields.discountTerm) && toPlainNumber(fields.discountTerm) !== 0) {
		terms.discount_term = fields.discountTerm;
	}
	if (!isBlank(fields.discountAmount)) terms.discount_amount = fields.discountAmount;

	const plan: SubscriptionPlanInput = {
		plan_name: toText(get('planName')),
		billing_frequency: { frequency: toText(get('frequency')).toLowerCase(), interval: get('interval') },
		installment_amount: { currency: toText(get('currency')).toUpperCase(), value: get('installmentAmount') },
		terms,
		initial_payment_amount: get('initialPaymentAmount'),
		final_payment_amount: get('finalPaymentAmount'),
		shipping_fee: isBlank(fields.shippingFee) ? 0 : fields.shippingFee,
		convenience_fee: isBlank(fields.convenienceFee) ? 0 : fields.convenienceFee,
		start_date: dateTime(get('startDate'), timeZone) ?? '',
		customer_emails: splitEmails(toText(email.customerEmails)).join(','),
		customer_email_cc: splitEmails(toText(email.customerEmailCc)).join(','),
		subject: toText(email.subject),
		product_details: toText(email.productDetails),
	};
	const planDescription = toText(fields.planDescription);
	if (planDescription !== '') plan.plan_description = planDescription;
	const expiry = dateTime(fields.expiryDate, timeZone);
	if (expiry !== undefined) plan.expiry_date = expiry;
	const note = toText(fields.note);
	if (note !== '') plan.note = note;
	return plan;
}

/** The checked plan in the seed's field order, amounts and counts as JSON numbers. */
function toBody(plan: SubscriptionPlanInput): IDataObject {
	const num = (value: unknown) => toPlainNumber(value) as number;
	const terms: IDataObject = { unlimited: plan.terms.unlimited };
	if (plan.terms.value !== undefined) terms.value = num(plan.terms.value);
	if (plan.terms.discount_term !== undefined) terms.discount_term = num(plan.terms.discount_term);
	if (plan.terms.discount_amount !== undefined) terms.discount_amount = num(plan.terms.discount_amount);
	const body: IDataObject = { plan_name: plan.plan_name };
	if (plan.plan_description !== undefined) body.plan_description = plan.plan_description;
	Object.assign(body, {
		billing_frequency: {
			frequency: plan.billing_frequency.frequency,
			interval: num(plan.billing_frequency.interval),
		},
		installment_amount: {
			currency: plan.installment_amount.currency,
			value: num(plan.installment_amount.value),
		},
		terms,
		initial_payment_amount: num(plan.initial_payment_amount),
		final_payment_amount: num(plan.final_payment_amount),
		shipping_fee: num(plan.shipping_fee),
		convenience_fee: num(plan.convenience_fee),
		start_date: plan.start_date,
	});
	if (plan.expiry_date !== undefined) body.expiry_date = plan.expiry_date;
	if (plan.note !== undefined) body.note = plan.note;
	// The four email keys are always sent: empty strings create the plan without email.
	body.customer_emails = plan.customer_emails;
	body.customer_email_cc = plan.customer_email_cc;
	body.subject = plan.subject;
	body.product_details = plan.product_details;
	return body;
}

/** The QR code's bytes and type from plain base64 or a data: URL. */
export function decodeQrCode(qrCode: string): { data: Buffer; mimeType: string } {
	const match = /^data:([^;,]*)(?:;[^,]*)?,(.*)$/s.exec(qrCode.trim());
	const mimeType = match?.[1] || 'image/png';
	return { data: Buffer.from(match ? match[2] : qrCode.trim(), 'base64'), mimeType };
}

/**
 * POST /subscriptions/v1/add. Every rule of the seed is checked first. Not retried automatically:
 * the service would create a second plan (or refuse the name) after a lost answer.
 */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const plan = readPlan(this, itemIndex);
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const binaryPropertyName = isBlank(options.binaryPropertyName) ? 'qrCode' : toText(options.binaryPropertyName);
	const violations = validateSubscriptionPlan(plan, earliestToday(this.getTimezone()));
	if (binaryPropertyName === '') {
		violations.push({ field: 'Put QR Code in Field', rule: 'is required', value: options.binaryPropertyName });
	}
	assertValid(this, itemIndex, violations);

	const response = await apiRequest.call(this, itemIndex, {
		channel: 'subscription',
		method: 'POST',
		path: '/subscriptions/v1/add',
		body: toBody(plan),
		retrySafe: false,
	});

	// The seed puts the fields at the top level; some answers nest them under data.
	const nested =
		typeof response.data === 'object' && response.data !== null && !Array.isArray(response.data)
			? (response.data as IDataObject)
			: {};
	const pick = (key: string) => response[key] ?? nested[key];
	const json: IDataObject = {
		data_id: pick('data_id'),
		plan_id: pick('plan_id'),
		link: pick('link'),
		message: response.message ?? nested.message,
		qr_code: pick('qr_code'),
	};
	const item: INodeExecutionData = { json, pairedItem: { item: itemIndex } };
	if (typeof json.qr_code === 'string' && json.qr_code.trim() !== '') {
		const { data, mimeType } = decodeQrCode(json.qr_code);
		const fileName = `plan-${toText(json.plan_id) || toText(json.data_id) || 'qr-code'}.png`;
		item.binary = { [binaryPropertyName]: await this.helpers.prepareBinaryData(data, fileName, mimeType) };
	}
	return [item];
}
