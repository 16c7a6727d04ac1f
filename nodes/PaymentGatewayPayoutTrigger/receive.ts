/**
 * One results post: the ledger's data table found (else 503: results cannot be applied where the
 * ledger is the node's memory), the token and secret checked (else 401, nothing read or written),
 * the body parsed (else 400), every row applied by the ledger's rule; the rows that changed the
 * ledger start one run with one item each, and a post that changed nothing starts none.
 */
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { openAccountTable } from '../PaymentGateway/actions/payout/ledger';
import { openResultsTable, readHeld } from '../PaymentGateway/actions/payout/ledger/resultsAddress';
import { judgeDelivery } from '../PaymentGatewayTrigger/exactly-once';
import { applyPost } from './apply';
import { refusal } from './auth';
import { parsePost, postKey } from './body';

const NAME = 'Payment Gateway Payout Results Trigger';
/** How long a post is remembered as run (the Payment Gateway Trigger's default window). */
const DUPLICATE_WINDOW_MINUTES = 1440;

function answer(ctx: IWebhookFunctions, status: number, body: IDataObject): IWebhookResponseData {
	ctx.getResponseObject().status(status).json(body);
	return { noWebhookResponse: true };
}

/** The account's token, or why results cannot be applied here (answered 503, and logged). */
async function accountToken(ctx: IWebhookFunctions): Promise<{ token?: string } | { off: string }> {
	const opened = await openResultsTable(ctx);
	if ('off' in opened) return opened;
	return { token: (await readHeld(opened)).token };
}

export async function receiveResults(ctx: IWebhookFunctions): Promise<IWebhookResponseData> {
	const held = await accountToken(ctx);
	if ('off' in held) {
		const message = `Payout results cannot be applied: ${held.off}, so the payout ledger is the Bulk Create node's own memory, which no results post can reach. Enable n8n's data table module (remove data-table from N8N_DISABLED_MODULES).`;
		ctx.logger.warn(`${NAME} (workflow ${ctx.getWorkflow().id}): ${message}`);
		return answer(ctx, 503, { message });
	}
	const refused = await refusal(ctx, held.token);
	if (refused) return answer(ctx, 401, { message: refused });
	const headers = ctx.getHeaderData() as IDataObject;
	const post = parsePost(ctx.getBodyData(), String(headers['content-type'] ?? ''));
	if ('invalid' in post) return answer(ctx, 400, { message: post.invalid });

	const opened = await openAccountTable(ctx);
	if ('off' in opened) return answer(ctx, 503, { message: opened.off });
	// Exactly once, as the Payment Gateway Trigger: a post that ran (or is running) is dropped; the
	// retry of one whose run never started runs, its rows applied then included again (apply.ts).
	const key = postKey(post);
	const verdict = await judgeDelivery(ctx, key, {
		duplicateWindowMinutes: DUPLICATE_WINDOW_MINUTES,
	});
	if (!verdict.run && verdict.duplicate)
		return {
			webhookResponse: { received: true, applied: 0, ignored: post.rows.length, duplicate: true },
		};
	if (!verdict.run) {
		ctx.getResponseObject().status(503).set('Retry-After', '5').json({ message: verdict.message });
		return { noWebhookResponse: true };
	}
	const outcome = await applyPost(opened.table, opened.account.key, post, key);
	const counts = {
		received: true,
		applied: outcome.items.length,
		ignored: post.rows.length - outcome.items.length,
	};
	const workflowData = outcome.items.length ? [outcome.items] : undefined;
	if (outcome.failure) {
		// The rows applied so far run; the rest are applied when the service posts again.
		ctx.logger.error(`${NAME}: applying a results post stopped: ${outcome.failure.message}`);
		ctx
			.getResponseObject()
			.status(503)
			.json({
				...counts,
				ignored: outcome.ignored.length,
				message: `Applied ${outcome.items.length} of ${post.rows.length} row results, then: ${outcome.failure.message}. Post again.`,
			});
		return { workflowData, noWebhookResponse: true };
	}
	if (!workflowData) return { webhookResponse: counts };
	return { workflowData, webhookResponse: counts };
}
