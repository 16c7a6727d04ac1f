import { badRequest, json, replyOrError } from '../../core/http';
import { ORDER_CHANNELS, createOrder } from './model';
import { manageTransaction } from '../payments/model';
import type { AuthRule, RouteModule } from '../../core/router';
import { filterTransactions, parseListQuery, toTransactionObject } from '../transactions/model';

const ORDER_KEYS: AuthRule = { keys: ['hosted', 'sdk', 's2s'] };

/** Order endpoints (hosted, SDK and S2S keys): create, manage payment, list. */
export const registerOrderRoutes: RouteModule = (router, env) => {
	router.add({
		method: 'POST',
		path: '/orders/v1/create',
		auth: ORDER_KEYS,
		handler: ({ headers, body }) => {
			// The spec requires JSON; checked before parsing so the message says why.
			if (!/^application\/json\b/i.test(headers['content-type'] ?? '')) {
				return badRequest('Content-Type must be application/json');
			}
			let parsed: unknown;
			try {
				parsed = JSON.parse(body.toString('utf8'));
			} catch {
				return badRequest('Malformed JSON body');
			}
			const key = headers['merchant-key'];
			const channel = (Object.keys(ORDER_CHANNELS) as (keyof typeof ORDER_CHANNELS)[]).find(
				(name) => env.keys[name].merchantKey === key,
			)!;
			return replyOrError(() => createOrder(env.state, parsed, channel));
		},
	});

	router.add({
		method: 'POST',
		path: '/orders/v1/transaction',
		auth: ORDER_KEYS,
		body: 'json',
		handler: ({ json: body }) => replyOrError(() => manageTransaction(env.state, body)),
	});

	router.add({
		method: 'GET',
		path: '/orders/v1/transaction-list',
		auth: ORDER_KEYS,
		handler: ({ query }) => {
			const parsed = parseListQuery(query);
			if ('error' in parsed) return badRequest(parsed.error);
			const matching = filterTransactions(env.state.transactions, parsed.filters);
			const { page, perpage } = parsed;
			const shown =
				page === undefined ? matching : matching.slice((page - 1) * perpage, page * perpage);
			return json(200, {
				data: shown.map(toTransactionObject),
				message: 'Transactions fetched successfully',
				status: 'success',
				code: '00',
				total_records: matching.length,
			});
		},
	});
};
