/**
 * An order created with a Late Status Trigger URL sends its statuses here, carrying the resume URL
 * of the execution that waits for it (`?resume=`). The trigger passes each one on to that execution
 * while it waits; once the wait has ended (timed out, or the execution is gone), a final status
 * runs this trigger's workflow instead, once per order and outcome. So a paid order reaches exactly
 * one workflow whatever the timing.
 */
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { judgeDelivery } from './exactly-once';
import type { TriggerOptions } from './options';
import { SECRET_HEADER } from '../webhook/delivery';

/** While the execution runs on towards its wait (milliseconds, usually), the status is held this long. */
const PATIENCE_MS = 20_000;
const STEP_MS = 500;
const FORWARD_TIMEOUT_MS = 10_000;

type Forwarded = 'resumed' | 'kept' | 'ended' | 'running' | 'failed';

/** The resume URL the delivery carries, when it is an address of this n8n; else undefined. */
export function resumeTarget(ctx: IWebhookFunctions): string | undefined {
	const raw = (ctx.getQueryData() as IDataObject).resume;
	if (typeof raw !== 'string' || raw === '') return undefined;
	try {
		const target = new URL(raw);
		const own = new URL(String(ctx.getNodeWebhookUrl('default') ?? ''));
		// Only this n8n: a resume URL elsewhere would have the trigger post deliveries anywhere.
		if (target.origin === own.origin) return target.toString();
	} catch {
		// Not a URL: handled below like one of another host.
	}
	ctx.logger.warn('Payment Gateway Trigger: a resume URL of another host was ignored');
	return undefined;
}

/** What the waiting execution's address answered; n8n says 409 for one running or finished. */
async function forwardOnce(
	ctx: IWebhookFunctions,
	url: string,
	payload: IDataObject,
	secret: string,
): Promise<Forwarded> {
	try {
		const response = (await ctx.helpers.httpRequest({
			method: 'POST',
			url,
			body: payload,
			json: true,
			headers: { [SECRET_HEADER]: secret },
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			timeout: FORWARD_TIMEOUT_MS,
		})) as { statusCode: number; body?: IDataObject };
		const body = (response.body ?? {}) as IDataObject;
		if (response.statusCode === 200) return body.resumed === true ? 'resumed' : 'kept';
		if (response.statusCode === 404) return 'ended';
		const message = String(body.message ?? '');
		if (response.statusCode === 409 && /running/i.test(message)) return 'running';
		if (response.statusCode === 409 && /finished/i.test(message)) return 'ended';
	} catch (error) {
		ctx.logger.warn(
			`Payment Gateway Trigger: passing a status on failed: ${(error as Error).message}`,
		);
	}
	return 'failed';
}

/** Forwards, waiting while the execution still runs towards its wait. */
async function forward(
	ctx: IWebhookFunctions,
	url: string,
	payload: IDataObject,
	secret: string,
): Promise<Forwarded> {
	const deadline = Date.now() + PATIENCE_MS;
	for (;;) {
		const result = await forwardOnce(ctx, url, payload, secret);
		if (result !== 'running' || Date.now() > deadline) return result;
		await sleep(STEP_MS);
	}
}

/** paid / failed for a final status, undefined while the order is open. */
function outcomeOf(payload: IDataObject): 'paid' | 'failed' | undefined {
	const status = String(payload.status ?? '').toUpperCase();
	const state = String(payload.order_status ?? '').toUpperCase();
	if (status === 'FAILED' || state === 'FAILED') return 'failed';
	return state === '' || state === 'PENDING' ? undefined : 'paid';
}

const retryLater = (ctx: IWebhookFunctions, message: string): IWebhookResponseData => {
	// An error answer: nothing is remembered of this delivery, and the service delivers it again.
	ctx.getResponseObject().status(503).set('Retry-After', '10').json({ message });
	return { noWebhookResponse: true };
};

/**
 * The answer for a status on its way to a waiting execution, or undefined when the wait has ended
 * and this trigger's workflow is to run with it. A final status claims its order and outcome first,
 * so a second one (a CAPTURE after an AUTH, a retry) neither resumes nor runs anything again.
 */
export async function relayToWait(
	ctx: IWebhookFunctions,
	url: string,
	payload: IDataObject,
	headers: IDataObject,
	options: Pick<TriggerOptions, 'duplicateWindowMinutes'>,
): Promise<IWebhookResponseData | undefined> {
	const outcome = outcomeOf(payload);
	if (outcome) {
		const key = `order:${String(payload.p_order_id ?? '')}:${outcome}`;
		const verdict = await judgeDelivery(ctx, key, options);
		if (!verdict.run && verdict.duplicate)
			return { webhookResponse: { received: true, processed: false, reason: 'order handled' } };
		if (!verdict.run) return retryLater(ctx, verdict.message);
	}
	const result = await forward(ctx, url, payload, String(headers[SECRET_HEADER] ?? ''));
	if (result === 'resumed') return { webhookResponse: { received: true, resumed: true } };
	if (result === 'kept') return { webhookResponse: { received: true, resumed: false } };
	if (result === 'ended') return undefined;
	return retryLater(
		ctx,
		result === 'running'
			? 'The execution waiting for this order is still running; deliver it again'
			: 'The execution waiting for this order could not be reached; deliver it again',
	);
}

/** The execution ID in a resume URL (…/<id>?signature=…), for the late item. */
export function executionOf(url: string): string {
	return new URL(url).pathname.split('/').filter(Boolean).pop() ?? '';
}
