// The transaction records the order list, the POS lookup and every payment flow share.

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
	/** Absent for a guest payment (no customer, so no saved card either). */
	m_customer_id?: string;
	m_payment_token?: string;
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

/** Newer first; equal times by p_request_id, higher first, so the order is total and stable. */
export const newestFirst = (a: TransactionRecord, b: TransactionRecord): number =>
	b.internal.time - a.internal.time || b.p_request_id - a.p_request_id;
