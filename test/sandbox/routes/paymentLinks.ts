import { badRequest, json } from '../http';
import type { RouteModule } from '../router';

/** Payment links (Payment Link channel key). Deactivate only; bulk upload comes later. */
export const registerPaymentLinkRoutes: RouteModule = (router, env) => {
	router.add({
		method: 'POST',
		path: '/payment-links/v1/deactivate',
		auth: { keys: ['paymentLink'] },
		body: 'json',
		handler: ({ json: body }) => {
			const dataId = (body as { data_id?: unknown } | undefined)?.data_id;
			if (typeof dataId !== 'string' || dataId === '') return badRequest('data_id is required');
			const link = env.state.paymentLinks.get(dataId);
			// Only an active link can be deactivated; expired ones count as "not found" here.
			if (link?.status !== 'Active') {
				return json(400, {
					status: 'fail',
					code: 'E0021',
					message: 'Payment link record not found or already deactivated',
				});
			}
			link.status = 'Deactivated';
			return json(200, {
				status: 'success',
				code: '00',
				message: 'Payment link deactivated successfully',
			});
		},
	});
};
