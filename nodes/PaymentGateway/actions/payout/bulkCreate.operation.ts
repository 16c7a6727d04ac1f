import { createHash, randomBytes } from 'node:crypto';

import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { unsafeUrlReason } from '../../../../credentials/shared/url';
import type { Violation } from '../../validation/rules';
import { assertValid, isBlank } from '../../validation/rules';
import type { RowViolation, SourcedRow } from '../../spreadsheet/schema';
import { describeRowViolation, validateRows } from '../../spreadsheet/schema';
import { payoutSchema } from '../../spreadsheet/payout';
import { apiRequest } from '../../transport';
import { textPart } from '../../transport/multipart';
import {
	allItems,
	assertRows,
	binaryFieldProperty,
	buildFile,
	columnProperties,
	inputModeProperty,
	MAX_FILE_BYTES,
	rowsFromBinary,
	rowsFromItems,
	withFile,
	XLSX_MIME,
} from '../bulk';

const show = { resource: ['payout'], operation: ['bulkCreate'] };

const properties: INodeProperties[] = [
	{
		displayName:
			'This moves money out of the merchant account. Every row is checked before anything is sent, and a batch is sent once: the service refuses a repeated Request ID.',
		name: 'payoutNotice',
		type: 'notice',
		default: '',
	},
	inputModeProperty(show, 'payout row'),
	binaryFieldProperty(show),
	{
		displayName: 'Request ID',
		name: 'requestId',
		type: 'string',
		default: '',
		description:
			'Unique ID of this batch, at most 30 characters. Leave empty to generate one (n8n-YYYYMMDDHHmmss-xxxxxx). Reuse an ID only to resubmit a batch the service rejected.',
	},
	{
		displayName: 'Currency',
		name: 'currency',
		type: 'string',
		default: 'INR',
		required: true,
		description: '3-letter ISO 4217 code of the payouts',
	},
	{
		displayName: 'Remark',
		name: 'remark',
		type: 'string',
		default: '',
		description: 'Batch remark, at most 30 characters; may be empty',
	},
	{
		displayName: 'Callback URL',
		name: 'callbackUrl',
		type: 'string',
		default: '',
		placeholder: 'https://n8n.example.com/webhook/payout-result',
		description: 'Where the service reports the batch result: https://, at most 100 characters; may be empty',
	},
	{
		displayName: 'Validate Only',
		name: 'validateOnly',
		type: 'boolean',
		default: false,
		description:
			'Whether to only check the rows and return the report and the file that would be sent, without sending anything',
	},
	...columnProperties(payoutSchema, show),
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'File Name',
				name: 'fileName',
				type: 'string',
				default: '',
				description: 'Name of the uploaded file; default payouts-&lt;request ID&gt;.xlsx',
			},
			{
				displayName: 'Put Output File in Field',
				name: 'outputBinaryField',
				type: 'string',
				default: 'data',
				description: 'The binary field that receives the .xlsx file sent (or, with Validate Only, that would be sent)',
			},
		],
	},
];

export const description = updateDisplayOptions({ show }, properties);

/** n8n-YYYYMMDDHHmmss-xxxxxx: 25 characters, sortable by time, random enough to be unique. */
export function generateRequestId(now = new Date()): string {
	const stamp = now.toISOString().replace(/[-:T]/g, '').slice(0, 14);
	return `n8n-${stamp}-${randomBytes(4).toString('hex').slice(0, 6)}`;
}

/** Lowercase hex SHA-256 of request_id|callback_url|remark, as the service recomputes it. */
export function payoutChecksum(requestId: string, callbackUrl: string, remark: string): string {
	return createHash('sha256').update(`${requestId}|${callbackUrl}|${remark}`, 'utf8').digest('hex');
}

