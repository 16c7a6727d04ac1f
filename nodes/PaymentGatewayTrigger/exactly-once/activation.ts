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

/**
 * What follows and what to do come first in the message itself, the technical cause last: n8n 2.x
 * publishes through its publication service, which gives the editor and its publication status
 * only the error's message (the description is dropped), and its editor shows a message in a box
 * of 30% of the window's height, the rest scrolled.
 */
export const NOT_EXACTLY_ONCE_HELP =
	'(it would answer every payment event 503). Fix the cause below, or turn off Options > Drop Duplicate Deliveries to publish it without duplicate protection. Cause:';

export const NOT_EXACTLY_ONCE_DOCS =
	'See "n8n\'s internals and the exactly-once modes" in the package\'s running-at-scale documentation (docs/running-at-scale.md).';

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
	throw new NodeOperationError(
		ctx.getNode(),
		`${NOT_EXACTLY_ONCE} ${NOT_EXACTLY_ONCE_HELP} ${problem}`,
		{ description: NOT_EXACTLY_ONCE_DOCS },
	);
}
