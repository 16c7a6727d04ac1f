/**
 * Capability "stored credential": a credential as stored (decrypted, without n8n's expression step),
 * through n8n's credentials helper (`additionalData.credentialsHelper.getDecrypted(..., raw: true)`).
 * `getCredentials` ends in the same helper, whose last step (`applyDefaultsAndOverwrites`) builds a
 * throw-away workflow and acquires an expression isolate: most of a webhook delivery's cost
 * (docs/performance.md). The credential's record, n8n's decrypt policy and the decryption are the
 * same; only that step is skipped.
 */
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { absent, found, type Capability } from './load';

export interface StoredCredential {
	/** The credential `type` of the node as stored; rejects as `getCredentials` would. */
	read(type: string): Promise<IDataObject>;
}

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

/** Absent when this n8n's context has no such helper (the caller reads via `getCredentials`). */
export function storedCredential(ctx: IWebhookFunctions): Capability<StoredCredential> {
	const additionalData = (ctx as unknown as { additionalData?: { credentialsHelper?: unknown } })
		.additionalData;
	const helper = additionalData?.credentialsHelper as CredentialsHelper | undefined;
	if (!additionalData || typeof helper?.getDecrypted !== 'function')
		return absent('no credentials helper with getDecrypted in this context');
	return found({
		read: async (type) => {
			const nodeCredentials = ctx.getNode().credentials?.[type];
			if (!nodeCredentials?.id) throw new Error(`no ${type} credential on the node`);
			return await helper.getDecrypted(
				additionalData,
				nodeCredentials,
				type,
				ctx.getMode(),
				undefined,
				true,
			);
		},
	});
}
