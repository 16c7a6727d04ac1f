import { json } from '../http';
import { serializeLogEntry } from '../log';
import type { RouteModule } from '../router';

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
