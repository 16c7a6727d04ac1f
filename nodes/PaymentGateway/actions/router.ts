import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { gateOf, mapInOrder } from '../transport/gate';
import { getParallelRequests } from '../transport';
import { asNodeError, errorItem } from './errorItem';
import type { PaymentGatewayType } from './node.type';
import type { ItemOperation, OperationModule } from './operation';
import { RESOURCES, operationsOf } from './resources';

function operationModule(ctx: IExecuteFunctions): OperationModule {
	const resource = ctx.getNodeParameter('resource', 0) as PaymentGatewayType['resource'];
	const operation = ctx.getNodeParameter('operation', 0) as string;
	const operations = Object.hasOwn(RESOURCES, resource) ? operationsOf(resource) : {};
	const module = Object.hasOwn(operations, operation) ? operations[operation] : undefined;
	const runnable = module && ('run' in module || typeof module.execute === 'function');
	if (!runnable) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The operation "${operation}" of "${resource}" is not supported`,
		);
	}
	return module;
}

/** One request for all input items; continue-on-fail gives one error item paired to them all. */
async function runAll(
	ctx: IExecuteFunctions,
	executeAll: NonNullable<ItemOperation['executeAll']>,
): Promise<INodeExecutionData[]> {
	try {
		return await executeAll.call(ctx);
	} catch (error) {
		if (!ctx.continueOnFail()) throw asNodeError(ctx, error);
		const pairedItem = ctx.getInputData().map((_, item) => ({ item }));
		return [errorItem(ctx, asNodeError(ctx, error), pairedItem)];
	}
}

/**
 * Items run in input order, up to Parallel Requests at once; every request of the run shares one
 * rate gate. Without continue-on-fail, no item starts after one has failed.
 */
async function runItems(
	ctx: IExecuteFunctions,
	module: ItemOperation,
): Promise<INodeExecutionData[]> {
	const parallel = getParallelRequests(ctx);
	gateOf(ctx, parallel);
	let firstFailure: { itemIndex: number; error: unknown } | undefined;
	const results = await mapInOrder(
		ctx.getInputData().length,
		parallel,
		async (itemIndex) => {
			try {
				return await module.execute.call(ctx, itemIndex);
			} catch (error) {
				if (ctx.continueOnFail())
					return [errorItem(ctx, asNodeError(ctx, error, itemIndex), { item: itemIndex })];
				if (!firstFailure || itemIndex < firstFailure.itemIndex)
					firstFailure = { itemIndex, error };
				return [];
			}
		},
		() => firstFailure !== undefined,
	);
	if (firstFailure) throw asNodeError(ctx, firstFailure.error, firstFailure.itemIndex);
	return results.flatMap((result) => result ?? []);
}

/** The node's whole execute: an operation with outputs of its own runs whole, every other in the one item loop. */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const module = operationModule(this);
	if ('run' in module) return await module.run.call(this);
	if (module.executeAll && module.takesAllItems?.call(this))
		return [await runAll(this, module.executeAll)];
	return [await runItems(this, module)];
}
