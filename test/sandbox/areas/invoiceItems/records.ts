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
