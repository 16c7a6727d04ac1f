import { randomBytes } from 'node:crypto';

import { generateTransactions } from './generate';

export const TRANSACTION_STATUSES = [
	'PENDING',
	'AUTHORISED',
	'CAPTURED',
	'PARTIALLY_CAPTURE',
	'VOID',
	'PARTIALLY_REFUNDED',
	'REFUNDED',
	'FAILED',
] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/** One single-key object of a parameters / custom_data array, e.g. { alpha: '' }. */
export type KeyedValue = Partial<Record<'alpha' | 'beta' | 'gamma' | 'delta' | 'epsilon', string>>;

/** transaction_history entry; the spec does not show its fields, so this shape is ours. */
export interface HistoryEntry {
	status: TransactionStatus;
	amount: string;
	date: string;
}

/** The spec's Transaction object exactly as the order list returns it. */
export interface TransactionObject {
	m_order_id: string;
	p_order_id: string;
	p_request_id: number;
	psp_ref_id: string;
	psp_txn_id: string;
	transaction_id: string;
	/** DD-MM-YYYY HH:mm:ss, UTC. */
	transaction_date: string;
	status: TransactionStatus;
	currency: string;
	amount: string;
	amount_captured: string;
	psp: string;
	payment_method: string;
	m_customer_id: string;
	m_payment_token: string;
	payment_method_data: {
		scheme: string;
		card_country: string;
		card_type: string;
		masked_pan: string;
	};
	apm_name: string;
	apm_identifier: string;
	sub_merchant_identifier: string;
	channel: string;
	channel_id: string;
	parameters: KeyedValue[];
	custom_data: KeyedValue[];
}

/** Internal record: the list fields plus what only the POS lookup, filters and later flows need. */
export interface TransactionRecord extends TransactionObject {
	/** Shown by the POS lookup only. */
	reason: string;
	internal: {
		/** transaction_date as epoch ms; the list's sort key. */
		time: number;
		customer_name: string;
		customer_email: string;
		customer_code: string;
		customer_mobile: string;
		billing_country: string;
		payment_method_id: string;
		card_pan: string;
		amount_refunded: string;
		history: HistoryEntry[];
	};
}

export interface InvoiceItemRecord {
	item_id: string;
	data_id: string;
	item_name: string;
	item_rate: number;
	item_category: string;
	item_description: string;
	submerchant_name: string;
	status: 'Active' | 'Deactivated';
	/** YYYY-MM-DD HH:mm:ss */
	created_date: string;
	last_modified_date: string;
}

export interface PaymentLinkRecord {
	data_id: string;
	link_id: string;
	qr_id: string;
	payment_link: string;
	amount: string;
	currency: string;
	status: 'Active' | 'Deactivated' | 'Expired';
}

export interface StateOptions {
	seed: number;
	transactionCount: number;
	tokenLifetimeSeconds: number;
}

/** Newer first; equal times by p_request_id, higher first, so the order is total and stable. */
export const newestFirst = (a: TransactionRecord, b: TransactionRecord): number =>
	b.internal.time - a.internal.time || b.p_request_id - a.p_request_id;

export class SandboxState {
	readonly seed: number;

	readonly tokenLifetimeSeconds: number;

	/** Always sorted by `newestFirst`; add through addTransaction to keep it so. */
	readonly transactions: TransactionRecord[];

	readonly transactionsByPOrderId = new Map<string, TransactionRecord>();

	readonly transactionsById = new Map<string, TransactionRecord>();

	/** Keyed by data_id, in creation order. Empty at start. */
	readonly invoiceItems = new Map<string, InvoiceItemRecord>();

	/** Keyed by data_id. Empty at start. */
	readonly paymentLinks = new Map<string, PaymentLinkRecord>();

	/** Issued payout bearer tokens: token → expiry (epoch ms). */
	readonly payoutTokens = new Map<string, number>();

	constructor(options: StateOptions) {
		this.seed = options.seed;
		this.tokenLifetimeSeconds = options.tokenLifetimeSeconds;
		this.transactions = generateTransactions(options.seed, options.transactionCount);
		for (const record of this.transactions) this.index(record);
	}

	/** Inserts at the position that keeps `transactions` newest first. */
	addTransaction(record: TransactionRecord): void {
		if (this.transactionsByPOrderId.has(record.p_order_id)) {
			throw new Error(`duplicate p_order_id ${record.p_order_id}`);
		}
		let low = 0;
		let high = this.transactions.length;
		while (low < high) {
			const mid = (low + high) >>> 1;
			if (newestFirst(this.transactions[mid], record) <= 0) low = mid + 1;
			else high = mid;
		}
		this.transactions.splice(low, 0, record);
		this.index(record);
	}

	issuePayoutToken(now = Date.now()): { token: string; expiresAt: number } {
		const token = randomBytes(24).toString('base64url');
		const expiresAt = now + this.tokenLifetimeSeconds * 1000;
		this.payoutTokens.set(token, expiresAt);
		return { token, expiresAt };
	}

	isPayoutTokenValid(token: string, now = Date.now()): boolean {
		const expiresAt = this.payoutTokens.get(token);
		return expiresAt !== undefined && expiresAt > now;
	}

	/** Makes every issued token expired (kept, so clients see "expired", as after the lifetime). */
	expirePayoutTokens(): void {
		for (const token of this.payoutTokens.keys()) this.payoutTokens.set(token, 0);
	}

	summary() {
		const byStatus: Record<string, number> = {};
		for (const t of this.transactions) byStatus[t.status] = (byStatus[t.status] ?? 0) + 1;
		const count = <T>(values: Iterable<T>, keep: (v: T) => boolean) =>
			[...values].filter(keep).length;
		return {
			seed: this.seed,
			transactions: this.transactions.length,
			transactionsByStatus: byStatus,
			invoiceItems: {
				total: this.invoiceItems.size,
				active: count(this.invoiceItems.values(), (i) => i.status === 'Active'),
			},
			paymentLinks: {
				total: this.paymentLinks.size,
				active: count(this.paymentLinks.values(), (l) => l.status === 'Active'),
			},
			payoutTokens: {
				issued: this.payoutTokens.size,
				valid: count(this.payoutTokens.keys(), (t) => this.isPayoutTokenValid(t)),
			},
		};
	}

	private index(record: TransactionRecord): void {
		this.transactionsByPOrderId.set(record.p_order_id, record);
		this.transactionsById.set(record.transaction_id, record);
	}
}
