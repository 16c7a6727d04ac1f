import { badRequest, json } from '../http';
import type { RouteModule } from '../router';
import { filterTransactions, parseListQuery, toTransactionObject } from '../transactions';

/** Order endpoints (hosted, SDK and S2S keys). Create, manage and documents come later. */
export const registerOrderRoutes: RouteModule = (router, env) => {
	router.add({
		method: 'GET',
		path: '/orders/v1/transaction-list',
		auth: { keys: ['hosted', 'sdk', 's2s'] },
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
