import type { IDataObject } from 'n8n-workflow';

/** One page of a page-numbered list, as actions/list.pages.ts walks them. */
export interface PageResult {
	records: IDataObject[];
	/** total_records, when the service gave a number. */
	total?: number;
}