function readBatchFields(ctx: IExecuteFunctions, itemIndex: number) {
	const text = (name: string) => String(ctx.getNodeParameter(name, itemIndex, '') ?? '').trim();
	const requestId = text('requestId') || generateRequestId();
	const fields = {
		requestId,
		currency: text('currency').toUpperCase(),
		remark: text('remark'),
		callbackUrl: text('callbackUrl'),
	};
	const violations: Violation[] = [];
	if (requestId.length > 30) violations.push({ field: 'request_id', rule: 'must be at most 30 characters', value: requestId });
	if (!/^[A-Z]{3}$/.test(fields.currency)) {
		violations.push({ field: 'currency', rule: 'must be a 3-letter ISO 4217 code', value: fields.currency });
	}
	if (fields.remark.length > 30) violations.push({ field: 'remark', rule: 'must be at most 30 characters', value: fields.remark });
	if (!isBlank(fields.callbackUrl)) {
		if (fields.callbackUrl.length > 100) {
			violations.push({ field: 'callback_url', rule: 'must be at most 100 characters', value: fields.callbackUrl });
		} else if (unsafeUrlReason(fields.callbackUrl) !== undefined) {
			violations.push({ field: 'callback_url', rule: 'must be an https:// URL', value: fields.callbackUrl });
		}
	}
	assertValid(ctx, itemIndex, violations);
	return fields;
}

async function submit(
	ctx: IExecuteFunctions,
	itemIndex: number,
	rows: SourcedRow[],
	fileViolations: RowViolation[],
	pairedItem: INodeExecutionData['pairedItem'],
): Promise<INodeExecutionData[]> {
	const batch = readBatchFields(ctx, itemIndex);
	const validateOnly = ctx.getNodeParameter('validateOnly', itemIndex, false) as boolean;
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const fileName = String(options.fileName || `payouts-${batch.requestId}.xlsx`);
	const outputField = String(options.outputBinaryField || 'data');

	const violations = [...fileViolations, ...(fileViolations.length ? [] : validateRows(payoutSchema, rows))];
	const file = await buildFile(payoutSchema, 'Payouts', rows);
	if (file.length > MAX_FILE_BYTES) {
		violations.push({ row: 0, column: '(file)', rule: 'must be at most 2 MB', value: file.length });
	}
	const checksum = payoutChecksum(batch.requestId, batch.callbackUrl, batch.remark);

	if (validateOnly) {
		const report: IDataObject = {
			validateOnly: true,
			valid: violations.length === 0,
			request_id: batch.requestId,
			total_records: rows.length,
			failing_rows: new Set(violations.map((v) => v.row)).size,
			violations: violations.map((v) => ({ ...v, message: describeRowViolation(v) })),
			checksum,
		};
		return [await withFile(ctx, { json: report, pairedItem }, outputField, file, fileName)];
	}
	assertRows(ctx, violations, itemIndex);

	const response = await apiRequest.call(ctx, itemIndex, {
		channel: 'payout',
		method: 'POST',
		path: '/v1/bulk/payouts',
		multipart: [
			textPart('request_id', batch.requestId),
			textPart('currency', batch.currency),
			{ name: 'payout_file', fileName, contentType: XLSX_MIME, data: file },
			textPart('remark', batch.remark),
			textPart('callback_url', batch.callbackUrl),
			textPart('checksum', checksum),
		],
		// The service refuses a repeated request_id, so a retry can never queue the batch twice.
		retrySafe: true,
		explainFailure: (failure) =>
			failure.code === 'E0021'
				? {
						message: `This batch was already submitted: request_id "${batch.requestId}" exists [code E0021]`,
						description:
							'The service keeps the first submission of every request_id. Nothing new was queued; use a new Request ID only for a new batch.',
					}
				: undefined,
	});
	const data = (response.data ?? {}) as IDataObject;
	const json: IDataObject = {
		request_id: data.request_id ?? batch.requestId,
		total_records: data.total_records,
		payouts_queued: data.payouts_queued,
		message: response.message,
		checksum,
	};
	return [await withFile(ctx, { json, pairedItem }, outputField, file, fileName)];
}

/** From input items: all items are one batch, sent in one request. */
export async function executeBatch(this: IExecuteFunctions): Promise<INodeExecutionData[] | undefined> {
	if (this.getNodeParameter('inputMode', 0) !== 'items') return undefined;
	return await submit(this, 0, rowsFromItems(this, payoutSchema), [], allItems(this));
}

/** From a binary file: each item's file is one batch. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const { rows, violations } = await rowsFromBinary(this, itemIndex, payoutSchema);
	return await submit(this, itemIndex, rows, violations, { item: itemIndex });
}
