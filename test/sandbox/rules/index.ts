import {
	INVOICE_ITEM_ADD,
	INVOICE_ITEM_DETAILS,
	INVOICE_ITEM_LIST,
	INVOICE_ITEM_STATUS,
	INVOICE_ITEM_UPDATE,
} from '../areas/invoiceItems/rules';
import { BULK_PAYMENT_LINKS, PAYMENT_LINK_DEACTIVATE } from '../areas/paymentLinks/rules';
import { BULK_PAYOUT } from '../areas/payouts/rules';
import { SUBSCRIPTION_ADD } from '../areas/subscriptions/rules';
import {
	DOCUMENT_UPLOAD,
	MANAGE_PAYMENT,
	ORDER_CREATE,
	ORDER_LIST,
	POS_ORDER,
} from '../areas/orders/rules';
import type { EndpointRules } from './types';

export type { EndpointRules, WireRule, WireRules, WireType } from './types';

/** Every endpoint whose request the sandbox validates, with its rules. */
export const ENDPOINT_RULES: readonly EndpointRules[] = [
	ORDER_CREATE,
	MANAGE_PAYMENT,
	ORDER_LIST,
	DOCUMENT_UPLOAD,
	POS_ORDER,
	INVOICE_ITEM_ADD,
	INVOICE_ITEM_UPDATE,
	...INVOICE_ITEM_STATUS,
	INVOICE_ITEM_DETAILS,
	INVOICE_ITEM_LIST,
	SUBSCRIPTION_ADD,
	BULK_PAYOUT,
	BULK_PAYMENT_LINKS,
	PAYMENT_LINK_DEACTIVATE,
];

const matches = (pattern: string, path: string): boolean => {
	const want = pattern.split('/');
	const got = path.split('/');
	return want.length === got.length && want.every((s, i) => s.startsWith(':') || s === got[i]);
};

/** The rules of the endpoint a request went to (path without query), if the sandbox has any. */
export const rulesFor = (method: string, path: string): EndpointRules | undefined =>
	ENDPOINT_RULES.find((e) => e.method === method && matches(e.path, path));
