import { generalError, invalidKeys, type Reply } from './http';
import { keyPairOf } from './keys';
import type { AuthRule, RouteEnv } from './router';

export const invalidToken = (): Reply =>
	generalError(401, '401', 'Invalid or expired access token');

/** undefined when the request may proceed, else the 401 reply. */
export function authenticate(
	rule: AuthRule,
	headers: Record<string, string>,
	env: RouteEnv,
): Reply | undefined {
	if (rule === 'none') return undefined;
	if (rule === 'payoutBearer') {
		const token = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '')?.[1];
		return token && env.state.isPayoutTokenValid(token) ? undefined : invalidToken();
	}
	const key = headers['merchant-key'];
	const secret = headers['merchant-secret'];
	const accepted = rule.keys.some((channel) => {
		const [expectedKey, expectedSecret] = keyPairOf(env.keys, channel);
		return key === expectedKey && secret === expectedSecret;
	});
	return accepted ? undefined : invalidKeys();
}
