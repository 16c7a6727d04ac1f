import { badRequest, json, quote } from '../http';
import type { RouteModule } from '../router';

/** Invoice items (Invoice channel key). Only the list so far; the item operations come later. */
export const registerInvoiceRoutes: RouteModule = (router, env) => {
	router.add({
		method: 'GET',
		path: '/invoice/v1/items/list',
		auth: { keys: ['invoice'] },
		handler: ({ query }) => {
			const bounds: Record<string, number> = {};
			for (const name of ['perpage', 'page']) {
				const value = query[name];
				if (value === undefined || value === '') return badRequest(`${name} is required`);
				if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 1000) {
					return badRequest(`${name} must be an integer between 1 and 1000, got ${quote(value)}`);
				}
				bounds[name] = Number(value);
			}
			const status = query.status || undefined;
			if (status !== undefined && status !== 'Active' && status !== 'Deactivated') {
				return badRequest(`status must be Active or Deactivated, got ${quote(status)}`);
			}
			// Newest first; item_no numbers the rows of the whole (filtered) listing.
			const items = [...env.state.invoiceItems.values()]
				.reverse()
				.filter((item) => status === undefined || item.status === status);
			const start = (bounds.page - 1) * bounds.perpage;
			return json(200, {
				data: items
					.slice(start, start + bounds.perpage)
					.map((item, i) => ({ item_no: String(start + i + 1), ...item })),
				message: 'Items fetched successfully',
				status: 'success',
				code: '00',
				total_records: items.length,
			});
		},
	});
};
