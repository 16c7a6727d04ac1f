/**
 * One results post: n8n's data tables found (else 503: results cannot be applied where the ledger
 * is the node's memory), the token and secret checked (else 401, the ledger untouched), the body
 * parsed (else 400), a repeat dropped, every row applied by the ledger's rule; the rows that
 * changed the ledger start one run with one item each, and a post that changed nothing starts none.
 */
import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import {
	accountService,
	forgetAccountTable,
	reuseAccountTable,
	type Service,
} from '../PaymentGateway/actions/payout/ledger';
import type { PayoutAccount } from '../PaymentGateway/actions/payout/ledger/account';
import { postToken } from '../PaymentGateway/actions/payout/ledger/resultsAddress';
import { judgeDelivery } from '../PaymentGatewayTrigger/exactly-once';
import type { PostOutcome } from './apply';
import { applyPost } from './apply';
import { refusal, tokenMatches } from './auth';
import type { ResultsPost } from './body';
import { parsePost, postKey } from './body';

const NAME = 'Payment Gateway Payout Results Trigger';
/** How long a post is remembered as run (the Payment Gateway Trigger's default window). */
const DUPLICATE_WINDOW_MINUTES = 1440;

function answer(ctx: IWebhookFunctions, status: number, body: IDataObject): IWebhookResponseData {
	ctx.getResponseObject().status(status).json(body);
	return { noWebhookResponse: true };
}

/** Where a post's token is checked: the one read last in this process, read again when it differs. */
async function checkedToken(
	ctx: IWebhookFunctions,
	given: { service: Service; account: PayoutAccount },
): Promise<string | undefined> {
	const held = await postToken(ctx, given);
	if (!held.cached || tokenMatches(ctx, held.token) !== false) return held.token;
	return (await postToken(ctx, given, true)).token;
}

const off = (ctx: IWebhookFunctions, why: string) => {
	const message = `Payout results cannot be applied: ${why}, so the payout ledger is the Bulk Create node's own memory, which no results post can reach. Enable n8n's data table module (remove data-table from N8N_DISABLED_MODULES).`;
	ctx.logger.warn(`${NAME} (workflow ${ctx.getWorkflow().id}): ${message}`);
	return answer(ctx, 503, { message });
};

/**
 * In order of cost: the token and secret (the token as this process read it last), the body, the
 * exactly-once verdict (a repeat is answered before the ledger is opened), then the ledger (its
 * table found once per process) and the rows applied.
 */
export async function receiveResults(ctx: IWebhookFunctions): Promise<IWebhookResponseData> {
	const given = await accountService(ctx, 0, true);
	if ('off' in given) return off(ctx, given.off);
	const refused = await refusal(ctx, await checkedToken(ctx, given));
	if (refused) return answer(ctx, 401, { message: refused });
	const headers = ctx.getHeaderData() as IDataObject;
	const post = parsePost(ctx.getBodyData(), String(headers['content-type'] ?? ''));
	if ('invalid' in post) return answer(ctx, 400, { message: post.invalid });

	// Exactly once, as the Payment Gateway Trigger: a post that ran (or is running) is dropped; the
	// retry of one whose run never started runs, its rows applied then included again (apply.ts).
	// A post answered with an error (the ledger not opened, say) is forgotten again: its retry runs.
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
	const opened = await reuseAccountTable(ctx, given);
	const outcome = await applyPost(opened.table, opened.account.key, post, key);
	// A failed read or write: the table may be gone or changed; the next post opens it afresh.
	if (outcome.failure) forgetAccountTable(given);
	return answered(ctx, post, outcome);
}

function answered(
	ctx: IWebhookFunctions,
	post: ResultsPost,
	outcome: PostOutcome,
): IWebhookResponseData {
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
