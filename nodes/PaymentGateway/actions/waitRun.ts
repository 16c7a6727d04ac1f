import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { asNodeError, errorItem } from './errorItem';

/** An operation that pauses the execution: its name, what an AI agent is told, its outputs. */
export interface Pausing {
	name: string;
	/** Why an AI agent cannot use it, and what to do instead. */
	toolHelp: string;
	outputs: number;
	waitOrRoute: (ctx: IExecuteFunctions) => Promise<INodeExecutionData[][]>;
}

/**
 * Runs an operation that pauses the execution (Wait for Payment, Wait for Results) whole, outside
 * the router's item loop: refused as an AI tool; under Continue On Fail its error leaves on the
 * first output, paired with its item.
 */
export async function runPausing(
	ctx: IExecuteFunctions,
	pausing: Pausing,
): Promise<INodeExecutionData[][]> {
	try {
		if (ctx.getNode().type.endsWith('Tool')) {
			throw new NodeOperationError(ctx.getNode(), `${pausing.name} cannot run as an AI tool`, {
				description: pausing.toolHelp,
			});
		}
		return await pausing.waitOrRoute(ctx);
	} catch (error) {
		const failure = asNodeError(ctx, error, 0);
		if (!ctx.continueOnFail()) throw failure;
		const outputs: INodeExecutionData[][] = Array.from({ length: pausing.outputs }, () => []);
		outputs[0].push(errorItem(ctx, failure, { item: Number(failure.context.itemIndex ?? 0) }));
		return outputs;
	}
}
