import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { pageOf } from '../PaymentGateway/actions/list.pages';
import { LIST_MAX_PER_PAGE, listTransactions } from '../PaymentGateway/actions/transaction/list';
import { todayIn } from '../PaymentGateway/helpers/dates';
import type { Channel, NodeContext } from '../PaymentGateway/transport';
import { MAX_REMEMBERED } from './snapshot';

/** The one error of a window larger than the snapshot can hold: nothing is started or remembered. */
export const windowTooLarge = (node: INode) =>
	new NodeOperationError(
		node,
		`The look-back window holds more than ${MAX_REMEMBERED.toLocaleString('en-US')} transactions`,
		{
			description:
				'Nothing was started and nothing was remembered from this poll. Shorten Look-Back Window (Days) or add Filters, so that one poll reads fewer transactions.',
		},
	);

const DAY_MS = 86400000;

/** The window's first and last days: the service's time zone is not known, so the earlier today. */
export function windowDays(
	timeZone: string,
	lookBackDays: number,
	now: number,
): { since: string; today: string } {
	const local = todayIn(timeZone, now);
	const utc = todayIn('UTC', now);
	const today = local < utc ? local : utc;
	const since = new Date(Date.parse(`${today}T00:00:00Z`) - lookBackDays * DAY_MS)
		.toISOString()
		.slice(0, 10);
	return { since, today: local > utc ? local : utc };
}

/** Stops a walk whose pages never end (a service ignoring `page`): beyond what can be remembered. */
const MAX_PAGES = Math.ceil(MAX_REMEMBERED / LIST_MAX_PER_PAGE) + 10;

/**
 * Reads every transaction of the window, page after page, one request at a time, handing each
 * record to `see` as its page arrives; `onlyPages` stops earlier. `complete`: false when it stopped
 * because the window holds more than can be remembered.
 */
export async function walkWindow(
	ctx: NodeContext,
	channel: Channel,
	query: IDataObject,
	see: (record: IDataObject) => void,
	onlyPages?: number,
): Promise<{ pages: number; complete: boolean }> {
	let seen = 0;
	for (let page = 1; page <= MAX_PAGES; page++) {
		const response = await listTransactions(ctx, 0, channel, {
			...query,
			page,
			perpage: LIST_MAX_PER_PAGE,
		});
		const { records, total } = pageOf(response);
		for (const record of records) see(record);
		seen += records.length;
		const done = { pages: page, complete: true };
		if (records.length < LIST_MAX_PER_PAGE) return done;
		if (total !== undefined && seen >= total) return done;
		if (page === onlyPages) return done;
		if (seen > MAX_REMEMBERED) return { pages: page, complete: false };
	}
	return { pages: MAX_PAGES, complete: false };
}
