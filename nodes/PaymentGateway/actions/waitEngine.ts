/**
 * Whether this n8n can keep a node of the package waiting and pass on what it routes afterwards:
 * the one check behind Order > Wait for Payment and Payout > Wait for Results, each with its own
 * words and, where it needs more of n8n, its own extra capability.
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { n8nInternals, reportOnce } from '../../n8n-internals';

/**
 * Whether this n8n passes on every output of a node that its webhook resumes (the capability
 * "resume engine" of ../../n8n-internals). Where it passes on the first output only, the outputs
 * after the first would be dropped and the execution would end "successfully" with nothing after
 * the wait. Outside n8n there is nothing to tell; a changed engine rejects, naming it and the n8n
 * release.
 */
export async function resumesOnEveryOutput(): Promise<boolean> {
	const engine = await n8nInternals.resumeEngine();
	return !engine.found || engine.use.everyOutput;
}

/** What an operation says when it refuses to wait, and what else it needs of n8n. */
export interface WaitRefusal {
	/** The error's message: what is not available and why. */
	message: string;
	/** The error's description: what happened (nothing) and what to do instead. */
	description: string;
	/** A further capability the operation needs; checked only where every output is passed on. */
	alsoNeeds?: () => Promise<boolean>;
}

/** Refuses to wait, before anything is sent or read, where n8n would not route the waiting node. */
export async function assertWaitsHere(ctx: IExecuteFunctions, refusal: WaitRefusal): Promise<void> {
	await reportOnce(n8nInternals, ctx.logger);
	let everyOutput: boolean;
	try {
		everyOutput = await resumesOnEveryOutput();
	} catch (error) {
		throw new NodeOperationError(ctx.getNode(), error as Error, { itemIndex: 0 });
	}
	if (everyOutput && (!refusal.alsoNeeds || (await refusal.alsoNeeds()))) return;
	throw new NodeOperationError(ctx.getNode(), refusal.message, {
		itemIndex: 0,
		description: refusal.description,
	});
}
