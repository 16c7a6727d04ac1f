import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

import * as invoiceItem from './invoiceItem/InvoiceItem.resource';
import type { PaymentGatewayType } from './node.type';
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

const resources: Record<string, Record<string, OperationModule | unknown>> = {
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

/** The one item loop every operation runs in (one at a time, in input order). */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as PaymentGatewayType['resource'];
	const operation = this.getNodeParameter('operation', 0) as string;
	const module = resources[resource]?.[operation] as OperationModule | undefined;
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

	const returnData: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			returnData.push(...(await module.execute.call(this, itemIndex)));
		} catch (error) {
			if (this.continueOnFail()) {
				returnData.push(errorItem(asNodeError(error, itemIndex), { item: itemIndex }));
				continue;
			}
			throw asNodeError(error, itemIndex);
		}
	}
	return [returnData];
}
