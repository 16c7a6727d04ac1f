import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest } from '../../transport';
import { textPart } from '../../transport/multipart';
import {
	DOCUMENT_CONTENT_TYPES,
	DOCUMENT_MAX_BYTES,
	DOCUMENT_REF_MAX,
	DOCUMENT_REF_MIN,
	extensionOf,
	validateDocumentUpload,
} from '../../validation/document';
import { assertValid, toText } from '../../validation/rules';
import { getChannel } from '../common.descriptions';

const show = { resource: ['transaction'], operation: ['uploadDocument'] };

const properties: INodeProperties[] = [
	{
		displayName: 'Transaction ID',
		name: 'transactionId',
		type: 'string',
		required: true,
		default: '',
		description: "The service's ID of the captured transaction the document belongs to",
		hint: "The transaction_id from the order's webhook or from Transaction > Get Many",
	},
	{
		displayName: 'Document Type',
		name: 'documentType',
		type: 'options',
		options: [
			{ name: 'Invoice', value: 'INVOICE', description: 'At most one invoice per order' },
			{
				name: 'AWB',
				value: 'AWB',
				description: 'Airway bill; several per order, each with its own reference',
			},
		],
		default: 'INVOICE',
		description: 'What the document is',
	},
	{
		displayName: 'Document Reference',
		name: 'documentRef',
		type: 'string',
		required: true,
		default: '',
		description: `The invoice number or the airway-bill number (${DOCUMENT_REF_MIN}-${DOCUMENT_REF_MAX} characters)`,
	},
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		required: true,
		default: 'data',
		description: 'The file to upload: pdf, doc, docx, jpg or jpeg, at most 2 MB',
		hint: 'The name of the input binary property that holds the file',
	},
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
				description:
					'File name to send instead of the one of the binary data; its extension must be pdf, doc, docx, jpg or jpeg',
			},
		],
	},
];

export const description = updateDisplayOptions({ show }, properties);


/**
 * Multipart POST /orders/v1/transaction/documents with exactly four fields: transaction_id,
 * document_type, document_ref and file.
 */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const channel = getChannel(this, itemIndex);
	const transactionId = toText(this.getNodeParameter('transactionId', itemIndex));
	// An expression may give "invoice" or "Awb": the service takes upper case.
	const documentType = toText(this.getNodeParameter('documentType', itemIndex)).toUpperCase();
	const documentRef = toText(this.getNodeParameter('documentRef', itemIndex));
	const binaryPropertyName = toText(this.getNodeParameter('binaryPropertyName', itemIndex));
	const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;

	const binaryData = this.helpers.assertBinaryData(itemIndex, binaryPropertyName);
	const fileName =
		toText(options.fileName) ||
		toText(binaryData.fileName) ||
		(binaryData.fileExtension ? `document.${binaryData.fileExtension}` : '');

	const fields = {
		transaction_id: transactionId,
		document_type: documentType,
		document_ref: documentRef,
	};
	// A file known to be too big is refused without reading it.
	if (typeof binaryData.bytes === 'number' && binaryData.bytes > DOCUMENT_MAX_BYTES) {
		const early = validateDocumentUpload({ ...fields, fileName, bytes: binaryData.bytes });
		assertValid(this, itemIndex, early);
	}
	const file = await this.helpers.getBinaryDataBuffer(itemIndex, binaryPropertyName);
	assertValid(this, itemIndex, validateDocumentUpload({ ...fields, fileName, bytes: file.length }));

	const response = await apiRequest.call(this, itemIndex, {
		channel,
		method: 'POST',
		path: '/orders/v1/transaction/documents',
		multipart: [
			textPart('transaction_id', transactionId),
			textPart('document_type', documentType),
			textPart('document_ref', documentRef),
			{
				name: 'file',
				fileName,
				contentType: DOCUMENT_CONTENT_TYPES[extensionOf(fileName)],
				data: file,
			},
		],
		retrySafe: false,
	});

	const data =
		typeof response.data === 'object' && response.data !== null && !Array.isArray(response.data)
			? (response.data as IDataObject)
			: { message: response.message };
	return [{ json: data, pairedItem: { item: itemIndex } }];
}
