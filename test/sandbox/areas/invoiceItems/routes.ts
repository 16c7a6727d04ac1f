import { badRequest, json, quote, replyOrError } from '../../core/http';
import { addItem, deleteItem, findItem, itemDetails, setItemStatus, updateItem } from './model';
import type { RouteModule, RequestContext } from '../../core/router';
import { INVOICE_ITEM_LIST } from './rules';
import { ruleAt, textFits } from '../../rules/types';
import type { SandboxState } from '../../core/state';

type Operation = (state: SandboxState, body: unknown) => object | undefined;

/** Invoice items (Invoice channel key): the spec's seven endpoints. */
export const registerInvoiceRoutes: RouteModule = (router, env) => {
	const done = (message: string, data?: object) =>
		json(200, { ...(data && { data }), message, status: 'success', code: '00' });

	// POST endpoints; errors are the general body (400 validation, 404 unknown data_id).
	const posts: [path: string, message: string, run: Operation][] = [
		[
			'add',
			'Item added successfully',
			(state, body) => {
				const { item_id, data_id } = addItem(state, body);
				return { item_id, data_id };
			},
		],
		['update', 'Item updated successfully', (state, body) => void updateItem(state, body)],
		[
			'deactivate',
			'Item deactivated successfully',
			(state, body) => void setItemStatus(state, body, 'Deactivated'),
		],
		[
			'activate',
			'Item activated successfully',
			(state, body) => void setItemStatus(state, body, 'Active'),
		],
		['delete', 'Item deleted successfully', (state, body) => void deleteItem(state, body)],
	];
	for (const [name, message, run] of posts) {
		router.add({
			method: 'POST',
			path: `/invoice/v1/items/${name}`,
			auth: { keys: ['invoice'] },
			body: 'json',
			handler: ({ json: body }: RequestContext) =>
				replyOrError(() => done(message, run(env.state, body))),
		});
	}

	router.add({
		method: 'GET',
		path: '/invoice/v1/items/details',
		auth: { keys: ['invoice'] },
		handler: ({ query }) =>
			replyOrError(() =>
				done('Item details fetched successfully', itemDetails(findItem(env.state, query.data_id))),
			),
	});

	router.add({
		method: 'GET',
		path: '/invoice/v1/items/list',
		auth: { keys: ['invoice'] },
		handler: ({ query }) => {
			const bounds: Record<string, number> = {};
			for (const name of ['perpage', 'page']) {
				const { min = 1, max = Infinity } = ruleAt(INVOICE_ITEM_LIST.fields, name);
				const value = query[name];
				if (value === undefined || value === '') return badRequest(`${name} is required`);
				if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
					return badRequest(
						`${name} must be an integer between ${min} and ${max}, got ${quote(value)}`,
					);
				}
				bounds[name] = Number(value);
			}
			const status = query.status || undefined;
			const statusRule = ruleAt(INVOICE_ITEM_LIST.fields, 'status');
			if (status !== undefined && !textFits(statusRule, status)) {
				const allowed = statusRule.oneOf?.join(' or ');
				return badRequest(`status must be ${allowed}, got ${quote(status)}`);
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
