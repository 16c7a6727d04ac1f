import { randomBytes } from 'node:crypto';

import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { readTable, toWire } from '../../fields/read';
import { tableProperties } from '../../fields/properties';
import type { Field, FieldGroup, FieldTable } from '../../fields/types';
import { assertValid } from '../../fields/violations';
import type { RawRow, RowViolation, SourcedRow } from '../../spreadsheet/schema';
import { checkRows, describeRowViolation } from '../../spreadsheet/schema';
import { payoutSchema } from '../../spreadsheet/payout';
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
} from '../bulk';
import { runBatches } from './batches';
import type { BatchFields } from './upload';
import { payoutChecksum, uploadBatch } from './upload';

export { payoutChecksum };

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
			'Unique ID of this batch, at most 30 characters. Leave empty to generate one (n8n-YYYYMMDDHHmmss-xxxxxx). Reuse an ID only to resubmit a batch the service rejected. With Split Into Batches: the ID of this run; each batch sends it followed by -&lt;batch number&gt;, and left empty each batch gets an ID computed from its rows and the batch fields, so a re-run never queues a batch twice.',
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
	{
		name: 'remark',
		displayName: 'Remark',
		type: 'text',
		wire: 'remark',
		emptyAsBlank: true,
		maxLength: 30,
		description: 'Batch remark, at most 30 characters; may be empty',
	},
	{
		name: 'callbackUrl',
		displayName: 'Callback URL',
		type: 'webhookUrl',
		wire: 'callback_url',
		emptyAsBlank: true,
		maxLength: 100,
		description:
			'Where the service reports the batch result: https://, at most 100 characters; may be empty',
		ui: { placeholder: 'https://n8n.example.com/webhook/payout-result' },
	},
	{
		name: 'splitIntoBatches',
		displayName: 'Split Into Batches',
		type: 'boolean',
		description:
			'Whether to take any number of rows and send them in batches of at most 500, in order, each under a request ID derived from this run, so that re-running the same rows sends only the batches not yet queued. Off: more than 500 rows are refused.',
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
		{
			name: 'fileName',
			displayName: 'File Name',
			type: 'text',
			description: 'Name of the uploaded file; default payouts-&lt;request ID&gt;.xlsx',
		},
		{
			name: 'outputBinaryField',
			displayName: 'Put Output File in Field',
			type: 'text',
			description:
				'The binary field that receives the .xlsx file sent (or, with Validate Only, that would be sent)',
			ui: { default: 'data' },
		},
		{
			name: 'attachBatchFiles',
			displayName: 'Attach Batch Files',
			type: 'boolean',
			description:
				'Whether, with Split Into Batches, each batch item carries its .xlsx file in Put Output File in Field. Off, no file is kept after its batch is sent.',
		},
	],
};

export const table: FieldTable = [...batchFields, optionsGroup];

/** The 14 columns, each a field of the spreadsheet schema. */
export const sheet = payoutSchema;

