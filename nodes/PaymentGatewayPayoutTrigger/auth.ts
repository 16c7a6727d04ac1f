/**
 * Who may post results: whoever holds the account's token (`?t=<token>` of the results address,
 * compared in constant time) and, when the post carries a notification-secret header and the node
 * has a webhook credential, that secret too. Nothing else is read before this check passes.
 */
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { TOKEN_PARAMETER } from '../PaymentGateway/actions/payout/ledger/resultsAddress';
import { SECRET_HEADER } from '../webhook/delivery';
import { sameSecret } from '../webhook/headers';
import { notificationSecret, WEBHOOK_CREDENTIAL } from '../webhook/secret';

/** Whether the post's `?t=` is `token`; undefined when the post carries none. */
export function tokenMatches(
	ctx: IWebhookFunctions,
	token: string | undefined,
): boolean | undefined {
	const given = (ctx.getQueryData() as IDataObject)[TOKEN_PARAMETER];
	if (typeof given !== 'string' || given === '') return undefined;
	return token !== undefined && token !== '' && sameSecret(given, token);
}

/** Undefined when the post may go on; else why it is refused (answered 401, never logged with the token). */
export async function refusal(
	ctx: IWebhookFunctions,
	token: string | undefined,
): Promise<string | undefined> {
	const given = (ctx.getQueryData() as IDataObject)[TOKEN_PARAMETER];
	if (typeof given !== 'string' || given === '')
		return `Missing token: the results address ends in ?${TOKEN_PARAMETER}=<token>`;
	if (!token || !sameSecret(given, token))
		return 'Wrong token: it is not the results address token of this payout account';
	const headers = ctx.getHeaderData() as IDataObject;
	const secret = headers[SECRET_HEADER];
	if (secret === undefined || !ctx.getNode().credentials?.[WEBHOOK_CREDENTIAL]) return undefined;
	if (typeof secret !== 'string' || !sameSecret(secret, await notificationSecret(ctx)))
		return 'Invalid notification-secret header';
	return undefined;
}
