/**
 * Publishing a trigger that could not keep exactly-once is refused, with the reason, in the editor:
 * n8n runs a webhook node's checkExists when it activates the workflow (publishing, and every start
 * of n8n), so an n8n that changed under an active workflow shows there as an activation error too,
 * not only in n8n's log.
 */
import type { IHookFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	exactlyOnceProblem,
	n8nInternals,
	reportOnce,
	type N8nInternals,
} from '../../n8n-internals';
import { readOptions } from '../options';

export const NOT_EXACTLY_ONCE =
	'This trigger cannot tell a delivery from its retry in this n8n, so it is not published';

export const NOT_EXACTLY_ONCE_HELP =
	'Published as it is, it would answer every payment event 503 and run nothing. The cause is named above. Turn off Options > Drop Duplicate Deliveries to publish it without duplicate protection, or fix what is named (see "n8n\'s internals and the exactly-once modes" in the running-at-scale documentation).';

/** Throws the refusal when Drop Duplicate Deliveries is on and the trigger's mode would be none. */
export async function assertExactlyOnce(
	ctx: IHookFunctions,
	door: N8nInternals = n8nInternals,
): Promise<void> {
	// The hook context reads parameters and carries n8n's credentials helper as a webhook's does.
	const asWebhook = ctx as unknown as IWebhookFunctions;
	await reportOnce(door, ctx.logger, door.storedCredential(asWebhook));
	const options = readOptions(asWebhook);
	if ('invalid' in options || !options.dropDuplicates) return;
	const problem = await exactlyOnceProblem(door);
	if (!problem) return;
	throw new NodeOperationError(ctx.getNode(), `${NOT_EXACTLY_ONCE}: ${problem}`, {
		description: NOT_EXACTLY_ONCE_HELP,
	});
}
