import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { n8nInternals, reportOnce } from '../../../n8n-internals';

/**
 * Whether this n8n passes on every output of a node that its webhook resumes (the capability
 * "resume engine" of ../../../n8n-internals). Where it passes on the first output only, Paid and
 * Failed would be dropped and the execution would end "successfully" with nothing after the wait.
 * Outside n8n there is nothing to tell; a changed engine rejects, naming it and the n8n release.
 */
export async function resumesOnEveryOutput(): Promise<boolean> {
	const engine = await n8nInternals.resumeEngine();
	return !engine.found || engine.use.everyOutput;
}

export const NOT_IN_THIS_N8N =
	'Wait for Payment is not available in this n8n: it resumes a waiting node on its first output only, so a payment would be lost instead of leaving on Paid or Failed';

export const NOT_IN_THIS_N8N_HELP =
	'Nothing waits and nothing was sent. Upgrade n8n to a release that resumes waiting nodes on every output (see the compatibility table in the documentation), or use the Payment Gateway Trigger with the order ID to continue when the final status arrives.';

/** Refuses to wait, before anything is sent, where n8n would drop the Paid and Failed outputs. */
export async function assertResumesOnEveryOutput(ctx: IExecuteFunctions): Promise<void> {
	await reportOnce(n8nInternals, ctx.logger);
	let everyOutput: boolean;
	try {
		everyOutput = await resumesOnEveryOutput();
	} catch (error) {
		throw new NodeOperationError(ctx.getNode(), error as Error, { itemIndex: 0 });
	}
	if (everyOutput) return;
	throw new NodeOperationError(ctx.getNode(), NOT_IN_THIS_N8N, {
		itemIndex: 0,
		description: NOT_IN_THIS_N8N_HELP,
	});
}
