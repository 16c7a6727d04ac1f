import type { IDataObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

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
