import type { INodeParameters } from 'n8n-workflow';

import type { HarnessBinaryInput } from '../harness';
import type { Sandbox, TransactionRecord } from '../sandbox';
import { addItem } from '../sandbox/areas/invoiceItems/model';
import { runGateway } from '../workflows/support';
import { activeLink, BULK_BASELINES } from './bulkBaselines';

/** Valid parameters for one operation, ready against the sandbox; every generated set breaks one field of it. */
export interface Baseline {
	parameters: INodeParameters;
	credentialType?: string;
	/** Binary files attached to every input item. */
	binary?: HarnessBinaryInput[];
}

type BaselineMaker = (sandbox: Sandbox) => Promise<Baseline>;

const ORDER_EXTRAS: INodeParameters = {
	items: { item: [{ title: 'Shirt', quantity: 1, unitPrice: '10.00' }] },
	splitRecipients: { recipient: [{ splitId: 'SPL01', type: 'P', value: 10 }] },
};

const order =
	(operation: string, parameters: INodeParameters, credentialType?: string): BaselineMaker =>
	async () => ({
		parameters: {
			resource: 'order',
			operation,
			amount: 100,
			currency: 'AED',
			...ORDER_EXTRAS,
			...parameters,
		},
		credentialType,
	});

/** A token saved through the hosted flow, as a user would have from Save Card's webhook. */
async function savedToken(sandbox: Sandbox, customerId: string): Promise<string> {
	const saved = await runGateway(sandbox, {
		parameters: {
			resource: 'order',
			operation: 'saveCard',
			amount: 1,
			currency: 'AED',
			customerId,
		},
	});
	const pOrderId = String(saved.outputs.Gateway[0].json.p_order_id);
	sandbox.state.completeOrder(pOrderId, 'pay');
	const event = sandbox.state.events.filter((e) => String(e.p_order_id) === pOrderId).pop()!;
	return String(event.payload.m_payment_token);
}

const used = new Set<string>();
const seeded = new Set<string>();

/** Remembers the generated transactions, so baselines never pick one a baseline order created. */
export function rememberSeed(sandbox: Sandbox): void {
	for (const r of sandbox.state.transactions as TransactionRecord[]) seeded.add(r.transaction_id);
}

function unusedTransaction(sandbox: Sandbox, status: string): TransactionRecord {
	const record = (sandbox.state.transactions as TransactionRecord[]).find(
		(r) =>
			seeded.has(r.transaction_id) &&
			r.status === status &&
			['AED', 'USD', 'EUR'].includes(r.currency) &&
			!used.has(r.transaction_id),
	);
	if (!record) throw new Error(`no unused ${status} transaction`);
	used.add(record.transaction_id);
	return record;
}

const managePayment =
	(operation: string, status: string): BaselineMaker =>
	async (sandbox) => {
		const record = unusedTransaction(sandbox, status);
		return {
			parameters: {
				resource: 'payment',
				operation,
				transactionId: record.transaction_id,
				amount: 1,
				currency: record.currency,
			},
		};
	};

/** A captured transaction of a PSP that takes documents, not used by another baseline. */
function documentTransaction(sandbox: Sandbox): TransactionRecord {
	const record = (sandbox.state.transactions as TransactionRecord[]).find(
		(r) =>
			seeded.has(r.transaction_id) &&
			r.status === 'CAPTURED' &&
			!sandbox.state.settings.documentUnsupportedPsps.includes(r.psp) &&
			!used.has(r.transaction_id),
	);
	if (!record) throw new Error('no unused CAPTURED transaction for documents');
	used.add(record.transaction_id);
	return record;
}

const PDF = Buffer.from(
	'%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
);

const INVOICE = 'paymentGatewayInvoiceApi';
const item =
	(operation: string, parameters: INodeParameters = {}): BaselineMaker =>
	async () => ({
		parameters: { resource: 'invoiceItem', operation, ...parameters },
		credentialType: INVOICE,
	});
/** An operation on one existing item, made for this baseline alone. */
const onItem =
	(operation: string, parameters: INodeParameters = {}): BaselineMaker =>
	async (sandbox) => {
		const made = addItem(sandbox.state, {
			item_name: `Baseline ${operation}`,
			item_rate_per_unit: 2,
			item_category: 'Tests',
		});
		// Only a deactivated item can be activated.
		if (operation === 'activate') made.status = 'Deactivated';
		const { data_id } = made;
		return await item(operation, { dataId: data_id, ...parameters })(sandbox);
	};

