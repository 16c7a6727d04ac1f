import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { RawRow, RowViolation } from '../../spreadsheet/schema';
import { earliestToday } from '../../helpers/dates';
import { checkRows } from '../../spreadsheet/schema';
import { paymentLinkSchema } from '../../spreadsheet/paymentLink';
import { tableProperties } from '../../fields/properties';
import { readTable } from '../../fields/read';
import type { Field, FieldGroup, FieldTable } from '../../fields/types';
import { optionsOf } from '../../fields/types';
import { apiRequest } from '../../transport';
import { assertValid } from '../../fields/violations';
import {
	allItems,
	assertRows,
	binaryFieldProperty,
	buildFile,
	fileSizeViolations,
	inputModeProperty,
	rowsFromBinary,
	rowsFromItems,
	versionedColumnProperties,
	XLSX_MIME,
} from '../bulk';
import type { OperationFacts } from '../tool';
import { describeTool } from '../tool';
import { settleWriteFailure } from '../lostAnswer';
import type { OperationOption } from '../operation';

export const option = {
	name: 'Bulk Create',
	value: 'bulkCreate',
	description: 'Create many payment links from one .xlsx upload',
	action: 'Create payment links in bulk',
} as const satisfies OperationOption;

const show = { resource: ['paymentLink'], operation: [option.value] };

// The column parameters do not depend on the date; the End Date rule does, at run time.
export const facts = {
	kind: 'write',
	movesMoney: false,
	retried: false,
	lostAnswer: 'unknown',
} as const satisfies OperationFacts;

export const toolDescription = describeTool(
	'Creates many payment links at once from rows (one link per row). Creates real links.',
	facts,
);

export const descriptionSchema = paymentLinkSchema('0000-00-00');

const outputField: Field = {
	name: 'output',
	displayName: 'Output',
	type: 'options',
	options: [
		{
			name: 'One Item per Link',
			value: 'perLink',
			description: 'Each created link (and each failed row) as an item',
		},
		{
			name: 'One Summary Item',
			value: 'summary',
			description: 'The whole upload result as one item',
		},
	],
};

const optionsGroup: FieldGroup = optionsOf([
	{
		name: 'fileName',
		displayName: 'File Name',
		type: 'text',
		description: 'Name of the uploaded file',
		ui: { default: 'payment-links.xlsx' },
	},
]);

export const table: FieldTable = [outputField, optionsGroup];

/** The 20 columns, each a field of the spreadsheet schema. */
export const sheet = descriptionSchema;

const properties: INodeProperties[] = [
	inputModeProperty(show, 'payment link'),
	binaryFieldProperty(show),
	...tableProperties([outputField]),
	...versionedColumnProperties(descriptionSchema, show),
	...tableProperties([optionsGroup]),
];

export const description = updateDisplayOptions({ show }, properties);

function outputItems(
	summaryOnly: boolean,
	response: IDataObject,
	pairedItem: INodeExecutionData['pairedItem'],
): INodeExecutionData[] {
	const data = (response.data ?? {}) as IDataObject;
	const summary: IDataObject = {
		total_records: data.total_records,
		links_created: data.links_created,
		links_failed: data.links_failed,
		failed_rows: data.failed_rows ?? [],
		uploaded_file_url: data.uploaded_file_url,
		links: data.links ?? [],
		message: response.message,
	};
	if (summaryOnly) return [{ json: summary, pairedItem }];
	const links = (Array.isArray(data.links) ? data.links : []) as IDataObject[];
	const failed = (Array.isArray(data.failed_rows) ? data.failed_rows : []) as IDataObject[];
	return [
		...links.map((link) => ({ json: { ...link, created: true }, pairedItem })),
		...failed.map((row) => ({ json: { ...row, created: false }, pairedItem })),
	];
}

async function upload(
	ctx: IExecuteFunctions,
	itemIndex: number,
	raw: RawRow[],
	fileViolations: RowViolation[],
	pairedItem: INodeExecutionData['pairedItem'],
): Promise<INodeExecutionData[]> {
	const { values, violations: fieldViolations } = readTable(ctx, itemIndex, table);
	assertValid(ctx, itemIndex, fieldViolations);
	const schema = paymentLinkSchema(earliestToday(ctx.getTimezone()));
	assertRows(ctx, fileViolations, itemIndex);
	const { rows, violations } = checkRows(schema, raw);
	assertRows(ctx, violations, itemIndex);
	const file = await buildFile(schema, 'Payment Links', rows);
	assertRows(ctx, fileSizeViolations(file), itemIndex);
	const options = values.options as IDataObject;
	const fileName = String(options.fileName ?? 'payment-links.xlsx').replace(/(\.xlsx)?$/i, '.xlsx');
	let response: IDataObject;
	try {
		response = await apiRequest.call(ctx, itemIndex, {
			channel: 'paymentLink',
			method: 'POST',
			path: '/payment-links/v1/bulk-upload',
			multipart: [{ name: 'payment_link_file', fileName, contentType: XLSX_MIME, data: file }],
			// Creates links; a repeat would create them twice.
			retrySafe: facts.retried,
			howToCheck: 'check the payment links in the merchant dashboard',
			badRequestCauses: 'for example a row of the payment link file',
			codes: { E0035: 'Invalid file format: the bulk payment link upload takes .xlsx files only.' },
		});
	} catch (error) {
		throw settleWriteFailure(ctx, itemIndex, error, {
			message: 'The payment link upload may have created links: its answer was lost',
			how: 'The service has no read of payment links or of uploads, and nothing in a file makes a repeat refused, so the node cannot tell whether the links were created and did not send the file again. Check the payment links in the merchant dashboard before uploading it again: a second upload creates every link again.',
		});
	}
	return outputItems(values.output === 'summary', response, pairedItem);
}

/** Input Mode "items": the rows come from all input items at once. */
export function takesAllItems(this: IExecuteFunctions): boolean {
	return this.getNodeParameter('inputMode', 0) === 'items';
}

/** From input items: every item is a row of one upload. */
export async function executeAll(this: IExecuteFunctions): Promise<INodeExecutionData[]> {
	return await upload(
		this,
		0,
		rowsFromItems(this, descriptionSchema, this.getNode().typeVersion >= 3),
		[],
		allItems(this),
	);
}

/** From a binary file: each item's file is one upload. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const { rows, violations } = await rowsFromBinary(this, itemIndex, descriptionSchema);
	return await upload(this, itemIndex, rows, violations, { item: itemIndex });
}
