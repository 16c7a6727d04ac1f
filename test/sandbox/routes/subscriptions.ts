import { json } from '../http';
import type { RouteModule } from '../router';

// Required keys of the spec's "Subscription plan (create input)" table, in table order.
const REQUIRED = [
	'plan_name',
	'billing_frequency',
	'billing_frequency.frequency',
	'billing_frequency.interval',
	'installment_amount',
	'installment_amount.currency',
	'installment_amount.value',
	'terms',
	'terms.unlimited',
	'terms.value', // only when terms.unlimited is "no"
	'initial_payment_amount',
	'final_payment_amount',
	'shipping_fee',
	'convenience_fee',
	'start_date',
	'customer_emails',
	'customer_email_cc',
	'subject',
	'product_details',
];

const error = (status: number, message: string) =>
	json(status, { status: 'error', code: String(status), message });

function valueAt(body: Record<string, unknown>, path: string): unknown {
	let value: unknown = body;
	for (const key of path.split('.')) {
		const isObject = typeof value === 'object' && value !== null;
		value = isObject ? (value as Record<string, unknown>)[key] : undefined;
	}
	return value;
}

/** Subscription plans (Subscription channel key). */
export const registerSubscriptionRoutes: RouteModule = (router) => {
	router.add({
		method: 'POST',
		path: '/subscriptions/v1/add',
		auth: { keys: ['subscription'] },
		body: 'json',
		handler: ({ json: body }) => {
			if (typeof body !== 'object' || body === null || Array.isArray(body)) {
				return error(400, 'Request body must be a JSON object');
			}
			const plan = body as Record<string, unknown>;
			for (const field of REQUIRED) {
				if (field === 'terms.value' && valueAt(plan, 'terms.unlimited') !== 'no') continue;
				// Empty strings are allowed (the email keys must be sent empty to skip email).
				if (valueAt(plan, field) === undefined || valueAt(plan, field) === null) {
					return error(400, `${field} is required`);
				}
			}
			// Rule checks beyond required keys (lengths, ranges, dates, email rules) and the
			// created plan come with the subscription work; until then say so instead of faking it.
			return error(501, 'Subscription plan creation is not simulated yet');
		},
	});
};
