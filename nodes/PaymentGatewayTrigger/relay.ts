/**
 * An order created with a Late Status Trigger URL sends its statuses here, carrying the resume URL
 * of the execution that waits for it (`?resume=`). The trigger passes each one on to that execution
 * while it waits; once the wait has ended (timed out, or the execution is gone), a final status
 * runs this trigger's workflow instead, once per order and outcome. So a paid order reaches exactly
 * one workflow whatever the timing.
 */
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { n8nInternals, type N8nInternals } from '../n8n-internals';
import { judgeDelivery } from './exactly-once';
import type { TriggerOptions } from './options';
import { SECRET_HEADER } from '../webhook/delivery';
import { LAST_LOOK_KEY, lastLookValue } from '../webhook/last-look';

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

const ORDER_HANDLED: IWebhookResponseData = {
	webhookResponse: { received: true, processed: false, reason: 'order handled' },
};

/**
 * Whether the ended execution's Wait for Payment took this order and outcome itself, by its last
 * look at the wait limit (kept in the execution's custom data). Outside n8n nothing tells: not
 * handled. A database that does not answer, or a changed n8n, cannot tell now (answered 503).
 */
async function tookItItself(
	ctx: IWebhookFunctions,
	door: N8nInternals,
	url: string,
	orderId: string,
	outcome: 'paid' | 'failed',
): Promise<boolean | 'cannot tell now'> {
	try {
		const customData = await door.executionCustomData();
		if (!customData.found) return false;
		const looked = await customData.use.read(executionOf(url), LAST_LOOK_KEY);
		return looked === lastLookValue(outcome, orderId);
	} catch (error) {
		ctx.logger.warn(
			`Payment Gateway Trigger: could not read how the ended wait left; answered 503 so it is delivered again: ${(error as Error).message}`,
		);
		return 'cannot tell now';
	}
}

/**
 * The answer for a status on its way to a waiting execution, or undefined when the wait has ended
 * and this trigger's workflow is to run with it. A final status claims its order and outcome first,
 * so a second one (a CAPTURE after an AUTH, a retry) neither resumes nor runs anything again; nor
 * does one that the ended wait's last look already took on Paid or Failed.
 */
export async function relayToWait(
	ctx: IWebhookFunctions,
	url: string,
	payload: IDataObject,
	headers: IDataObject,
	options: Pick<TriggerOptions, 'duplicateWindowMinutes'>,
	door: N8nInternals = n8nInternals,
): Promise<IWebhookResponseData | undefined> {
	const outcome = outcomeOf(payload);
	const orderId = String(payload.p_order_id ?? '');
	if (outcome) {
		const verdict = await judgeDelivery(ctx, `order:${orderId}:${outcome}`, options, door);
		if (!verdict.run && verdict.duplicate) return ORDER_HANDLED;
		if (!verdict.run) return retryLater(ctx, verdict.message);
	}
	const result = await forward(ctx, url, payload, String(headers[SECRET_HEADER] ?? ''));
	if (result === 'resumed') return { webhookResponse: { received: true, resumed: true } };
	if (result === 'kept') return { webhookResponse: { received: true, resumed: false } };
	if (result === 'ended' && outcome) {
		const took = await tookItItself(ctx, door, url, orderId, outcome);
		if (took === true) return ORDER_HANDLED;
		if (took === 'cannot tell now')
			return retryLater(
				ctx,
				'How the wait for this order ended could not be read; deliver it again',
			);
	}
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
