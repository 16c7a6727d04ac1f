/**
 * Late Status, the trigger's side (the contract: webhook/late-status.ts). An order created with a
 * Late Status Trigger URL sends its statuses here, carrying the resume URL of the execution that
 * waits for it. The trigger passes each one on to that execution while it waits; once the wait has
 * ended (timed out, or the execution is gone), a final status runs this trigger's workflow instead,
 * once per order and outcome. So a paid order reaches exactly one workflow whatever the timing.
 */
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { n8nInternals, waitingAnswer, type N8nInternals } from '../n8n-internals';
import { judgeDelivery } from './exactly-once';
import type { TriggerOptions } from './options';
import { SECRET_HEADER } from '../webhook/delivery';
import { LAST_LOOK_KEY, lastLookValue } from '../webhook/last-look';
import { executionOf, lateStatusTarget } from '../webhook/late-status';
import { finalOutcome } from '../webhook/outcome';

/** While the execution runs on towards its wait (milliseconds, usually), the status is held this long. */
const PATIENCE_MS = 20_000;
const STEP_MS = 500;
const FORWARD_TIMEOUT_MS = 10_000;

type Forwarded = 'resumed' | 'kept' | 'ended' | 'running' | 'unreachable';

/** The resume URL a late status delivery carries, when it is an address of this n8n. */
export function lateStatusResumeUrl(ctx: IWebhookFunctions): string | undefined {
	const own = String(ctx.getNodeWebhookUrl('default') ?? '');
	const target = lateStatusTarget(ctx.getQueryData() as IDataObject, own);
	if (target && 'refused' in target) ctx.logger.warn(`Payment Gateway Trigger: ${target.refused}`);
	return target && 'resumeUrl' in target ? target.resumeUrl : undefined;
}

/** What the waiting execution's address answered (n8n's answers: n8n-internals/waiting-answers.ts). */
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
		const answer = waitingAnswer(response.statusCode, response.body);
		// Taken: Wait for Payment's own answer (waitForPayment.webhook.ts) says whether it resumed.
		if (answer === 'taken') return response.body?.resumed === true ? 'resumed' : 'kept';
		if (answer === 'running' || answer === 'ended') return answer;
		ctx.logger.warn(
			`Payment Gateway Trigger: the waiting execution's address answered ${response.statusCode} (${answer})`,
		);
	} catch (error) {
		ctx.logger.warn(
			`Payment Gateway Trigger: passing a status on failed: ${(error as Error).message}`,
		);
	}
	return 'unreachable';
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
export async function passLateStatus(
	ctx: IWebhookFunctions,
	url: string,
	payload: IDataObject,
	headers: IDataObject,
	options: Pick<TriggerOptions, 'duplicateWindowMinutes'>,
	door: N8nInternals = n8nInternals,
): Promise<IWebhookResponseData | undefined> {
	const outcome = finalOutcome(payload.status, payload.order_status);
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
