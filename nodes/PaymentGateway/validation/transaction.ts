import type { IDataObject } from 'n8n-workflow';

import type { Violation } from './rules';
import {
	isBlank,
	isCountryCode,
	isCurrencyCode,
	isDigits,
	isIsoDate,
	toPlainNumber,
	TRANSACTION_STATUSES,
} from './rules';

export const LIST_MAX_PER_PAGE = 100;

/** Rules of GET /orders/v1/transaction-list, on the query as the service names it. */
export function validateTransactionListQuery(qs: IDataObject): Violation[] {
	const violations: Violation[] = [];
	const check = (field: string, ok: boolean, rule: string) => {
		if (!isBlank(qs[field]) && !ok) violations.push({ field, rule, value: qs[field] });
	};
	const text = (field: string) => String(qs[field] ?? '');

	check('page', Number.isInteger(qs.page) && (qs.page as number) >= 1, 'must be an integer of at least 1');
	check(
		'perpage',
		Number.isInteger(qs.perpage) && (qs.perpage as number) >= 1 && (qs.perpage as number) <= LIST_MAX_PER_PAGE,
		`must be an integer from 1 to ${LIST_MAX_PER_PAGE}`,
	);
	// The seed lists the states "seen", not all: any upper-case state name is passed on.
	check('status', /^[A-Z][A-Z_]*$/.test(text('status')), `must be a state name such as ${TRANSACTION_STATUSES.slice(0, 3).join(', ')}`);
	check('currency_code', isCurrencyCode(text('currency_code')), 'must be a 3-letter ISO 4217 code');
	check('customer_country', isCountryCode(text('customer_country')), 'must be a 2-letter ISO 3166-1 alpha-2 code');
	check('card_bin', /^\d{6,8}$/.test(text('card_bin')), 'must be the first 6 to 8 digits of a card number');
	check('customer_mobile', isDigits(text('customer_mobile')), 'must contain digits only');
	check('from_date', isIsoDate(text('from_date')), 'must be a date in the form YYYY-MM-DD');
	check('to_date', isIsoDate(text('to_date')), 'must be a date in the form YYYY-MM-DD');
	for (const field of ['min_amount', 'max_amount']) {
		const amount = toPlainNumber(qs[field]);
		check(field, amount !== undefined && amount >= 0, 'must be a plain number of at least 0');
	}

	const min = toPlainNumber(qs.min_amount);
	const max = toPlainNumber(qs.max_amount);
	if (min !== undefined && max !== undefined && min > max) {
		violations.push({ field: 'min_amount', rule: `must not be above max_amount (${max})`, value: qs.min_amount });
	}
	if (isIsoDate(text('from_date')) && isIsoDate(text('to_date')) && text('from_date') > text('to_date')) {
		violations.push({ field: 'from_date', rule: `must not be after to_date (${text('to_date')})`, value: qs.from_date });
	}
	return violations;
}
