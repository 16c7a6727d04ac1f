/**
 * nodes/webhook/: the service's webhook deliveries, shared by the Payment Gateway Trigger, Wait
 * for Payment's resume webhook and (event names only) the Poll Trigger: the check below, the
 * notification secret (secret.ts), headers (headers.ts), the event of a payload (events.ts), what
 * a status says of the payment (outcome.ts), and Late Status's URL (late-status.ts) and last look
 * (last-look.ts).
 *
 * The check every delivery from the service passes, in the trigger and in Wait for Payment's
 * resume webhook alike: the notification secret, then a JSON object body. A refused delivery is
 * answered here (401 or 400) and starts or resumes nothing.
 */
import type { IDataObject, IWebhookFunctions } from 'n8n-workflow';

import { sameSecret } from './headers';
import { notificationSecret } from './secret';

/** The header carrying the secret; n8n gives header names in lower case, so any case is accepted. */
export const SECRET_HEADER = 'notification-secret';

export interface CheckedDelivery {
	payload: IDataObject;
	headers: IDataObject;
}

/** Whether the headers carry the webhook credential's notification secret. */
async function secretMatches(ctx: IWebhookFunctions, headers: IDataObject): Promise<boolean> {
	const given = headers[SECRET_HEADER];
	if (typeof given !== 'string') return false;
	return sameSecret(given, await notificationSecret(ctx));
}

/** The body when it is a non-empty JSON object; n8n also parses form bodies into objects. */
function jsonObjectBody(ctx: IWebhookFunctions, headers: IDataObject): IDataObject | undefined {
	const body = ctx.getBodyData() as unknown;
	const contentType = String(headers['content-type'] ?? '').toLowerCase();
	if (!contentType.includes('json')) return undefined;
	if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
	return Object.keys(body).length === 0 ? undefined : (body as IDataObject);
}

/**
 * The delivery's payload and headers, or undefined when it was refused (and answered: 401 for a
 * missing or wrong secret, 400 for a body that is not a JSON object).
 */
export async function checkDelivery(ctx: IWebhookFunctions): Promise<CheckedDelivery | undefined> {
	const response = ctx.getResponseObject();
	const headers = ctx.getHeaderData() as IDataObject;
	if (!(await secretMatches(ctx, headers))) {
		response.status(401).json({ message: 'Invalid or missing notification-secret header' });
		return undefined;
	}
	const payload = jsonObjectBody(ctx, headers);
	if (!payload) {
		response.status(400).json({ message: 'Expected a JSON object body' });
		return undefined;
	}
	return { payload, headers };
}
