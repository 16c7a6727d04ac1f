/**
 * The webhook credential's notification secret, read for every delivery.
 *
 * `getCredentials` in a webhook costs most of a delivery (n8n resolves expressions in the
 * credential in an isolate: docs/performance.md). A secret stored as plain text needs none of that:
 * overwrites only fill empty values and the secret has no default. So the secret is read as stored
 * (../n8n-internals/stored-credential.ts); a secret that is an expression, an empty one, or an n8n
 * without that capability is read through `getCredentials`. Nothing is kept between deliveries: a
 * changed secret applies to the next one.
 */
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { n8nInternals, reportOnce } from '../n8n-internals';

export const WEBHOOK_CREDENTIAL = 'paymentGatewayWebhookApi';

/** The stored secret when it is plain text, else undefined (read it the usual way). */
async function storedPlainSecret(ctx: IWebhookFunctions): Promise<string | undefined> {
	const stored = n8nInternals.storedCredential(ctx);
	await reportOnce(n8nInternals, ctx.logger, stored);
	if (!stored.found) return undefined;
	let credential: IDataObject;
	try {
		credential = await stored.use.read(WEBHOOK_CREDENTIAL);
	} catch {
		return undefined; // getCredentials below reads it again and reports what failed
	}
	const secret = credential?.notificationSecret;
	return typeof secret === 'string' && secret !== '' && !secret.startsWith('=')
		? secret
		: undefined;
}

export async function notificationSecret(ctx: IWebhookFunctions): Promise<string> {
	const plain = await storedPlainSecret(ctx);
	if (plain !== undefined) return plain;
	const credentials = await ctx.getCredentials(WEBHOOK_CREDENTIAL);
	return String(credentials.notificationSecret ?? '');
}
