import type { Violation } from './rules';
import { isBlank, toPlainNumber } from './rules';

/** Seed, Invoice item and Limits: name 1-50 chars, rate above 0 and max 9999999, category max 100, description max 200. */
export const ITEM_NAME_MAX = 50;
export const ITEM_RATE_MAX = 9999999;
export const ITEM_CATEGORY_MAX = 100;
export const ITEM_DESCRIPTION_MAX = 200;

/** Seed, Invoice item list: perpage 1-1000, page 1-1000. */
export const ITEM_LIST_MAX_PER_PAGE = 1000;
export const ITEM_LIST_MAX_PAGE = 1000;

export const ITEM_STATUSES = ['Active', 'Deactivated'] as const;

/** An item as the user gave it, before the rate is read as a number; names as the service's. */
export interface InvoiceItemInput {
	item_name: string;
	/** Whatever Rate Per Unit held: a number, or text from an expression. */
	item_rate_per_unit: unknown;
	item_category: string;
	item_description: string;
}

const chars = (text: string) => [...text].length;

/** Rules of POST /invoice/v1/items/add and /items/update (the payload both share). */
export function validateInvoiceItem(item: InvoiceItemInput): Violation[] {
	const violations: Violation[] = [];
	const add = (field: string, rule: string, value: unknown) => violations.push({ field, rule, value });

	const name = item.item_name;
	if (name.trim() === '') add('item_name', 'is required', name);
	else if (chars(name) > ITEM_NAME_MAX) add('item_name', `must be 1-${ITEM_NAME_MAX} characters long`, name);

	const rate = toPlainNumber(item.item_rate_per_unit);
	if (rate === undefined) {
		add('item_rate_per_unit', 'must be a plain number (no currency symbol, commas or spaces)', item.item_rate_per_unit);
	} else if (rate <= 0 || rate > ITEM_RATE_MAX) {
		add('item_rate_per_unit', `must be above 0 and at most ${ITEM_RATE_MAX}`, item.item_rate_per_unit);
	}

	// The endpoints list the category as a payload field of add and update (not "optional" like
	// the description): required here, so the service never sees an item without one.
	const category = item.item_category;
	if (category.trim() === '') add('item_category', 'is required', category);
	else if (chars(category) > ITEM_CATEGORY_MAX) {
		add('item_category', `must be at most ${ITEM_CATEGORY_MAX} characters long`, category);
	}

	if (chars(item.item_description) > ITEM_DESCRIPTION_MAX) {
		add('item_description', `must be at most ${ITEM_DESCRIPTION_MAX} characters long`, item.item_description);
	}
	return violations;
}

/** Every operation on one item needs its data_id (the token), never the item_id. */
export function validateDataId(dataId: string): Violation[] {
	return dataId.trim() === '' ? [{ field: 'data_id', rule: 'is required', value: dataId }] : [];
}

/** Rules of GET /invoice/v1/items/list, on the query as the service names it. */
export function validateItemListQuery(qs: { perpage?: unknown; page?: unknown; status?: unknown }): Violation[] {
	const violations: Violation[] = [];
	const range = (field: 'perpage' | 'page', max: number) => {
		const value = qs[field];
		if (!Number.isInteger(value) || (value as number) < 1 || (value as number) > max) {
			violations.push({ field, rule: `must be an integer from 1 to ${max}`, value });
		}
	};
	range('perpage', ITEM_LIST_MAX_PER_PAGE);
	range('page', ITEM_LIST_MAX_PAGE);
	if (!isBlank(qs.status) && !(ITEM_STATUSES as readonly unknown[]).includes(qs.status)) {
		violations.push({ field: 'status', rule: `must be ${ITEM_STATUSES.join(' or ')}`, value: qs.status });
	}
	return violations;
}
