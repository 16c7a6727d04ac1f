import { CURRENCIES } from '../../core/generate';
import type { EndpointRules, WireRule, WireRules } from '../../rules/types';

/** ISO 3166-1 alpha-2, officially assigned codes. */
export const COUNTRY_CODES: readonly string[] = (
	'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ ' +
	'BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM ' +
	'DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS ' +
	'GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN ' +
	'KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ ' +
	'MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM ' +
	'PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV ' +
	'SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI ' +
	'VN VU WF WS YE YT ZA ZM ZW'
).split(' ');

const text: WireRule = { type: 'text' };
/** "Yes (may be empty string)": the key must be sent, '' is fine. */
const keyed: WireRule = { type: 'text', required: true, mayBeEmpty: true };
const digits: WireRule = { type: 'text', pattern: /^\d+$/, says: 'must contain digits only' };
const country: WireRule = {
	type: 'country',
	required: true,
	mayBeEmpty: true,
	oneOf: COUNTRY_CODES,
	says: 'must be an ISO 3166-1 alpha-2 country code',
};
const fee: WireRule = { type: 'number', required: true, mayBeEmpty: true, min: 0 };
const decimalText: WireRule = {
	type: 'text',
	pattern: /^\d+(\.\d+)?$/,
	says: 'must be decimal text',
};
export const ITEM_GENDERS = ['Male', 'Female', 'Kids', 'Other'];

const address = (root: string): WireRules =>
	Object.fromEntries([
		...['address_line1', 'address_line2', 'city', 'province', 'pin'].map((k) => [
			`${root}.${k}`,
			keyed,
		]),
		[`${root}.country`, country],
	]);

const item = (rules: WireRules): WireRules =>
	Object.fromEntries(Object.entries(rules).map(([key, rule]) => [`items[].${key}`, rule]));

/** Order create request (POST /orders/v1/create), every field under data. */
export const ORDER_CREATE: EndpointRules = {
	method: 'POST',
	path: '/orders/v1/create',
	fields: {
		class: { type: 'text', required: true, oneOf: ['ECOM', 'CAUTH'] },
		action: { type: 'text', required: true, oneOf: ['SALE', 'AUTH', 'AUTH_REVERSAL'] },
		capture_method: { type: 'text', oneOf: ['AUTOMATIC', 'MANUAL'] },
		payment_token: text,
		'customer_details.m_customer_id': text,
		'customer_details.name': keyed,
		'customer_details.email': keyed,
		'customer_details.mobile': digits,
		'customer_details.code': text,
		'order_details.m_order_id': text,
		'order_details.amount': { type: 'number', required: true, min: 1 },
		'order_details.convenience_fee': fee,
		'order_details.quantity': { type: 'integer', required: true, mayBeEmpty: true, min: 1 },
		'order_details.currency': { type: 'currency', required: true, oneOf: CURRENCIES },
		'order_details.description': keyed,
		'order_details.return_url': text,
		...address('billing_details'),
		'shipping_details.shipping_name': keyed,
		'shipping_details.shipping_email': keyed,
		...address('shipping_details'),
		'shipping_details.location_pin': keyed,
		'shipping_details.shipping_currency': {
			type: 'currency',
			required: true,
			mayBeEmpty: true,
			pattern: /^[A-Z]{3}$/,
			says: 'must be an ISO 4217 currency code',
		},
		'shipping_details.shipping_code': text,
		'shipping_details.shipping_mobile': digits,
		'shipping_details.shipping_amount': fee,
		...item({
			title: text,
			description: text,
			quantity: { type: 'integer', min: 1 },
			unit_price: decimalText,
			discount_amount: decimalText,
			reference_id: text,
			image_url: text,
			product_url: text,
			gender: { type: 'text', oneOf: ITEM_GENDERS, says: 'must be Male, Female, Kids or Other' },
			category: text,
			color: text,
			product_material: text,
			size_type: text,
			size: text,
			brand: text,
			is_refundable: { type: 'boolean' },
		}),
		'urls.success': { type: 'url' },
		'urls.cancel': { type: 'url' },
		'urls.failure': { type: 'url' },
		'urls.webhook_url': { type: 'webhookUrl' },
	},
};

/** Manage payment (POST /orders/v1/transaction): capture, void and refund. */
export const MANAGE_PAYMENT: EndpointRules = {
	method: 'POST',
	path: '/orders/v1/transaction',
	fields: {
		action: { type: 'text', required: true, oneOf: ['REFUND', 'VOID', 'CAPTURE'] },
		transaction_id: { type: 'text', required: true },
		'amount.currencyCode': { type: 'currency', required: true },
		'amount.value': { type: 'number', required: true, above: 0 },
		reason: text,
	},
	// Seed, Limits: "Refund: minimum amount.value 1".
	variants: [
		{
			when: { action: 'REFUND' },
			fields: { 'amount.value': { type: 'number', required: true, min: 1 } },
		},
	],
};

/** Order list (GET /orders/v1/transaction-list): query parameters, '' counts as absent. */
export const ORDER_LIST: EndpointRules = {
	method: 'GET',
	path: '/orders/v1/transaction-list',
	fields: {
		page: { type: 'integer', min: 1 },
		perpage: { type: 'integer', min: 1, max: 100 },
		from_date: { type: 'date' },
		to_date: { type: 'date' },
		min_amount: { type: 'number', min: 0 },
		max_amount: { type: 'number', min: 0 },
	},
};

/** Transaction document upload (multipart); the file's own checks are the route's. */
export const DOCUMENT_UPLOAD: EndpointRules = {
	method: 'POST',
	path: '/orders/v1/transaction/documents',
	fields: {
		transaction_id: { type: 'text', required: true },
		document_type: {
			type: 'text',
			required: true,
			oneOf: ['INVOICE', 'AWB'],
			caseInsensitive: true,
		},
		document_ref: { type: 'text', required: true, minLength: 3, maxLength: 100 },
		file: { type: 'text', required: true, pattern: /\.(pdf|doc|docx|jpg|jpeg)$/i },
	},
};

/** POS order lookup: the path's order_id. */
export const POS_ORDER: EndpointRules = {
	method: 'GET',
	path: '/pos/v1/orders/:order_id',
	fields: { order_id: { type: 'text', required: true } },
};
