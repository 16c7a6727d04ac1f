import { json } from '../../core/http';
import type { RouteModule } from '../../core/router';
import { toPosOrder } from './model';

/** POS order lookup. Its key pair travels in merchant-key / merchant-secret (our assumption). */
export const registerPosRoutes: RouteModule = (router, env) => {
	router.add({
		method: 'GET',
		path: '/pos/v1/orders/:order_id',
		auth: { keys: ['pos'] },
		handler: ({ params }) => {
			// order_id is the service's p_order_id.
			const record = env.state.transactionsByPOrderId.get(params.order_id);
			if (!record) return json(404, { status: 'fail', code: '404', message: 'Order not found' });
			return json(200, {
				data: toPosOrder(record),
				message: 'Order details fetched successfully',
				status: 'success',
				code: '00',
			});
		},
	});
};
