import { FILTERS, filtersGroup } from '../PaymentGateway/actions/transaction/list.filters';
import type { Field, FieldTable } from '../PaymentGateway/fields/types';

/** The trigger's settings as field tables: declared once, read and checked like the action node's. */

/**
 * Get Many's filters that keep a transaction in or out for good. Status is left to Events (a status
 * filter would hide every change away from that status); dates are the look-back window's; one
 * transaction or order ID is what Transaction > Get is for.
 */
const KEPT_FILTERS = [
	'cardBin',
	'currencyCode',
	'customerCountry',
	'customerEmail',
	'customerId',
	'customerMobile',
	'maxAmount',
	'minAmount',
	'paymentMethod',
	'paymentMethodId',
	'paymentToken',
	'processor',
];

/** Get Many's Filters collection (same names, rules and wire names), with the kept filters only. */
const filterTable: FieldTable = [
	{ ...filtersGroup, fields: FILTERS.filter((field) => KEPT_FILTERS.includes(field.name)) },
];

export const MAX_LOOK_BACK_DAYS = 366;

/** Look-Back Window: a table field like every other setting of the trigger. */
export const lookBackField: Field = {
	name: 'lookBackDays',
	displayName: 'Look-Back Window (Days)',
	description:
		'How many days back, by transaction date, to watch for status changes. The list filters by transaction date only, so a refund of an older transaction is seen only while that transaction is inside this window.',
	type: 'number',
	integer: true,
	min: 0,
	max: MAX_LOOK_BACK_DAYS,
	required: true,
	ui: { default: 7 },
};

/** The settings read per poll: the window, then the filters. */
export const settingsTable: FieldTable = [lookBackField, ...filterTable];
