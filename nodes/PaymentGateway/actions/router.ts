import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import * as invoiceItem from './invoiceItem/InvoiceItem.resource';
import { gateOf, mapInOrder } from '../transport/gate';
import { getParallelRequests } from '../transport';
import { errorItemJson } from './errorItem';
import type { NodeMap, PaymentGatewayType } from './node.type';
import * as order from './order/Order.resource';
import * as payment from './payment/Payment.resource';
import * as paymentLink from './paymentLink/PaymentLink.resource';
import * as payout from './payout/Payout.resource';
import * as subscriptionPlan from './subscriptionPlan/SubscriptionPlan.resource';
import * as transaction from './transaction/Transaction.resource';

type OperationModule = {
	execute: (this: IExecuteFunctions, itemIndex: number) => Promise<INodeExecutionData[]>;
	/** True when this run sends every input item in one request (executeAll), not item by item. */
	takesAllItems?: (this: IExecuteFunctions) => boolean;
	executeAll?: (this: IExecuteFunctions) => Promise<INodeExecutionData[]>;
};

/** Every resource and operation of NodeMap must be here with an execute, or tsc fails. */
const resources: { [R in keyof NodeMap]: Record<NodeMap[R], OperationModule> } = {
	invoiceItem,
	order,
	payment,
	paymentLink,
	payout,
	subscriptionPlan,
	transaction,
};

export { errorItemJson };

type NodeError = NodeApiError | NodeOperationError;

function asNodeError(ctx: IExecuteFunctions, error: unknown, itemIndex?: number): NodeError {
	const failure =
		error instanceof NodeApiError || error instanceof NodeOperationError
			? error
			: new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
	if (itemIndex !== undefined) failure.context.itemIndex ??= itemIndex;
	return failure;
}

/**
 * With "Continue (using error output)" n8n routes items carrying `error` to the error output; with
 * plain "Continue" it would reduce such items to the message, so they keep only the details.
 */
function errorItem(
	ctx: IExecuteFunctions,
	error: NodeError,
	pairedItem: INodeExecutionData['pairedItem'],
): INodeExecutionData {
	const toErrorOutput = ctx.getNode().onError === 'continueErrorOutput';
	return { json: errorItemJson(error), ...(toErrorOutput ? { error } : {}), pairedItem };
}

function operationModule(ctx: IExecuteFunctions): OperationModule {
	const resource = ctx.getNodeParameter('resource', 0) as PaymentGatewayType['resource'];
	const operation = ctx.getNodeParameter('operation', 0) as string;
	const module = (resources[resource] as Record<string, OperationModule> | undefined)?.[operation];
	if (!module || typeof module.execute !== 'function') {
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
	executeAll: NonNullable<OperationModule['executeAll']>,
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
	module: OperationModule,
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

/** The one item loop every operation runs in. */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const module = operationModule(this);
	if (module.executeAll && module.takesAllItems?.call(this))
		return [await runAll(this, module.executeAll)];
	return [await runItems(this, module)];
}