export const BASELINES: Record<string, BaselineMaker> = {
	'order.createPayment': order('createPayment', {}),
	'order.authorize': order('authorize', { captureMethod: 'MANUAL' }),
	'order.saveCard': order('saveCard', {
		customerId: 'CUST-BASE',
		webhookUrl: 'https://example.com/hook',
	}),
	'order.chargeSavedCard': async (sandbox) => ({
		...(await order('chargeSavedCard', {
			authentication: 's2s',
			customerId: 'CUST-TOKEN',
			paymentToken: await savedToken(sandbox, 'CUST-TOKEN'),
		})(sandbox)),
		credentialType: 'paymentGatewayS2sApi',
	}),
	'order.createSplitPayment': order('createSplitPayment', {}),
	'payment.capture': managePayment('capture', 'AUTHORISED'),
	'payment.void': managePayment('void', 'AUTHORISED'),
	'payment.refund': managePayment('refund', 'CAPTURED'),
	'transaction.get': async (sandbox) => ({
		parameters: {
			resource: 'transaction',
			operation: 'get',
			getBy: 'orderId',
			id: String((sandbox.state.transactions as TransactionRecord[])[0].p_order_id),
		},
	}),
	'transaction.getMany': async () => ({
		parameters: {
			resource: 'transaction',
			operation: 'getMany',
			returnAll: false,
			limit: 3,
			simplify: true,
			filters: {},
		},
	}),
	'transaction.getPosOrder': async (sandbox) => ({
		parameters: {
			resource: 'transaction',
			operation: 'getPosOrder',
			authentication: 'pos',
			orderId: (sandbox.state.transactions as TransactionRecord[])[0].p_order_id,
		},
		credentialType: 'paymentGatewayPosApi',
	}),
	'transaction.uploadDocument': async (sandbox) => {
		const record = documentTransaction(sandbox);
		return {
			parameters: {
				resource: 'transaction',
				operation: 'uploadDocument',
				transactionId: record.transaction_id,
				documentType: 'INVOICE',
				documentRef: `INV-${record.transaction_id}`,
				binaryPropertyName: 'data',
				options: { fileName: 'invoice.pdf' },
			},
			binary: [
				{
					property: 'data',
					fileName: 'invoice.pdf',
					mimeType: 'application/pdf',
					base64: PDF.toString('base64'),
				},
			],
		};
	},
	'invoiceItem.create': item('create', {
		itemName: 'Baseline create',
		ratePerUnit: 5,
		category: 'Tests',
		additionalFields: { description: 'Made by the baseline' },
	}),
	'invoiceItem.update': onItem('update', {
		itemName: 'Baseline updated',
		ratePerUnit: 6,
		category: 'Tests',
		additionalFields: { description: 'Changed by the baseline' },
	}),
	'invoiceItem.activate': onItem('activate'),
	'invoiceItem.deactivate': onItem('deactivate'),
	'invoiceItem.delete': onItem('delete'),
	'invoiceItem.get': onItem('get'),
	'invoiceItem.getMany': item('getMany', {
		returnAll: false,
		limit: 5,
		filters: { status: 'Active' },
	}),
	'payout.bulkCreate': async () => await BULK_BASELINES['payout.bulkCreate'](),
	'paymentLink.bulkCreate': async () => await BULK_BASELINES['paymentLink.bulkCreate'](),
	'paymentLink.deactivate': async (sandbox) => ({
		parameters: {
			resource: 'paymentLink',
			operation: 'deactivate',
			dataId: await activeLink(sandbox),
		},
		credentialType: 'paymentGatewayPaymentLinkApi',
	}),
	'subscriptionPlan.create': async () => ({
		parameters: {
			resource: 'subscriptionPlan',
			operation: 'create',
			planName: `Bad input ${process.pid}`,
			frequency: 'monthly',
			interval: 1,
			currency: 'AED',
			installmentAmount: 100,
			unlimitedTerms: false,
			terms: 12,
			initialPaymentAmount: 100,
			finalPaymentAmount: 100,
			startDate: new Date(Date.now() + 2 * 86400000).toISOString().slice(0, 10) + 'T10:00:00',
			// Recipients and a subject, so the subject's own limits are tried, not "needs recipients".
			email: { customerEmails: 'payer@example.com', subject: 'Your plan' },
		},
		credentialType: 'paymentGatewaySubscriptionApi',
	}),
};
