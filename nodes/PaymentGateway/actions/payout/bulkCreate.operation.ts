import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { readTable, toWire } from '../../fields/read';
import { tableProperties } from '../../fields/properties';
import type { Field, FieldTable } from '../../fields/types';
import { assertValid } from '../../fields/violations';
import type { RawRow, RowViolation, SourcedRow } from '../../spreadsheet/schema';
import { checkRows } from '../../spreadsheet/schema';
import { payoutSchema } from '../../spreadsheet/payout';
import {
	allItems,
	binaryFieldProperty,
	byVersion,
	inputModeProperty,
	rowsFromBinary,
	rowsFromItems,
	versionedColumnProperties,
	VERSIONS_1_AND_2,
} from '../bulk';
import type { OperationFacts } from '../tool';
import { describeTool } from '../tool';
import { DEFAULT_REMEMBERED } from './bulkCreate.memory';
import { withResultsAddress } from './ledger/callbackUrl';
import { optionsGroup, repaymentViolations } from './bulkCreate.options';
import type { BatchFields, UnconfirmedChoice } from './bulkCreate.plan';
import { payoutNotices } from './bulkCreate.notices';
import { runBatches } from './bulkCreate.send';
import type { OperationOption } from '../operation';

/** Payouts move money; a batch's repeat is refused as already submitted (E0021). */
export const facts = {
	kind: 'write',
	movesMoney: true,
	retried: true,
	lostAnswer: 'repeatRefused',
	settledBy:
		"the service queues a request_id once and refuses its repeat as already submitted (E0021), and the node remembers every Reference No it queued and never sends one again, whatever else changed in the rows; a call whose rows were all queued before fails with 'Nothing was paid', listing them",
} as const satisfies OperationFacts;

/** What an AI agent reads about this operation when the node is its tool (node version 3). */
export const toolDescription = describeTool(
	'Sends payouts to bank accounts or wallets from rows; a payout is known by its Reference No. Every row is checked before anything is sent; rows go out in batches of at most 500. To pay a Reference No again on purpose, give a new Reference No (or the Pay Again option).',
	facts,
);

export const option = {
	name: 'Bulk Create',
	value: 'bulkCreate',
	description:
		'Queue payout transfers from input items or .xlsx files, uploaded in batches of at most 500 rows',
	action: 'Create payouts in bulk',
} as const satisfies OperationOption;

const show = { resource: ['payout'], operation: [option.value] };
const OLD = VERSIONS_1_AND_2;

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
		displayName: 'Batch Remark',
		type: 'text',
		wire: 'remark',
		emptyAsBlank: true,
		maxLength: 30,
		description:
			'Remark of the whole batch, at most 30 characters; may be empty. Each row has its own Row Remark.',
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
		// Version 3 always works this way: the option is not there to be found.
		ui: { displayOptions: { show: OLD } },
	},
	{
		name: 'validateOnly',
		displayName: 'Validate Only',
		type: 'boolean',
		description:
			'Whether to only check the rows and return the report and the file that would be sent, without sending anything',
	},
];

const REQUEST_ID_V3 =
	'Leave empty (recommended): each batch of at most 500 rows gets a request ID computed from its rows and the batch fields, which the service queues once. Given: each batch sends it followed by -&lt;batch number&gt; (at most 30 characters in all). Either way, a row whose Reference No this node already queued is never sent again.';

/** Versions 1-2 read Split Into Batches too; version 3 has no such parameter (the newest is exported). */
const tableOfVersions1And2: FieldTable = [...batchFields, optionsGroup];
export const table: FieldTable = tableOfVersions1And2.filter((f) => f.name !== 'splitIntoBatches');

/** The 14 columns, each a field of the spreadsheet schema. */
export const sheet = payoutSchema;

const properties: INodeProperties[] = [
	...payoutNotices,
	inputModeProperty(
		show,
		'payout row',
		'the node builds the .xlsx file (one per 500 rows when sent in batches) and uploads it',
	),
	binaryFieldProperty(show),
	...tableProperties(batchFields).flatMap((property) =>
		property.name === 'requestId'
			? byVersion(property, { description: REQUEST_ID_V3 })
			: [property],
	),
	...versionedColumnProperties(payoutSchema, show),
	...tableProperties([optionsGroup]),
];

export const description = updateDisplayOptions({ show }, properties);

/** The batch fields and options, checked; stops the item before anything is built on a broken one. */
function readBatch(ctx: IExecuteFunctions, itemIndex: number): BatchFields {
	const newest = ctx.getNode().typeVersion >= 3;
	const { values, violations } = readTable(ctx, itemIndex, newest ? table : tableOfVersions1And2);
	const options = values.options as Record<string, unknown>;
	assertValid(ctx, itemIndex, [...violations, ...(newest ? repaymentViolations(options) : [])]);
	const text = (value: unknown) => (value === undefined ? '' : String(value));
	const split = newest || values.splitIntoBatches === true;
	// request_id is each batch's own (see bulkCreate.plan.ts); the other fields go to every batch.
	const form = toWire(batchFields, values);
	delete form.request_id;
	return {
		givenRequestId: text(values.requestId),
		form,
		currency: text(values.currency),
		remark: text(values.remark),
		callbackUrl: text(values.callbackUrl),
		validateOnly: values.validateOnly === true,
		split,
		attachFiles: !split || options.attachBatchFiles === true,
		fileName: text(options.fileName),
		outputField: text(options.outputBinaryField) || 'data',
		remember: newest,
		payAgain: options.payAgain === true,
		payFailedAgain: options.payFailedAgain === true,
		// Saved before Attempt existed: Pay Again was the second payment.
		attempt: Number(options.payAgainAttempt ?? 2),
		unconfirmed: (text(options.unconfirmedReferences) || 'stop') as UnconfirmedChoice,
		remembered: Number(options.rememberedReferences ?? DEFAULT_REMEMBERED),
	};
}

/** Any number of rows are checked; the plan holds the 500-row rule of a single upload. */
const anyRowCount = { ...payoutSchema, maxRows: Number.POSITIVE_INFINITY };

async function submit(
	ctx: IExecuteFunctions,
	itemIndex: number,
	raw: RawRow[],
	fileViolations: RowViolation[],
	pairedItem: INodeExecutionData['pairedItem'],
	pairedOfRows: (rows: SourcedRow[]) => INodeExecutionData['pairedItem'],
): Promise<INodeExecutionData[]> {
	const batch = await withResultsAddress(ctx, itemIndex, readBatch(ctx, itemIndex), table);
	const checked = fileViolations.length
		? { rows: [], violations: fileViolations }
		: checkRows(anyRowCount, raw);
	return await runBatches(ctx, itemIndex, batch, checked, (b) => pairedOfRows(b.rows), pairedItem);
}

/** Input Mode "items": the rows come from all input items at once. */
export function takesAllItems(this: IExecuteFunctions): boolean {
	return this.getNodeParameter('inputMode', 0) === 'items';
}

/** From input items: all items are one run of batches (one upload in versions 1–2 without batches). */
export async function executeAll(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const ofRows = (rows: SourcedRow[]) => rows.map(({ item }) => ({ item: item ?? 0 }));
	const rows = rowsFromItems(this, payoutSchema, this.getNode().typeVersion >= 3);
	return await submit(this, 0, rows, [], allItems(this), ofRows);
}

/** From a binary file: each item's file is one run of batches. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { rows, violations } = await rowsFromBinary(this, itemIndex, payoutSchema);
	return await submit(this, itemIndex, rows, violations, { item: itemIndex }, () => ({
		item: itemIndex,
	}));
}
