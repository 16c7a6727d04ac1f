/** An accepted document upload. */
export interface StoredDocument {
	m_order_id: string;
	p_order_id: string;
	transaction_id: string;
	document_type: 'INVOICE' | 'AWB';
	document_ref: string;
	psp: string;
	file_name: string;
	content_type: string;
	data: Buffer;
	uploadedAt: number;
}
