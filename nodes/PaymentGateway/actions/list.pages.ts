import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { PageResult } from '../transport';
import type { ListSettings } from './list.fields';

/** Stops a runaway walk if a service ignored `page` and never sent a short page. */
const MAX_PAGES = 100000;

/**
 * Walks a page-numbered list and turns each record into its output item as its page arrives, so
 * no raw page outlives its turn and nothing is copied again at the end. With Return All it walks
 * until total_records (or a short page when no total is given), otherwise until Limit. The page
 * size stays fixed across pages because the service numbers pages by it.
 */
export async function walkPages(
	fetchPage: (page: number, perPage: number) => Promise<PageResult>,
	list: Pick<ListSettings, 'returnAll' | 'limit'>,
	maxPerPage: number,
	toItem: (record: IDataObject) => INodeExecutionData,
): Promise<INodeExecutionData[]> {
	const perPage = list.returnAll ? maxPerPage : Math.max(1, Math.min(maxPerPage, list.limit));
	const wanted = list.returnAll ? Infinity : list.limit;
	const out: INodeExecutionData[] = [];
	let seen = 0;
	for (let page = 1; page <= MAX_PAGES; page++) {
		const { records, total } = await fetchPage(page, perPage);
		seen += records.length;
		for (const record of records) {
			if (out.length >= wanted) break;
			out.push(toItem(record));
		}
		if (records.length === 0 || records.length < perPage) break;
		if (total !== undefined && seen >= total) break;
		if (out.length >= wanted) break;
	}
	return out;
}

/** The records of one list response and its total_records, when the service gave a number. */
export function pageOf(response: IDataObject): PageResult {
	const records = Array.isArray(response.data) ? (response.data as IDataObject[]) : [];
	const total = Number(response.total_records);
	return { records, total: Number.isFinite(total) ? total : undefined };
}
