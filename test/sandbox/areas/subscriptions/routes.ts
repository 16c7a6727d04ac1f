import { HttpError, json, type Reply } from '../../core/http';
import type { RouteModule } from '../../core/router';
import { createPlan } from './model';
import { page } from '../paymentLinks/routes';

/** Subscription errors say status "error" (the spec: status is success or error). */
const error = (status: number, message: string): Reply =>
	json(status, { status: 'error', code: String(status), message });

/** Subscription plans (Subscription channel key). */
export const registerSubscriptionRoutes: RouteModule = (router, env) => {
	router.add({
		method: 'POST',
		path: '/subscriptions/v1/add',
		auth: { keys: ['subscription'] },
		body: 'json',
		handler: ({ json: body }) => {
			try {
				const { data_id, plan_id, qr_code, link } = createPlan(env.state, body);
				// The spec shows these at the top level, not under data.
				return json(200, {
					data_id,
					plan_id,
					qr_code,
					link,
					message: 'Subscription plan created successfully',
					status: 'success',
					code: '00',
				});
			} catch (caught) {
				if (caught instanceof HttpError) return error(caught.status, caught.message);
				throw caught;
			}
		},
	});

	// The plan's link: a page naming the plan, so the link in responses leads somewhere.
	router.add({
		method: 'GET',
		path: '/checkout/subscribe/:data_id',
		auth: 'none',
		handler: ({ params }) => {
			const plan = env.state.subscriptionPlans.get(params.data_id);
			if (!plan) return page(404, 'Subscription not found', []);
			const { plan_name, installment_amount, billing_frequency } = plan.request;
			return page(200, `Subscribe: ${plan_name}`, [
				['Plan', plan.plan_id],
				['Amount', `${installment_amount.currency} ${installment_amount.value}`],
				['Billing', `${billing_frequency.frequency}, every ${billing_frequency.interval}`],
			]);
		},
	});

	router.add({
		method: 'GET',
		path: '/__sandbox/subscription-plans',
		auth: 'none',
		handler: () =>
			json(200, { status: 'success', data: [...env.state.subscriptionPlans.values()] }),
	});
};
