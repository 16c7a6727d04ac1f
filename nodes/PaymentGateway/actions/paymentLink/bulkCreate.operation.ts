import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import type { RowViolation, SourcedRow } from '../../spreadsheet/schema';
import { earliestToday } from '../../helpers/dates';
import { validateRows } from '../../spreadsheet/schema';
import { paymentLinkSchema } from '../../spreadsheet/paymentLink';
import { apiRequest } from '../../transport';
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
	XLSX_MIME,
} from '../bulk';

const show = { resource: ['paymentLink'], operation: ['bulkCreate'] };

// The column parameters do not depend on the date; the End Date rule does, at run time.
const descriptionSchema = paymentLinkSchema('0000-00-00');

const properties: INodeProperties[] = [
	inputModeProperty(show, 'payment link'),
	binaryFieldProperty(show),
	{
		displayName: 'Output',
		name: 'output',
		type: 'options',
		options: [
			{ name: 'One Item per Link', value: 'perLink', description: 'Each created link (and each failed row) as an item' },
			{ name: 'One Summary Item', value: 'summary', description: 'The whole upload result as one item' },
		],
		default: 'perLink',
	},
	...columnProperties(descriptionSchema, show),
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
				default: 'payment-links.xlsx',
				description: 'Name of the uploaded file',
			},
		],
	},
];

export const description = updateDisplayOptions({ show }, properties);

function outputItems(
	ctx: IExecuteFunctions,
	itemIndex: number,
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
	if (ctx.getNodeParameter('output', itemIndex, 'perLink') === 'summary') return [{ json: summary, pairedItem }];
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
	rows: SourcedRow[],
	fileViolations: RowViolation[],
	pairedItem: INodeExecutionData['pairedItem'],
): Promise<INodeExecutionData[]> {
	const schema = paymentLinkSchema(earliestToday(ctx.getTimezone()));
	const violations = [...fileViolations, ...(fileViolations.length ? [] : validateRows(schema, rows))];
	const file = await buildFile(schema, 'Payment Links', rows);
	if (file.length > MAX_FILE_BYTES) {
		violations.push({ row: 0, column: '(file)', rule: 'must be at most 2 MB', value: file.length });
	}
	assertRows(ctx, violations, itemIndex);
	const options = ctx.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const fileName = String(options.fileName || 'payment-links.xlsx').replace(/(\.xlsx)?$/i, '.xlsx');
	const response = await apiRequest.call(ctx, itemIndex, {
		channel: 'paymentLink',
		method: 'POST',
		path: '/payment-links/v1/bulk-upload',
		multipart: [{ name: 'payment_link_file', fileName, contentType: XLSX_MIME, data: file }],
		// Creates links; a repeat would create them twice.
		retrySafe: false,
	});
	return outputItems(ctx, itemIndex, response, pairedItem);
}

/** From input items: every item is a row of one upload. */
export async function executeBatch(this: IExecuteFunctions): Promise<INodeExecutionData[] | undefined> {
	if (this.getNodeParameter('inputMode', 0) !== 'items') return undefined;
	return await upload(this, 0, rowsFromItems(this, descriptionSchema), [], allItems(this));
}

/** From a binary file: each item's file is one upload. */
export async function execute(this: IExecuteFunctions, itemIndex: number): Promise<INodeExecutionData[]> {
	const { rows, violations } = await rowsFromBinary(this, itemIndex, descriptionSchema);
	return await upload(this, itemIndex, rows, violations, { item: itemIndex });
}
