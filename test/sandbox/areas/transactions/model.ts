import { quote } from '../../core/http';
import { ORDER_LIST } from '../orders/rules';
import { ruleAt } from '../../rules/types';
import type { HistoryEntry, TransactionObject, TransactionRecord } from '../../core/state';

/** The order list's 17 filters, as parsed by parseListQuery. */
export interface TransactionFilters {
	p_order_id?: string;
	transaction_id?: string;
	status?: string;
	payment_method?: string;
	/** Card PAN or payment method id. */
	payment_method_id?: string;
	m_payment_token?: string;
	/** First 6-8 digits of the PAN. */
	card_bin?: string;
	/** PSP code. */
	processor?: string;
	currency_code?: string;
	/** YYYY-MM-DD, inclusive, on the (UTC) transaction date. */
	from_date?: string;
	to_date?: string;
	min_amount?: number;
	max_amount?: number;
	m_customer_id?: string;
	customer_email?: string;
	customer_mobile?: string;
	/** Billing country, ISO 3166-1 alpha-2. */
	customer_country?: string;
}

export const FILTER_NAMES = [
	'p_order_id',
	'transaction_id',
	'status',
	'payment_method',
	'payment_method_id',
	'm_payment_token',
	'card_bin',
	'processor',
	'currency_code',
	'from_date',
	'to_date',
	'min_amount',
	'max_amount',
	'm_customer_id',
	'customer_email',
	'customer_mobile',
	'customer_country',
] as const satisfies readonly (keyof TransactionFilters)[];

export interface ListQuery {
	/** Absent: no pagination, every matching record. */
	page?: number;
	perpage: number;
	filters: TransactionFilters;
}

const DAY_MS = 86_400_000;

/** Epoch ms of a valid YYYY-MM-DD day (UTC), else undefined. */
function dayStart(text: string): number | undefined {
	const found = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
	if (!found) return undefined;
	const [year, month, day] = found.slice(1).map(Number);
	const time = Date.UTC(year, month - 1, day);
	// Date.UTC rolls 02-30 over to March; a real date survives the round trip.
	return new Date(time).getUTCDate() === day && month >= 1 && month <= 12 ? time : undefined;
}

/**
 * Validates the list query. Empty values count as absent (form clients send them);
 * status_code and unknown parameters are ignored, as the spec says for status_code.
 */
export function parseListQuery(query: Record<string, string>): ListQuery | { error: string } {
	const given = (name: string) => (query[name] === '' ? undefined : query[name]);
	const result: ListQuery = { perpage: 100, filters: {} };

	const page = given('page');
	if (page !== undefined) {
		const { min = 1 } = ruleAt(ORDER_LIST.fields, 'page');
		if (!/^\d+$/.test(page) || Number(page) < min) {
			return { error: `page must be an integer of at least ${min}, got ${quote(page)}` };
		}
		result.page = Number(page);
	}
	const perpage = given('perpage');
	if (perpage !== undefined) {
		const { min = 1, max = Infinity } = ruleAt(ORDER_LIST.fields, 'perpage');
		if (!/^\d+$/.test(perpage) || Number(perpage) < min || Number(perpage) > max) {
			const rule = `an integer between ${min} and ${max}`;
			return { error: `perpage must be ${rule}, got ${quote(perpage)}` };
		}
		result.perpage = Number(perpage);
	}

	for (const name of FILTER_NAMES) {
		const value = given(name);
		if (value === undefined) continue;
		if (name === 'from_date' || name === 'to_date') {
			if (dayStart(value) === undefined) {
				return { error: `${name} must be a date in YYYY-MM-DD format, got ${quote(value)}` };
			}
			result.filters[name] = value;
		} else if (name === 'min_amount' || name === 'max_amount') {
			if (!/^\d+(\.\d+)?$/.test(value)) {
				return { error: `${name} must be a number, got ${quote(value)}` };
			}
			result.filters[name] = Number(value);
		} else {
			result.filters[name] = value;
		}
	}
	return result;
}

type Predicate = (r: TransactionRecord) => boolean;

/** The records matching every given filter, in input order (the list is newest first). */
export function filterTransactions(
	records: readonly TransactionRecord[],
	filters: TransactionFilters,
): TransactionRecord[] {
	const f = filters;
	const checks: Predicate[] = [];
	const add = (given: unknown, check: Predicate) => {
		if (given !== undefined) checks.push(check);
	};
	add(f.p_order_id, (r) => r.p_order_id === f.p_order_id);
	add(f.transaction_id, (r) => r.transaction_id === f.transaction_id);
	add(f.status, (r) => r.status === f.status!.toUpperCase());
	add(f.payment_method, (r) => r.payment_method === f.payment_method);
	add(
		f.payment_method_id,
		(r) =>
			r.internal.card_pan === f.payment_method_id ||
			r.internal.payment_method_id === f.payment_method_id,
	);
	add(f.m_payment_token, (r) => r.m_payment_token === f.m_payment_token);
	// Anything but 6-8 digits is no BIN, so it matches nothing.
	const validBin = /^\d{6,8}$/.test(f.card_bin ?? '');
	add(f.card_bin, (r) => validBin && r.internal.card_pan.startsWith(f.card_bin!));
	add(f.processor, (r) => r.psp === f.processor);
	add(f.currency_code, (r) => r.currency === f.currency_code!.toUpperCase());
	const from = f.from_date === undefined ? undefined : dayStart(f.from_date);
	const to = f.to_date === undefined ? undefined : dayStart(f.to_date);
	add(f.from_date, (r) => from !== undefined && r.internal.time >= from);
	add(f.to_date, (r) => to !== undefined && r.internal.time < to + DAY_MS);
	add(f.min_amount, (r) => Number(r.amount) >= f.min_amount!);
	add(f.max_amount, (r) => Number(r.amount) <= f.max_amount!);
	// A guest payment has no customer ID: '' asks for those.
	add(f.m_customer_id, (r) => (r.m_customer_id ?? '') === f.m_customer_id);
	add(f.customer_email, (r) => r.internal.customer_email === f.customer_email);
	add(f.customer_mobile, (r) => r.internal.customer_mobile === f.customer_mobile);
	add(f.customer_country, (r) => r.internal.billing_country === f.customer_country!.toUpperCase());
	return records.filter((r) => checks.every((check) => check(r)));
}

/** The list's view of a record: the spec's Transaction object, no internal-only fields. */
export function toTransactionObject(record: TransactionRecord): TransactionObject {
	const { internal, reason, ...object } = record;
	return object;
}

export type PosOrder = Omit<TransactionObject, 'p_request_id'> & {
	p_request_id: string;
	reason: string;
	transaction_history: HistoryEntry[];
};

/** The POS lookup's view: adds reason and history; p_request_id is a string there. */
export function toPosOrder(record: TransactionRecord): PosOrder {
	const { internal, p_request_id, ...rest } = record;
	return {
		...rest,
		p_request_id: String(p_request_id),
		transaction_history: internal.history.map((entry) => ({ ...entry })),
	};
}
