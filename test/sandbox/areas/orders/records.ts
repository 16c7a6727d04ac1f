/** A stored card token (m_payment_token). */
export interface PaymentToken {
	m_customer_id: string;
	/** Tokens work only with the PSP that issued them. */
	psp: string;
	/** Eligible for merchant-initiated payment; false = "mandate not registered". */
	mitEligible: boolean;
	scheme: string;
	mask_card_number: string;
	card_country: string;
	card_type: string;
	expiry_month: string;
	expiry_year: string;
}

export type OrderClass = 'ECOM' | 'CAUTH';
export type OrderAction = 'SALE' | 'AUTH' | 'AUTH_REVERSAL';

/** One recipient of a split payment, decoded from custom_data. */
export interface SplitRecipient {
	id: string;
	/** P = percentage of the order amount, F = flat amount. */
	type: 'P' | 'F';
	value: number;
}

/** A created order: the accepted request and how its hosted payment behaves. */
export interface OrderRecord {
	p_order_id: string;
	/** The accepted create request body, verbatim: { data: { ... } }. */
	request: { data: Record<string, any> };
	class: OrderClass;
	action: OrderAction;
	/** AUTOMATIC when omitted; CAUTH AUTH always holds funds (spec: captured via Manage Payment). */
	captureMethod: 'AUTOMATIC' | 'MANUAL';
	/** HOSTED, SDK or S2S: the channel of the key that created it. */
	channel: string;
	/** Empty unless custom_data carries |SPLIT_PAYMENT. */
	split: SplitRecipient[];
	/** The hosted page takes a payment: PENDING orders and declined pay-by-token orders. */
	open: boolean;
	createdAt: number;
}
