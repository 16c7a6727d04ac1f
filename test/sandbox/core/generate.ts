import type { HistoryEntry, KeyedValue, TransactionRecord, TransactionStatus } from './state';

// Module-level aliases: under jest's vm context every global lookup (Math, Date, String) is slow,
// and the generator makes millions of them for 100,000 records.
const { floor, imul, round, max } = Math;
const UtcDate = Date;

/** Small fast seeded PRNG: same seed, same sequence, in [0, 1). */
/** Single-key objects ({ alpha: 'x' }) for the keys given a value, in key order. */
function keyedValues(values: Record<string, string>): KeyedValue[] {
	return Object.entries(values)
		.filter(([, value]) => value !== '')
		.map(([key, value]) => ({ [key]: value }));
}

export function mulberry32(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = imul(a ^ (a >>> 15), a | 1);
		t ^= t + imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const pad = (n: number, width: number) => `${n}`.padStart(width, '0');

/** DD-MM-YYYY HH:mm:ss in UTC, the spec's transaction_date form. */
export function formatTransactionDate(time: number): string {
	return formatDateTime(time, '-');
}

/** DD{sep}MM{sep}YYYY in UTC. */
export function formatDay(time: number, separator: '-' | '/'): string {
	const d = new UtcDate(time);
	return [pad(d.getUTCDate(), 2), pad(d.getUTCMonth() + 1, 2), d.getUTCFullYear()].join(separator);
}

/** DD{sep}MM{sep}YYYY HH:mm:ss in UTC; the spec shows both separators. */
export function formatDateTime(time: number, separator: '-' | '/'): string {
	const d = new UtcDate(time);
	const day = [pad(d.getUTCDate(), 2), pad(d.getUTCMonth() + 1, 2), d.getUTCFullYear()];
	return (
		`${day.join(separator)} ` +
		`${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}`
	);
}

/** Decimal text with the currency's minor units (three for the dinars and rial). */
export function formatAmount(value: number, currency: string): string {
	return value.toFixed(minorDigits(currency));
}

/** Decimal places of a currency: three for the dinars and the rial, else two. */
export function minorDigits(currency: string): number {
	return ['KWD', 'BHD', 'OMR'].includes(currency) ? 3 : 2;
}

const COUNTRIES: Record<string, string> = {
	AE: '971',
	SA: '966',
	QA: '974',
	KW: '965',
	BH: '973',
	OM: '968',
	IN: '91',
	GB: '44',
	US: '1',
	DE: '49',
};
const FIRST = ['Aisha', 'Omar', 'Layla', 'Yusuf', 'Sara', 'Ravi', 'Emma', 'Liam', 'Noor', 'Hana'];
const LAST = ['Khan', 'Haddad', 'Smith', 'Patel', 'Nasser', 'Meyer', 'Rahman', 'Jones'];
const BINS: [scheme: string, bin: string][] = [
	['VISA', '411111'],
	['VISA', '424242'],
	['VISA', '45320151'],
	['VISA', '476173'],
	['MASTERCARD', '510510'],
	['MASTERCARD', '555555'],
	['MASTERCARD', '52222299'],
];
const PSPS = ['MPGS', 'CYBERSOURCE', 'CHECKOUT', 'NI'];
/** The spec's supported order currencies. */
export const CURRENCIES = ['AED', 'USD', 'EUR', 'GBP', 'INR', 'SAR', 'QAR', 'KWD', 'BHD', 'OMR'];
const CHANNELS: [name: string, id: string, weight: number][] = [
	['HOSTED', '1', 45],
	['SDK', '2', 10],
	['S2S', '3', 10],
	['PAYMENT_LINK', '4', 15],
	['SUBSCRIPTION', '5', 7],
	['INVOICE', '6', 8],
	['POS', '7', 5],
];
const STATUSES: [TransactionStatus, number][] = [
	['CAPTURED', 40],
	['AUTHORISED', 12],
	['PENDING', 8],
	['FAILED', 10],
	['VOID', 6],
	['PARTIALLY_CAPTURE', 8],
	['PARTIALLY_REFUNDED', 8],
	['REFUNDED', 8],
];
const DECLINES = [
	'Insufficient funds',
	'Do not honour',
	'Card expired',
	'3DS authentication failed',
];
const YEAR_2026 = Date.UTC(2026, 0, 1);
const YEAR_SECONDS = 365 * 86400;

interface Card {
	scheme: string;
	pan: string;
	type: 'CREDIT' | 'DEBIT';
	country: string;
	token: string;
	paymentMethodId: string;
}

interface Customer {
	id: string;
	name: string;
	email: string;
	code: string;
	mobile: string;
	country: string;
	cards: Card[];
}

export function luhnCheckDigit(body: string): string {
	let sum = 0;
	for (let i = 0; i < body.length; i++) {
		let digit = Number(body[body.length - 1 - i]);
		if (i % 2 === 0) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
		sum += digit;
	}
	return String((10 - (sum % 10)) % 10);
}

/**
 * Reproducible transactions, newest first (time desc, then p_request_id desc): the same seed
 * gives identical records. Dates spread over 2026 (UTC); ids grow with time, so they are unique.
 */
export function generateTransactions(seed: number, count: number): TransactionRecord[] {
	const random = mulberry32(seed);
	const int = (low: number, high: number) => low + floor(random() * (high - low + 1));
	const pick = <T>(list: readonly T[]): T => list[floor(random() * list.length)];
	const weighted = <T>(list: readonly T[], weight: (item: T) => number): T => {
		let roll = random() * list.reduce((sum, item) => sum + weight(item), 0);
		for (const item of list) {
			roll -= weight(item);
			if (roll < 0) return item;
		}
		return list[list.length - 1];
	};
	const chars = (alphabet: string, length: number) => {
		let text = '';
		for (let i = 0; i < length; i++) text += alphabet[floor(random() * alphabet.length)];
		return text;
	};
	const digits = (length: number) => chars('0123456789', length);
	const hex = (length: number) => chars('0123456789abcdef', length);

	// A fixed pool, so customer filters match several records.
	const customers: Customer[] = [];
	for (let i = 0; i < 40; i++) {
		const [first, last] = [pick(FIRST), pick(LAST)];
		const country = pick(Object.keys(COUNTRIES));
		const cards: Card[] = [];
		for (let c = int(1, 2); c > 0; c--) {
			const [scheme, bin] = pick(BINS);
			const body = bin + digits(15 - bin.length);
			cards.push({
				scheme,
				pan: body + luhnCheckDigit(body),
				type: random() < 0.6 ? 'CREDIT' : 'DEBIT',
				country: random() < 0.8 ? country : pick(Object.keys(COUNTRIES)),
				token: `tok_${hex(24)}`,
				paymentMethodId: `pm_${hex(16)}`,
			});
		}
		customers.push({
			id: `CUST${pad(i + 1, 4)}`,
			name: `${first} ${last}`,
			email: `${first}.${last}${i + 1}@example.com`.toLowerCase(),
			code: COUNTRIES[country],
			// The index digits keep mobiles unique.
			mobile: `${COUNTRIES[country]}5${pad(i, 2)}${digits(6)}`,
			country,
			cards,
		});
	}

	const times = new Float64Array(count);
	for (let i = 0; i < count; i++) times[i] = YEAR_2026 + int(0, YEAR_SECONDS - 1) * 1000;
	times.sort();

	const records: TransactionRecord[] = new Array(count);
	let pOrderId = 40_000_000;
	let requestId = 700_000;
	let transactionId = 2_600_000_000;
	for (let i = 0; i < count; i++) {
		const time = times[i];
		const customer = pick(customers);
		const guest = random() < 0.1;
		const card = pick(customer.cards);
		const currency = pick(CURRENCIES);
		const [status] = weighted(STATUSES, (entry) => entry[1]);
		const [channel, channelId] = weighted(CHANNELS, (entry) => entry[2]);
		const wallet = random() < 0.15 ? pick(['Apple Pay', 'Google Pay']) : '';
		const minor = ['KWD', 'BHD', 'OMR'].includes(currency) ? 1000 : 100;
		// At least 10, so a partial refund of at least 1 still leaves a balance.
		const amount = int(10 * minor, 5000 * minor) / minor;
		const captured =
			status === 'PARTIALLY_CAPTURE'
				? round(amount * (0.2 + random() * 0.7) * minor) / minor
				: ['CAPTURED', 'PARTIALLY_REFUNDED', 'REFUNDED'].includes(status)
					? amount
					: 0;
		const refunded =
			status === 'REFUNDED'
				? amount
				: status === 'PARTIALLY_REFUNDED'
					? max(1, round(amount * (0.1 + random() * 0.8) * minor) / minor)
					: 0;
		const money = (value: number) => formatAmount(value, currency);
		pOrderId += int(1, 9);
		requestId += int(1, 5);
		transactionId += int(1, 50);

		// One history entry per state change the final status implies.
		const at = (offsetSeconds: number) => formatTransactionDate(time + offsetSeconds * 1000);
		const captureAt = int(2, 600);
		const laterAt = captureAt + int(3600, 10 * 86400);
		const history: HistoryEntry[] = [];
		const step = (s: TransactionStatus, value: number, offset: number) =>
			history.push({ status: s, amount: money(value), date: at(offset) });
		if (status === 'PENDING' || status === 'FAILED') step(status, amount, 0);
		else step('AUTHORISED', amount, 0);
		if (['CAPTURED', 'PARTIALLY_REFUNDED', 'REFUNDED'].includes(status)) {
			step('CAPTURED', amount, captureAt);
		}
		if (status === 'PARTIALLY_CAPTURE') step(status, captured, captureAt);
		if (status === 'VOID') step(status, amount, laterAt);
		if (status === 'PARTIALLY_REFUNDED' || status === 'REFUNDED') step(status, refunded, laterAt);

		// Only the keys that carry a value (each is optional): a list of five empty values reads
		// like data in n8n's output ("empty"), and most orders send none.
		const parameters = keyedValues({
			alpha: random() < 0.3 ? `ref-${hex(6)}` : '',
			beta: random() < 0.2 ? pick(['web', 'app']) : '',
		});
		const customData = keyedValues({ alpha: random() < 0.1 ? 'MID_GROUP_A' : '' });

		records[count - 1 - i] = {
			m_order_id: `MO-2026-${pad(i + 1, 6)}`,
			p_order_id: `${pOrderId}`,
			p_request_id: requestId,
			psp_ref_id: chars('ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 16),
			psp_txn_id: digits(12),
			transaction_id: `${transactionId}`,
			transaction_date: formatTransactionDate(time),
			status,
			currency,
			amount: money(amount),
			amount_captured: money(captured),
			psp: pick(PSPS),
			payment_method: wallet || (card.type === 'CREDIT' ? 'Credit Card' : 'Debit Card'),
			// A guest payment has no customer, and tokens belong to a customer: both left out.
			...(guest ? {} : { m_customer_id: customer.id, m_payment_token: card.token }),
			payment_method_data: {
				scheme: card.scheme,
				card_country: card.country,
				card_type: card.type,
				masked_pan: card.pan.slice(0, 6) + 'X'.repeat(card.pan.length - 10) + card.pan.slice(-4),
			},
			apm_name: wallet ? wallet.toUpperCase().replace(' ', '_') : '',
			apm_identifier: wallet ? `apm_${hex(12)}` : '',
			sub_merchant_identifier: random() < 0.2 ? `SUBM-${pad(int(1, 3), 3)}` : '',
			channel,
			channel_id: channelId,
			parameters,
			custom_data: customData,
			reason:
				status === 'FAILED'
					? pick(DECLINES)
					: status === 'VOID'
						? 'Voided by merchant'
						: refunded > 0
							? 'Customer request'
							: '',
			internal: {
				time,
				customer_name: customer.name,
				customer_email: customer.email,
				customer_code: customer.code,
				customer_mobile: customer.mobile,
				billing_country: customer.country,
				payment_method_id: card.paymentMethodId,
				card_pan: card.pan,
				amount_refunded: money(refunded),
				history,
			},
		};
	}
	return records;
}
