import type { IDataObject } from 'n8n-workflow';

export interface PageResult {
	records: IDataObject[];
	/** total_records, when the service gave a number. */
	total?: number;
}

/** Stops a runaway walk if a service ignored `page` and never sent a short page. */
const MAX_PAGES = 100000;

/**
 * Walks page-numbered lists: with Return All until total_records are collected (or a short page
 * ends the list when no total is given), otherwise until Limit. The page size stays fixed across
 * pages because the service numbers pages by it.
 */
export async function collectPages(
	fetchPage: (page: number, perPage: number) => Promise<PageResult>,
	options: { returnAll: boolean; limit: number; maxPerPage: number },
): Promise<IDataObject[]> {
	const perPage = options.returnAll
		? options.maxPerPage
		: Math.max(1, Math.min(options.maxPerPage, options.limit));
	const collected: IDataObject[] = [];
	for (let page = 1; page <= MAX_PAGES; page++) {
		const { records, total } = await fetchPage(page, perPage);
		collected.push(...records);
		if (records.length === 0 || records.length < perPage) break;
		if (total !== undefined && collected.length >= total) break;
		if (!options.returnAll && collected.length >= options.limit) break;
	}
	return options.returnAll ? collected : collected.slice(0, options.limit);
}
