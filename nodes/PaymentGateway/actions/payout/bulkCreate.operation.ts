import { createHash, randomBytes } from 'node:crypto';

import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { readTable } from '../../fields/read';
import { tableProperties } from '../../fields/properties';
import type { Field, FieldGroup, FieldTable } from '../../fields/types';
import { assertValid } from '../../validation/rules';
import type { RawRow, RowViolation } from '../../spreadsheet/schema';
import { checkRows, describeRowViolation } from '../../spreadsheet/schema';
import { payoutSchema } from '../../spreadsheet/payout';
import { apiRequest } from '../../transport';
import { textPart } from '../../transport/multipart';
import {
	allItems,
	assertRows,
	binaryFieldProperty,
	buildFile,
	columnProperties,
	fileSizeViolations,
	inputModeProperty,
	rowsFromBinary,
	rowsFromItems,
	withFile,
	XLSX_MIME,
} from '../bulk';

const show = { resource: ['payout'], operation: ['bulkCreate'] };

/** The batch's own fields (multipart fields of POST /v1/bulk/payouts). */
const batchFields: Field[] = [
	{
		name: 'requestId',
		displayName: 'Request ID',
		type: 'text',
		wire: 'request_id',
		maxLength: 30,
		description:
			'Unique ID of this batch, at most 30 characters. Leave empty to generate one (n8n-YYYYMMDDHHmmss-xxxxxx). Reuse an ID only to resubmit a batch the service rejected.',
	},
	{
		name: 'currency',
		displayName: 'Currency',
		type: 'currency',
		currencies: 'iso',
		wire: 'currency',
		required: true,
		description: '3-letter ISO 4217 code of the payouts',
		ui: { default: 'INR' },
	},
	{ name: 'remark', displayName: 'Remark', type: 'text', wire: 'remark', maxLength: 30, description: 'Batch remark, at most 30 characters; may be empty' },
	{
		name: 'callbackUrl',
		displayName: 'Callback URL',
		type: 'webhookUrl',
		wire: 'callback_url',
		maxLength: 100,
		description: 'Where the service reports the batch result: https://, at most 100 characters; may be empty',
		ui: { placeholder: 'https://n8n.example.com/webhook/payout-result' },
	},
	{
		name: 'validateOnly',
		displayName: 'Validate Only',
		type: 'boolean',
		description:
			'Whether to only check the rows and return the report and the file that would be sent, without sending anything',
	},
];

const optionsGroup: FieldGroup = {
	group: 'collection',
	name: 'options',
	displayName: 'Options',
	placeholder: 'Add Option',
	fields: [
		{ name: 'fileName', displayName: 'File Name', type: 'text', description: 'Name of the uploaded file; default payouts-&lt;request ID&gt;.xlsx' },
		{
			name: 'outputBinaryField',
			displayName: 'Put Output File in Field',
			type: 'text',
			description: 'The binary field that receives the .xlsx file sent (or, with Validate Only, that would be sent)',
			ui: { default: 'data' },
		},
	],
};

export const table: FieldTable = [...batchFields, optionsGroup];

/** The 14 columns, each a field of the spreadsheet schema. */
export const sheet = payoutSchema;

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
	...tableProperties(batchFields),
	...columnProperties(payoutSchema, show),
	...tableProperties([optionsGroup]),
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

/** The batch fields and options, checked; stops the item before anything is built on a broken one. */
function readBatch(ctx: IExecuteFunctions, itemIndex: number) {
	const { values, violations } = readTable(ctx, itemIndex, table);
	assertValid(ctx, itemIndex, violations);
	const text = (value: unknown) => (value === undefined ? '' : String(value));
	const options = values.options as Record<string, unknown>;
	const requestId = text(values.requestId) || generateRequestId();
	return {
		requestId,
		currency: text(values.currency),
		remark: text(values.remark),
		callbackUrl: text(values.callbackUrl),
		validateOnly: values.validateOnly === true,
		fileName: text(options.fileName) || `payouts-${requestId}.xlsx`,
		outputField: text(options.outputBinaryField) || 'data',
	};
}

/** What Validate Only returns: whether the batch would be accepted, and every broken rule. */
function validationReport(requestId: string, rows: number, violations: RowViolation[], checksum: string): IDataObject {
	return {
		validateOnly: true,
		valid: violations.length === 0,
		request_id: requestId,
		total_records: rows,
		failing_rows: new Set(violations.map((v) => v.row)).size,
		violations: violations.map((v) => ({ ...v, message: describeRowViolation(v) })),
		checksum,
	};
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

async function submit(
	ctx: IExecuteFunctions,
	itemIndex: number,
	raw: RawRow[],
	fileViolations: RowViolation[],
	pairedItem: INodeExecutionData['pairedItem'],
): Promise<INodeExecutionData[]> {
	const batch = readBatch(ctx, itemIndex);
	const { validateOnly, fileName, outputField } = batch;
	const checked = fileViolations.length ? { rows: [], violations: fileViolations } : checkRows(payoutSchema, raw);
	const file = await buildFile(payoutSchema, 'Payouts', checked.rows);
	const violations = [...checked.violations, ...fileSizeViolations(file)];
	const checksum = payoutChecksum(batch.requestId, batch.callbackUrl, batch.remark);

	if (validateOnly) {
		const report = validationReport(batch.requestId, raw.length, violations, checksum);
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
		...duplicateHandling(batch.requestId),
	});
	const data = (response.data ?? {}) as IDataObject;
	const json: IDataObject = {
		request_id: data.request_id ?? batch.requestId,
		total_records: data.total_records,
		payouts_queued: data.payouts_queued,
		message: response.message,
		checksum,
	};
	if (response.confirmedByDuplicate) json.confirmedByDuplicate = true;
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
