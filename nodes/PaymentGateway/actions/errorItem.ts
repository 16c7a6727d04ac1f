import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

/** The one error path: every failure an operation ends with is one of these. */
export type NodeError = NodeApiError | NodeOperationError;

/** Any thrown value as a node error, with the item it belongs to when known. */
export function asNodeError(
	ctx: Pick<IExecuteFunctions, 'getNode'>,
	error: unknown,
	itemIndex?: number,
): NodeError {
	const failure =
		error instanceof NodeApiError || error instanceof NodeOperationError
			? error
			: new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
	if (itemIndex !== undefined) failure.context.itemIndex ??= itemIndex;
	return failure;
}

/** What a failed item carries under continueOnFail: the message, the service's code, no secrets. */
export function errorItemJson(error: Error): IDataObject {
	const json: IDataObject = { error: error.message };
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (error.description) json.description = error.description;
		const { serviceCode, httpStatus, violations, lostAnswer } = error.context as IDataObject;
		if (serviceCode !== undefined) json.code = serviceCode;
		if (httpStatus !== undefined) json.httpCode = httpStatus;
		if (violations !== undefined) json.violations = violations;
		// After a lost answer: not done (safe to run again) or unknown, and how the node knows.
		if (lostAnswer !== undefined) json.lostAnswer = lostAnswer;
	}
	return json;
}

/**
 * The item a failure becomes under continue-on-fail, after whatever the operation knows (`json`,
 * such as a payout batch's fields). With "Continue (using error output)" n8n routes items carrying
 * `error` to the error output; with plain "Continue" it would reduce such items to the message, so
 * they keep only the details.
 */
export function errorItem(
	ctx: Pick<IExecuteFunctions, 'getNode'>,
	error: NodeError,
	pairedItem: INodeExecutionData['pairedItem'],
	json: IDataObject = {},
): INodeExecutionData {
	const toErrorOutput = ctx.getNode().onError === 'continueErrorOutput';
	return {
		json: { ...json, ...errorItemJson(error) },
		...(toErrorOutput ? { error } : {}),
		pairedItem,
	};
}
