import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import * as invoiceItem from './invoiceItem/InvoiceItem.resource';
import { gateOf, mapInOrder } from '../transport/gate';
import { getParallelRequests } from './common.descriptions';
import type { NodeMap, PaymentGatewayType } from './node.type';
import * as order from './order/Order.resource';
import * as payment from './payment/Payment.resource';
import * as paymentLink from './paymentLink/PaymentLink.resource';
import * as payout from './payout/Payout.resource';
import * as subscriptionPlan from './subscriptionPlan/SubscriptionPlan.resource';
import * as transaction from './transaction/Transaction.resource';

type OperationModule = {
	execute: (this: IExecuteFunctions, itemIndex: number) => Promise<INodeExecutionData[]>;
	/** Sends every input item in one request; undefined when this run works item by item. */
	executeBatch?: (this: IExecuteFunctions) => Promise<INodeExecutionData[] | undefined>;
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

/** What a failed item carries under continueOnFail: the message, the service's code, no secrets. */
export function errorItemJson(error: Error): IDataObject {
	const json: IDataObject = { error: error.message };
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (error.description) json.description = error.description;
		const { serviceCode, httpStatus, violations } = error.context as IDataObject;
		if (serviceCode !== undefined) json.code = serviceCode;
		if (httpStatus !== undefined) json.httpCode = httpStatus;
		if (violations !== undefined) json.violations = violations;
	}
	return json;
}

/** The one item loop every operation runs in. */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as PaymentGatewayType['resource'];
	const operation = this.getNodeParameter('operation', 0) as string;
	const module = (resources[resource] as Record<string, OperationModule> | undefined)?.[operation];
	if (!module || typeof module.execute !== 'function') {
		throw new NodeOperationError(this.getNode(), `The operation "${operation}" of "${resource}" is not supported`);
	}

	const asNodeError = (error: unknown, itemIndex?: number) => {
		const failure =
			error instanceof NodeApiError || error instanceof NodeOperationError
				? error
				: new NodeOperationError(this.getNode(), error as Error, { itemIndex });
		if (itemIndex !== undefined) failure.context.itemIndex ??= itemIndex;
		return failure;
	};

	// With "Continue (using error output)" n8n routes items carrying `error` to the error output; with
	// plain "Continue" it would reduce such items to the message, so they keep only the details.
	const toErrorOutput = this.getNode().onError === 'continueErrorOutput';
	const errorItem = (
		error: NodeApiError | NodeOperationError,
		pairedItem: INodeExecutionData['pairedItem'],
	): INodeExecutionData => ({
		json: errorItemJson(error),
		...(toErrorOutput ? { error } : {}),
		pairedItem,
	});

	if (module.executeBatch) {
		try {
			const batch = await module.executeBatch.call(this);
			if (batch) return [batch];
		} catch (error) {
			if (!this.continueOnFail()) throw asNodeError(error);
			const pairedItem = items.map((_, item) => ({ item }));
			return [[errorItem(asNodeError(error), pairedItem)]];
		}
	}

	// Items run in input order, up to Parallel Requests at once; every request of the run shares one
	// rate gate. Without continue-on-fail, no item starts after one has failed.
	const parallel = getParallelRequests(this);
	gateOf(this, parallel);
	let firstFailure: { itemIndex: number; error: unknown } | undefined;
	const results = await mapInOrder(
		items.length,
		parallel,
		async (itemIndex) => {
			try {
				return await module.execute.call(this, itemIndex);
			} catch (error) {
				if (this.continueOnFail()) return [errorItem(asNodeError(error, itemIndex), { item: itemIndex })];
				if (!firstFailure || itemIndex < firstFailure.itemIndex) firstFailure = { itemIndex, error };
				return [];
			}
		},
		() => firstFailure !== undefined,
	);
	if (firstFailure) throw asNodeError(firstFailure.error, firstFailure.itemIndex);
	return [results.flatMap((result) => result ?? [])];
}
