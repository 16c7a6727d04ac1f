import { createHash } from 'node:crypto';

import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { apiRequest } from '../../transport';
import { formParts } from '../../transport/multipart';
import { XLSX_MIME } from '../bulk';
import type { BatchFields } from './bulkCreate.plan';

/** Lowercase hex SHA-256 of request_id|callback_url|remark, as the service recomputes it. */
export function payoutChecksum(requestId: string, callbackUrl: string, remark: string): string {
	return createHash('sha256').update(`${requestId}|${callbackUrl}|${remark}`, 'utf8').digest('hex');
}

/** E0021 (request_id exists): a plain refusal, or after the node's own repeat, proof the batch was queued. */
function duplicateHandling(requestId: string) {
	return {
		explainFailure: (failure: { code?: unknown }) =>
			failure.code === 'E0021'
				? {
						message: `This batch was already submitted: request_id "${requestId}" exists [code E0021]`,
						description:
							'The service keeps the first submission of every request_id. Nothing new was queued; use a new Request ID only for a new batch.',
					}
				: undefined,
		// The node's own repeat refused as already submitted: its first attempt queued the batch.
		confirmDuplicate: (failure: { code?: unknown }) =>
			failure.code === 'E0021'
				? {
						data: { request_id: requestId },
						confirmedByDuplicate: true,
						message:
							'The batch was queued by an earlier attempt whose answer was lost; the repeat was refused as already submitted. Do not resend it under a new Request ID.',
					}
				: undefined,
	};
}

export const PAYOUT_UPLOAD_PATH = '/v1/bulk/payouts';

/** POST /v1/bulk/payouts: one batch, one file; retried safely since a request_id is queued once. */
export async function uploadBatch(
	ctx: IExecuteFunctions,
	itemIndex: number,
	fields: BatchFields,
	requestId: string,
	fileName: string,
	file: Buffer,
): Promise<IDataObject> {
	const checksum = payoutChecksum(requestId, fields.callbackUrl, fields.remark);
	return await apiRequest.call(ctx, itemIndex, {
		channel: 'payout',
		method: 'POST',
		path: PAYOUT_UPLOAD_PATH,
		howToCheck:
			'check the batch by its Request ID in the merchant dashboard or wait for its callback; resend it only with the same Request ID',
		badRequestCauses: 'for example a row of the payout file, the checksum or the request_id',
		codes: { E0021: 'A bulk payout with this request_id already exists.' },
		multipart: [
			...formParts({ request_id: requestId, ...fields.form, checksum }),
			{ name: 'payout_file', fileName, contentType: XLSX_MIME, data: file },
		],
		// The service refuses a repeated request_id, so a retry can never queue the batch twice.
		retrySafe: true,
		...duplicateHandling(requestId),
	});
}
