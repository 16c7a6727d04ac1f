/**
 * The webhook credential's notification secret, read for every delivery.
 *
 * `getCredentials` in a webhook ends in n8n's `CredentialsHelper.getDecrypted`, whose last step
 * (`applyDefaultsAndOverwrites`) builds a throw-away workflow and acquires an expression isolate to
 * resolve expressions in the credential: most of a delivery's cost (docs/performance.md). A secret
 * stored as plain text needs none of that: overwrites only fill empty values and the secret has no
 * default. So the secret is read with the same helper and the same checks (the credential's
 * record, n8n's decrypt policy, the decryption), stopping before that step (`raw`); a secret that is
 * an expression, an empty one, or an n8n without that helper is read through `getCredentials`.
 * Nothing is kept between deliveries: a changed secret applies to the next one.
 */
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

export const WEBHOOK_CREDENTIAL = 'paymentGatewayWebhookApi';

interface CredentialsHelper {
	getDecrypted(
		additionalData: object,
		nodeCredentials: object,
		type: string,
		mode: string,
		executeData: undefined,
		raw: true,
	): Promise<IDataObject>;
}

/** The stored secret when it is plain text, else undefined (read it the usual way). */
async function storedPlainSecret(ctx: IWebhookFunctions): Promise<string | undefined> {
	const additionalData = (ctx as unknown as { additionalData?: { credentialsHelper?: unknown } })
		.additionalData;
	const helper = additionalData?.credentialsHelper as CredentialsHelper | undefined;
	const nodeCredentials = ctx.getNode().credentials?.[WEBHOOK_CREDENTIAL];
	if (typeof helper?.getDecrypted !== 'function' || !nodeCredentials?.id) return undefined;
	let stored: IDataObject;
	try {
		stored = await helper.getDecrypted(
			additionalData!,
			nodeCredentials,
			WEBHOOK_CREDENTIAL,
			ctx.getMode(),
			undefined,
			true,
		);
	} catch {
		return undefined; // getCredentials below reads it again and reports what failed
	}
	const secret = stored?.notificationSecret;
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
