import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** The part of n8n-core's WorkflowExecute that resumes a waiting node. */
interface Engine {
	WorkflowExecute?: {
		prototype?: {
			handleDisabledNode?: (
				inputData: { main: unknown[][] },
				forwardAllOutputs?: boolean,
			) => { data?: unknown[] };
		};
	};
}

let answer: Promise<boolean> | undefined;

async function probe(): Promise<boolean> {
	let core: Engine;
	try {
		// n8n-core as the running n8n loaded it (n8n adds its module folders to the package's paths).
		core = (await import('n8n-core')) as unknown as Engine;
	} catch {
		return true; // not inside n8n: nothing to tell
	}
	const resume = core.WorkflowExecute?.prototype?.handleDisabledNode;
	if (typeof resume !== 'function') return true; // a later engine: judged by the compatibility run
	try {
		const outputs = resume.call(
			Object.create(core.WorkflowExecute!.prototype!),
			{
				main: [[], [{ json: {} }], []],
			},
			true,
		).data;
		return Array.isArray(outputs) && outputs.length === 3;
	} catch {
		return true;
	}
}

/**
 * Whether this n8n passes on every output of a node that its webhook resumes. n8n marks the
 * resumed node disabled and, before it learned to forward every output of such a node (n8n 1.x,
 * 2.0 and 2.20 do not), passes on its first output only: Paid and Failed would be dropped and the
 * execution would end "successfully" with nothing after the wait. Asked of n8n's engine once.
 */
export async function resumesOnEveryOutput(): Promise<boolean> {
	answer ??= probe();
	return await answer;
}

export const NOT_IN_THIS_N8N =
	'Wait for Payment is not available in this n8n: it resumes a waiting node on its first output only, so a payment would be lost instead of leaving on Paid or Failed';

export const NOT_IN_THIS_N8N_HELP =
	'Nothing waits and nothing was sent. Upgrade n8n to a release that resumes waiting nodes on every output (see the compatibility table in the documentation), or use the Payment Gateway Trigger with the order ID to continue when the final status arrives.';

/** Refuses to wait, before anything is sent, where n8n would drop the Paid and Failed outputs. */
export async function assertResumesOnEveryOutput(ctx: IExecuteFunctions): Promise<void> {
	if (await resumesOnEveryOutput()) return;
	throw new NodeOperationError(ctx.getNode(), NOT_IN_THIS_N8N, {
		itemIndex: 0,
		description: NOT_IN_THIS_N8N_HELP,
	});
}
