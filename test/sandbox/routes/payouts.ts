import { json } from '../http';
import { parseMultipart } from '../multipart';
import { PAYOUT_PREFIX, type RouteModule } from '../router';

/** Payout API under {payout_url}: bearer token issuance and bulk payouts. */
export const registerPayoutRoutes: RouteModule = (router, env) => {
	// Our assumption (the spec does not show it): the payout key pair in merchant-key/-secret.
	router.add({
		method: 'GET',
		path: `${PAYOUT_PREFIX}/v1/token`,
		auth: { keys: ['payout'] },
		handler: () => {
			const { token } = env.state.issuePayoutToken();
			return json(200, {
				status: 'success',
				code: '00',
				message: 'Token generated successfully',
				data: {
					access_token: token,
					token_type: 'Bearer',
					expires_in: env.state.tokenLifetimeSeconds,
				},
			});
		},
	});

	router.add({
		method: 'POST',
		path: `${PAYOUT_PREFIX}/v1/bulk/payouts`,
		auth: 'payoutBearer',
		handler: ({ body, headers }) => {
			const parts = parseMultipart(body, headers['content-type']) ?? [];
			if (!parts.some((part) => part.name === 'payout_file')) {
				return json(400, { status: 'fail', code: '400', message: 'payout_file is required' });
			}
			// Field, checksum and spreadsheet validation and queueing come with the payout work.
			return json(501, {
				status: 'fail',
				code: '501',
				message: 'Bulk payout processing is not simulated yet',
			});
		},
	});
};
