export interface PaymentLinkRecord {
	data_id: string;
	link_id: string;
	qr_id: string;
	payment_link: string;
	amount: string;
	currency: string;
	status: 'Active' | 'Deactivated' | 'Expired';
	/** Bulk-created links: upload number (1-based), spreadsheet row, typed columns. */
	upload?: number;
	row?: number;
	columns?: Record<string, string | number | null>;
	createdAt?: number;
}

/** An accepted payment link bulk upload (its file kept for tests). */
export interface PaymentLinkUpload {
	/** 1-based, as in /__sandbox/payment-links/uploads/:n/file. */
	upload: number;
	file_name: string;
	data: Buffer;
	uploadedAt: number;
	total_records: number;
	/** data_ids of the created links, in row order. */
	links: string[];
	failed_rows: { row: number; reason: string }[];
}
