import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import type { NodeContext } from '../helpers/context';
import { secretsOf } from './redact';

export interface ChannelCredentials {
	credentials: ICredentialDataDecryptedObject;
	/** Their secret values, for redacting errors. */
	secrets: string[];
}

const runCredentials = new WeakMap<object, Map<string, Promise<ChannelCredentials>>>();

async function readCredentials(ctx: NodeContext, credentialType: string, itemIndex: number) {
	const credentials = await ctx.getCredentials(credentialType, itemIndex);
	return { credentials, secrets: secretsOf(credentials) };
}

/**
 * A key-pair channel's credentials and their secrets, decrypted once per run: n8n reads and decrypts
 * them from its database on every call, which cost more than the request itself on a fast service.
 * Without `perRun`, read every time (a credential whose token n8n may renew during the run).
 */
export function credentialsOf(
	ctx: NodeContext,
	credentialType: string,
	itemIndex: number,
	perRun: boolean,
): Promise<ChannelCredentials> {
	if (!perRun) return readCredentials(ctx, credentialType, itemIndex);
	let byType = runCredentials.get(ctx);
	if (!byType) runCredentials.set(ctx, (byType = new Map()));
	let read = byType.get(credentialType);
	if (!read) {
		read = readCredentials(ctx, credentialType, itemIndex);
		byType.set(credentialType, read);
		read.catch(() => byType.delete(credentialType));
	}
	return read;
}
