/**
 * Publishing a workflow with this trigger makes its production URL the payout account's results
 * address (ledger/resultsAddress.ts); Bulk Create uses it, with the account's token, when its
 * Callback URL is empty. The editor's test URL ("listen for test event") is never recorded.
 */
import type { IHookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	accountToken,
	maskToken,
	openResultsTable,
	recordAddress,
	removeAddress,
	withToken,
} from '../PaymentGateway/actions/payout/ledger/resultsAddress';

/** The service's limit of callback_url (Bulk Create's Callback URL field). */
const CALLBACK_URL_MAX = 100;

/** Activation: the address recorded (production) or the token made ready (the editor's test URL). */
export async function publishAddress(ctx: IHookFunctions): Promise<boolean> {
	const opened = await openResultsTable(ctx);
	if ('off' in opened) {
		// Published all the same: every post is then answered 503, saying why.
		ctx.logger.warn(
			`Payment Gateway Payout Results Trigger: no results address for workflow ${ctx.getWorkflow().id}: ${opened.off}; results posts will be answered 503`,
		);
		return true;
	}
	const token = await accountToken(opened);
	if (ctx.getMode() === 'manual') return true;
	const url = ctx.getNodeWebhookUrl('default') ?? '';
	const full = withToken(url, token);
	if (full.length > CALLBACK_URL_MAX)
		throw new NodeOperationError(
			ctx.getNode(),
			`The results address is ${full.length} characters with its token (${maskToken(full)}); the service takes a callback URL of at most ${CALLBACK_URL_MAX}`,
			{ description: "Shorten the trigger's Path (or n8n's webhook URL) and publish again." },
		);
	await recordAddress(opened, { workflowId: String(ctx.getWorkflow().id ?? ''), url });
	return true;
}

/** Unpublishing: this workflow's address goes; the account's token stays. */
export async function unpublishAddress(ctx: IHookFunctions): Promise<boolean> {
	const opened = await openResultsTable(ctx);
	if ('off' in opened) return true;
	const url = ctx.getNodeWebhookUrl('default') ?? '';
	await removeAddress(opened, { workflowId: String(ctx.getWorkflow().id ?? ''), url });
	return true;
}
