import { generalError, HttpError, json, replyOrError } from '../../core/http';
import { serializeLogEntry } from '../../core/log';
import type { CompleteOutcome } from '../payments/model';
import type { RouteModule } from '../../core/router';
import { toPosOrder } from '../transactions/model';

/** Test controls for out-of-process clients; not part of the service, never logged or faulted. */
export const CONTROL_PREFIX = '/__sandbox/';

export const registerControlRoutes: RouteModule = (router, env) => {
	const ok = (extra: object = {}) => json(200, { status: 'success', ...extra });
	router.add({
		method: 'POST',
		path: '/__sandbox/faults',
		auth: 'none',
		body: 'json',
		handler: ({ json: fault }) => {
			try {
				env.faults.inject(fault as never);
			} catch (error) {
				return json(400, { status: 'fail', code: '400', message: (error as Error).message });
			}
			return json(201, { status: 'success', pending: env.faults.pending() });
		},
	});
	router.add({
		method: 'DELETE',
		path: '/__sandbox/faults',
		auth: 'none',
		handler: () => {
			env.faults.clear();
			return ok();
		},
	});
	router.add({
		method: 'GET',
		path: '/__sandbox/requests',
		auth: 'none',
		handler: () => ok({ data: env.requests.map(serializeLogEntry) }),
	});
	router.add({
		method: 'DELETE',
		path: '/__sandbox/requests',
		auth: 'none',
		handler: () => {
			env.requests.length = 0;
			return ok();
		},
	});
	router.add({
		method: 'GET',
		path: '/__sandbox/state/summary',
		auth: 'none',
		handler: () =>
			ok({
				data: {
					...env.state.summary(),
					requests: env.requests.length,
					pendingFaults: env.faults.pending(),
				},
			}),
	});
	const badControl = (error: Error) => generalError(400, '400', error.message);

	router.add({
		method: 'GET',
		path: '/__sandbox/settings',
		auth: 'none',
		handler: () => ok({ data: env.state.settings }),
	});
	router.add({
		method: 'PUT',
		path: '/__sandbox/settings',
		auth: 'none',
		body: 'json',
		handler: ({ json: patch }) => {
			try {
				return ok({ data: env.state.updateSettings(patch) });
			} catch (error) {
				return badControl(error as Error);
			}
		},
	});
	router.add({
		method: 'DELETE',
		path: '/__sandbox/settings',
		auth: 'none',
		handler: () => ok({ data: env.state.resetSettings() }),
	});

	// Webhook events; ?p_order_id= narrows, ?pending=true keeps undelivered ones.
	router.add({
		method: 'GET',
		path: '/__sandbox/events',
		auth: 'none',
		handler: ({ query }) =>
			ok({
				data: env.state.events.filter(
					(e) =>
						(!query.p_order_id || e.p_order_id === query.p_order_id) &&
						(query.pending !== 'true' || e.pending),
				),
			}),
	});
	router.add({
		method: 'DELETE',
		path: '/__sandbox/events',
		auth: 'none',
		handler: () => {
			env.state.events.length = 0;
			return ok();
		},
	});

	// Webhook delivery; these answer 202 at once, GET /__sandbox/webhooks/idle waits for the end.
	router.add({
		method: 'POST',
		path: '/__sandbox/webhooks/deliver',
		auth: 'none',
		body: 'json',
		handler: ({ json: body }) => {
			const { order = 'created' } = (body ?? {}) as Record<string, unknown>;
			if (order !== 'created' && order !== 'reverse') {
				return badControl(new Error("order must be 'created' or 'reverse'"));
			}
			const events = env.webhooks.pendingEvents({ order });
			void env.webhooks.deliverInOrder(events);
			return json(202, { status: 'success', data: events.map((e) => e.id) });
		},
	});
	router.add({
		method: 'POST',
		path: '/__sandbox/events/:id/redeliver',
		auth: 'none',
		handler: ({ params }) =>
			replyOrError(() => {
				const { event } = env.webhooks.startRedelivery(params.id);
				return json(202, { status: 'success', data: event });
			}),
	});
	router.add({
		method: 'GET',
		path: '/__sandbox/webhooks/attempts',
		auth: 'none',
		handler: ({ query }) =>
			ok({
				data: env.state.webhookAttempts.filter(
					(a) => !query.event_id || a.eventId === query.event_id,
				),
			}),
	});
	router.add({
		method: 'DELETE',
		path: '/__sandbox/webhooks/attempts',
		auth: 'none',
		handler: () => {
			env.state.webhookAttempts.length = 0;
			return ok();
		},
	});
	router.add({
		method: 'GET',
		path: '/__sandbox/webhooks/idle',
		auth: 'none',
		handler: async () => {
			await env.webhooks.idle();
			return ok();
		},
	});

	router.add({
		method: 'GET',
		path: '/__sandbox/orders/:p_order_id',
		auth: 'none',
		handler: ({ params }) => {
			const order = env.state.orders.get(params.p_order_id);
			const record = env.state.transactionsByPOrderId.get(params.p_order_id);
			if (!order || !record) return generalError(404, '404', 'Order not found');
			return ok({ data: { ...order, transaction: toPosOrder(record) } });
		},
	});
	// Completes a hosted payment without a browser: { outcome, card?, otp? }.
	router.add({
		method: 'POST',
		path: '/__sandbox/orders/:p_order_id/complete',
		auth: 'none',
		body: 'json',
		handler: ({ params, json: body }) =>
			replyOrError(() => {
				const { outcome, card, otp } = (body ?? {}) as Record<string, unknown>;
				for (const [name, value] of Object.entries({ card, otp })) {
					if (value !== undefined && typeof value !== 'string') {
						throw new HttpError(400, `${name} must be a string`);
					}
				}
				const result = env.state.completeOrder(
					params.p_order_id,
					outcome as CompleteOutcome,
					card as string | undefined,
					otp as string | undefined,
				);
				return json(200, result);
			}),
	});

	// Adds or replaces a token: { token?, m_customer_id, psp?, mitEligible?, scheme?, … }.
	router.add({
		method: 'POST',
		path: '/__sandbox/tokens',
		auth: 'none',
		body: 'json',
		handler: ({ json: body }) => {
			const input = (body ?? {}) as Record<string, unknown>;
			if (typeof input.m_customer_id !== 'string') {
				return badControl(new Error('m_customer_id is required'));
			}
			if (input.mitEligible !== undefined && typeof input.mitEligible !== 'boolean') {
				return badControl(new Error('mitEligible must be true or false'));
			}
			return json(201, { status: 'success', data: env.state.addToken(input as never) });
		},
	});

	router.add({
		method: 'GET',
		path: '/__sandbox/documents',
		auth: 'none',
		// Metadata only; the bytes stay in state.documents.
		handler: () =>
			ok({
				data: env.state.documents.map(({ data, ...rest }) => ({ ...rest, size: data.length })),
			}),
	});

	router.add({
		method: 'POST',
		path: '/__sandbox/payout-tokens/expire',
		auth: 'none',
		handler: () => {
			env.state.expirePayoutTokens();
			return ok();
		},
	});
};
