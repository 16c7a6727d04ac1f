import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { readTable, toWire } from '../../fields/read';
import { formParts } from '../../transport/multipart';
import { assertValid } from '../../fields/violations';
import { getChannel } from '../channel';
import {
	contentTypeOf,
	DOCUMENT_CODES,
	DOCUMENT_NAME,
	EXTENSION_RULE,
	fileNameAndSizeViolations,
	fileViolations,
} from './document';
import type { ServiceFailure } from '../../transport/errors';
import type { NodeError } from '../errorItem';
import { doneAfterLostAnswer, sendWrite, settledError } from '../lostAnswer';
import { tableOperation } from '../operation';
import { refusesRepeat } from '../tool';
import { optionsOf } from '../../fields/types';

/** The file to send and its name: the File Name option, else the binary's own name. */
async function readFile(
	ctx: IExecuteFunctions,
	itemIndex: number,
	property: string,
	optionName: unknown,
) {
	const binary = ctx.helpers.assertBinaryData(itemIndex, property);
	const fileName =
		(typeof optionName === 'string' ? optionName : '') ||
		(binary.fileName ?? '').trim() ||
		(binary.fileExtension ? `document.${binary.fileExtension}` : '');
	// A file known to be too big (or of the wrong type) is refused without reading it.
	assertValid(
		ctx,
		itemIndex,
		fileNameAndSizeViolations(
			fileName,
			typeof binary.bytes === 'number' ? binary.bytes : undefined,
		),
	);
	const file = await ctx.helpers.getBinaryDataBuffer(itemIndex, property);
	assertValid(ctx, itemIndex, fileViolations(fileName, file));
	return { fileName, file };
}

/** The service's refusal of a repeat that names this very document: the first attempt stored it. */
function sameDocument(failure: ServiceFailure, sent: IDataObject): IDataObject | undefined {
	if (failure.code !== '201' && failure.code !== '202') return undefined;
	const body = (failure.body ?? {}) as IDataObject;
	const data = (
		typeof body.data === 'object' && body.data !== null ? body.data : {}
	) as IDataObject;
	if (String(data.document_ref ?? '') !== String(sent.document_ref)) return undefined;
	return doneAfterLostAnswer(
		{ ...data, transaction_id: sent.transaction_id, message: failure.message },
		`The answer to the first attempt was lost; the node sent the document again and the service refused it as already uploaded (code ${failure.code}) with this document_ref: the first attempt stored it.`,
	);
}

/** Every attempt's answer lost, or a repeat refused for another document of the order. */
function lostAnswerError(error: NodeError): NodeError {
	if (error.context.serviceCode === '201') {
		return settledError(
			error,
			'notDone',
			'The document was not uploaded: the order already has an invoice with another reference',
			'The answer to the first attempt was lost; the repeat was refused because the order already has an INVOICE with another document_ref (one per order), so this one was not stored.',
		);
	}
	return settledError(
		error,
		'unknown',
		"The document upload's answer was lost and no later attempt settled it",
		"An attempt's answer was lost and no later attempt settled it. Uploading again is safe: the service stores the document once, and refuses a second INVOICE for the order or a second AWB with this reference.",
	);
}

/**
 * Multipart POST /orders/v1/transaction/documents with exactly four fields: transaction_id,
 * document_type, document_ref and file. Sent again after a lost answer: the service refuses a
 * second invoice for the order and a second AWB with the same reference, which settles it.
 */
export const { option, table, facts, toolDescription, description, execute } = tableOperation({
	resource: 'transaction',
	option: {
		name: 'Upload Document',
		value: 'uploadDocument',
		description: 'Attach an invoice or airway bill (AWB) to a captured transaction',
		action: 'Upload a transaction document',
	},
	table: [
		{
			name: 'transactionId',
			displayName: 'Transaction ID',
			type: 'text',
			wire: 'transaction_id',
			required: true,
			description: "The service's ID of the captured transaction the document belongs to",
			ui: { hint: "The transaction_id from the order's webhook or from Transaction > Get Many" },
		},
		{
			name: 'documentType',
			displayName: 'Document Type',
			type: 'options',
			wire: 'document_type',
			required: true,
			// The service takes any case and stores upper case.
			caseInsensitive: true,
			options: [
				{ name: 'Invoice', value: 'INVOICE', description: 'At most one invoice per order' },
				{
					name: 'AWB',
					value: 'AWB',
					description: 'Airway bill; several per order, each with its own reference',
				},
			],
			description: 'What the document is',
		},
		{
			name: 'documentRef',
			displayName: 'Document Reference',
			type: 'text',
			wire: 'document_ref',
			required: true,
			minLength: 3,
			maxLength: 100,
			description: 'The invoice number or the airway-bill number (3-100 characters)',
		},
		{
			name: 'binaryPropertyName',
			displayName: 'Input Binary Field',
			type: 'text',
			required: true,
			description: 'The file to upload: pdf, doc, docx, jpg or jpeg, at most 2 MB',
			ui: { default: 'data', hint: 'The name of the input binary property that holds the file' },
		},
		optionsOf([
			{
				name: 'fileName',
				displayName: 'File Name',
				label: 'file',
				type: 'text',
				pattern: { regex: DOCUMENT_NAME, rule: EXTENSION_RULE },
				description:
					'File name to send instead of the one of the binary data; its extension must be pdf, doc, docx, jpg or jpeg',
			},
		]),
	],
	facts: refusesRepeat(
		'the service refuses a second invoice for an order and a second air waybill with the same reference',
	),
	tool: 'Attaches an invoice or air waybill file (from the binary data of the item) to a captured transaction. Needs the transaction ID, the document type and its reference.',
	run: async (ctx, itemIndex, table, facts) => {
		const channel = getChannel(ctx, itemIndex);
		const { values, violations } = readTable(ctx, itemIndex, table);
		assertValid(ctx, itemIndex, violations);
		const options = values.options as IDataObject;
		const { fileName, file } = await readFile(
			ctx,
			itemIndex,
			String(values.binaryPropertyName),
			options.fileName,
		);
		const fields = toWire(table, values);
		const response = await sendWrite(
			ctx,
			itemIndex,
			{
				channel,
				method: 'POST',
				path: '/orders/v1/transaction/documents',
				multipart: [
					// transaction_id, document_type and document_ref, as the table names them.
					...formParts(fields),
					{
						name: 'file',
						fileName,
						contentType: contentTypeOf(fileName) ?? 'application/octet-stream',
						data: file,
					},
				],
				retrySafe: facts.retried,
				howToCheck: "check the transaction's documents in the merchant dashboard",
				codes: DOCUMENT_CODES,
				confirmDuplicate: (failure) => sameDocument(failure, fields),
			},
			lostAnswerError,
		);
		if (response.lostAnswer) return [{ json: response, pairedItem: { item: itemIndex } }];

		const data =
			typeof response.data === 'object' && response.data !== null && !Array.isArray(response.data)
				? (response.data as IDataObject)
				: { message: response.message };
		return [{ json: data, pairedItem: { item: itemIndex } }];
	},
});