const properties: INodeProperties[] = [
	{
		displayName:
			'This moves money out of the merchant account. Every row is checked before anything is sent, and the service refuses a repeated request ID. Turn on Split Into Batches for any number of rows and request IDs that make a re-run safe; without it, an empty Request ID is random on every run.',
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

/** What an AI agent reads about this operation when the node is its tool. */
export const toolDescription =
	'Sends payouts to bank accounts or wallets from rows: MOVES MONEY. Every row is checked before anything is sent; a batch is never paid twice, even when the same rows are sent again.';

export const description = updateDisplayOptions({ show }, properties);

/** n8n-YYYYMMDDHHmmss-xxxxxx: 25 characters, sortable by time, random enough to be unique. */
export function generateRequestId(now = new Date()): string {
	const stamp = now.toISOString().replace(/[-:T]/g, '').slice(0, 14);
	return `n8n-${stamp}-${randomBytes(4).toString('hex').slice(0, 6)}`;
}

/** The batch fields and options, checked; stops the item before anything is built on a broken one. */
function readBatch(ctx: IExecuteFunctions, itemIndex: number): BatchFields {
	const { values, violations } = readTable(ctx, itemIndex, table);
	assertValid(ctx, itemIndex, violations);
	const text = (value: unknown) => (value === undefined ? '' : String(value));
	const options = values.options as Record<string, unknown>;
	// request_id is each batch's own (see batches.ts); the other fields go to every batch.
	const form = toWire(batchFields, values);
	delete form.request_id;
	return {
		givenRequestId: text(values.requestId),
		form,
		currency: text(values.currency),
		remark: text(values.remark),
		callbackUrl: text(values.callbackUrl),
		validateOnly: values.validateOnly === true,
		split: values.splitIntoBatches === true,
		attachBatchFiles: options.attachBatchFiles === true,
		fileName: text(options.fileName),
		outputField: text(options.outputBinaryField) || 'data',
	};
}

/** What Validate Only returns: whether the batch would be accepted, and every broken rule. */
function validationReport(
	requestId: string,
	rows: number,
	violations: RowViolation[],
	checksum: string,
): IDataObject {
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

/** One batch of at most 500 rows under one request ID, as before Split Into Batches existed. */
async function submitOne(
	ctx: IExecuteFunctions,
	itemIndex: number,
	batch: BatchFields,
	checked: { rows: SourcedRow[]; violations: RowViolation[] },
	rawCount: number,
	pairedItem: INodeExecutionData['pairedItem'],
): Promise<INodeExecutionData[]> {
	const requestId = batch.givenRequestId || generateRequestId();
	const fileName = batch.fileName || `payouts-${requestId}.xlsx`;
	const { validateOnly, outputField } = batch;
	const file = await buildFile(payoutSchema, 'Payouts', checked.rows);
	const violations = [...checked.violations, ...fileSizeViolations(file)];
	const checksum = payoutChecksum(requestId, batch.callbackUrl, batch.remark);

	if (validateOnly) {
		const report = validationReport(requestId, rawCount, violations, checksum);
		return [await withFile(ctx, { json: report, pairedItem }, outputField, file, fileName)];
	}
	assertRows(ctx, violations, itemIndex);

	const response = await uploadBatch(ctx, itemIndex, batch, requestId, fileName, file);
	const data = (response.data ?? {}) as IDataObject;
	const json: IDataObject = {
		request_id: data.request_id ?? requestId,
		total_records: data.total_records,
		payouts_queued: data.payouts_queued,
		message: response.message,
		checksum,
	};
	if (response.confirmedByDuplicate) json.confirmedByDuplicate = true;
	return [await withFile(ctx, { json, pairedItem }, outputField, file, fileName)];
}

/** Without the 500-row limit of one request: Split Into Batches takes any number of rows. */
const anyRowCount = { ...payoutSchema, maxRows: Number.POSITIVE_INFINITY };

async function submit(
	ctx: IExecuteFunctions,
	itemIndex: number,
	raw: RawRow[],
	fileViolations: RowViolation[],
	pairedItem: INodeExecutionData['pairedItem'],
	pairedOfRows: (rows: SourcedRow[]) => INodeExecutionData['pairedItem'],
): Promise<INodeExecutionData[]> {
	const batch = readBatch(ctx, itemIndex);
	const schema = batch.split ? anyRowCount : payoutSchema;
	const checked = fileViolations.length
		? { rows: [], violations: fileViolations }
		: checkRows(schema, raw);
	if (!batch.split) return await submitOne(ctx, itemIndex, batch, checked, raw.length, pairedItem);
	return await runBatches(ctx, itemIndex, batch, checked, (b) => pairedOfRows(b.rows), pairedItem);
}

/** Input Mode "items": the rows come from all input items at once. */
export function takesAllItems(this: IExecuteFunctions): boolean {
	return this.getNodeParameter('inputMode', 0) === 'items';
}

/** From input items: all items are one batch, or with Split Into Batches one run of batches. */
export async function executeAll(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const ofRows = (rows: SourcedRow[]) => rows.map(({ item }) => ({ item: item ?? 0 }));
	return await submit(this, 0, rowsFromItems(this, payoutSchema), [], allItems(this), ofRows);
}

/** From a binary file: each item's file is one batch, or with Split Into Batches one run of batches. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { rows, violations } = await rowsFromBinary(this, itemIndex, payoutSchema);
	return await submit(this, itemIndex, rows, violations, { item: itemIndex }, () => ({
		item: itemIndex,
	}));
}
