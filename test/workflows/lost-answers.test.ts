import type { IDataObject, INodeParameters } from 'n8n-workflow';

import * as capture from '../../nodes/PaymentGateway/actions/payment/capture.operation';
import * as refund from '../../nodes/PaymentGateway/actions/payment/refund.operation';
import * as voidPayment from '../../nodes/PaymentGateway/actions/payment/void.operation';
import * as invoiceItemCreate from '../../nodes/PaymentGateway/actions/invoiceItem/create.operation';
import * as authorize from '../../nodes/PaymentGateway/actions/order/authorize.operation';
import * as chargeSavedCard from '../../nodes/PaymentGateway/actions/order/chargeSavedCard.operation';
import * as createPayment from '../../nodes/PaymentGateway/actions/order/createPayment.operation';
import * as createSplitPayment from '../../nodes/PaymentGateway/actions/order/createSplitPayment.operation';
import * as saveCard from '../../nodes/PaymentGateway/actions/order/saveCard.operation';
import * as linkBulkCreate from '../../nodes/PaymentGateway/actions/paymentLink/bulkCreate.operation';
import * as linkDeactivate from '../../nodes/PaymentGateway/actions/paymentLink/deactivate.operation';
import * as payoutBulkCreate from '../../nodes/PaymentGateway/actions/payout/bulkCreate.operation';
import * as planCreate from '../../nodes/PaymentGateway/actions/subscriptionPlan/create.operation';
import * as uploadDocument from '../../nodes/PaymentGateway/actions/transaction/uploadDocument.operation';
import type { OperationFacts } from '../../nodes/PaymentGateway/actions/tool';
import type { FaultKind, Sandbox, TransactionRecord } from '../sandbox';
import { startSandbox } from '../sandbox';
import type { HarnessBinaryInput } from '../harness';
import { requestsTo, runGateway } from './support';

/**
 * Every operation that moves money or creates a record, with default settings, when the service's
 * answer is lost: `dropAnswer` (the service acted, the connection dropped before the answer) and
 * `status500` (the service did not act). What the node does is what the operation's facts say (the
 * same facts its request and its tool description are made from): a repeat only where the service
 * refuses it as already done, else a check; the item or error says done / notDone / unknown; never
 * a second record.
 */
let sandbox: Sandbox;
let counter = 0;

beforeAll(async () => {
	sandbox = await startSandbox({ seed: 33, transactionCount: 300 });
});
afterAll(async () => await sandbox.stop());
beforeEach(() => {
	sandbox.faults.clear();
	sandbox.clearRequests();
});

const unique = (prefix: string) => `${prefix} ${process.pid} ${++counter}`;
const used = new Set<string>();
function fresh(status: string): TransactionRecord {
	const record = (sandbox.state.transactions as TransactionRecord[]).find(
		(r) =>
			r.status === status &&
			['AED', 'USD', 'EUR'].includes(r.currency) &&
			!sandbox.state.settings.documentUnsupportedPsps.includes(r.psp) &&
			!used.has(r.transaction_id),
	);
	if (!record) throw new Error(`no unused ${status} transaction`);
	used.add(record.transaction_id);
	return record;
}

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const LINK_ROW = {
	Currency: 'AED',
	Amount: 120,
	'Shipping Fee': 0,
	'Convenience Fee': 0,
	'Qty Per Transaction': 1,
	'No Of Transactions': 1,
	'Total Collection': 'till_expiry',
	'Overall Qty Allowed': 10,
	'Qty Frequency': 'till_expiry',
	'Is Expiry': 0,
};
const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

interface Prepared {
	parameters: IDataObject;
	items?: object[];
	binary?: HarnessBinaryInput[];
	/** Records this write made so far (0 or 1; 2 would be a duplicate). */
	made: () => number;
}

interface Case {
	name: string;
	facts: OperationFacts;
	path: string;
	credentialType?: string;
	prepare: () => Promise<Prepared> | Prepared;
}

const ordersMade = () => {
	const before = sandbox.state.orders.size;
	return () => sandbox.state.orders.size - before;
};
const order = (operation: string, parameters: IDataObject, credentialType?: string) => ({
	path: '/orders/v1/create',
	credentialType,
	prepare: () => ({
		parameters: { resource: 'order', operation, amount: 12, currency: 'AED', ...parameters },
		made: ordersMade(),
	}),
});

const manage = (operation: string, status: string, done: (r: TransactionRecord) => number) => ({
	path: '/orders/v1/transaction',
	prepare: () => {
		const record = fresh(status);
		return {
			parameters: {
				resource: 'payment',
				operation,
				transactionId: record.transaction_id,
				amount: operation === 'refund' ? 1 : Number(record.amount),
				currency: record.currency,
			},
			made: () => done(record),
		};
	},
});

const CASES: Case[] = [
	{ name: 'Order > Create Payment', facts: createPayment.facts, ...order('createPayment', {}) },
	{ name: 'Order > Authorize', facts: authorize.facts, ...order('authorize', {}) },
	{
		name: 'Order > Save Card',
		facts: saveCard.facts,
		...order('saveCard', { customerId: 'CUST-LOST' }),
	},
	{
		name: 'Order > Create Split Payment',
		facts: createSplitPayment.facts,
		...order('createSplitPayment', {
			transactionAction: 'SALE',
			splitRecipients: { recipient: [{ splitId: 'SPL01', type: 'P', value: 50 }] },
		}),
	},
	{
		name: 'Order > Charge Saved Card',
		facts: chargeSavedCard.facts,
		path: '/orders/v1/create',
		credentialType: 'paymentGatewayS2sApi',
		prepare: () => {
			const { token } = sandbox.state.addToken({ m_customer_id: 'CUST-CHG' });
			return {
				parameters: {
					resource: 'order',
					operation: 'chargeSavedCard',
					authentication: 's2s',
					paymentToken: token,
					customerId: 'CUST-CHG',
					amount: 7,
					currency: 'AED',
					transactionAction: 'SALE',
				},
				made: ordersMade(),
			};
		},
	},
	{
		name: 'Payment > Capture',
		facts: capture.facts,
		...manage('capture', 'AUTHORISED', (r) => (r.status === 'CAPTURED' ? 1 : 0)),
	},
	{
		name: 'Payment > Void',
		facts: voidPayment.facts,
		...manage('void', 'AUTHORISED', (r) => (r.status === 'VOID' ? 1 : 0)),
	},
	{
		name: 'Payment > Refund',
		facts: refund.facts,
		// Refunds of 1: the refunded total counts them.
		...manage('refund', 'CAPTURED', (r) => Number(r.internal.amount_refunded)),
	},
	{
		name: 'Transaction > Upload Document',
		facts: uploadDocument.facts,
		path: '/orders/v1/transaction/documents',
		prepare: () => {
			const record = fresh('CAPTURED');
			return {
				parameters: {
					resource: 'transaction',
					operation: 'uploadDocument',
					transactionId: record.transaction_id,
					documentType: 'INVOICE',
					documentRef: `INV-${record.transaction_id}`,
				},
				binary: [
					{
						property: 'data',
						fileName: 'invoice.pdf',
						mimeType: 'application/pdf',
						base64: PDF.toString('base64'),
					},
				],
				made: () =>
					sandbox.state.documents.filter((d) => d.transaction_id === record.transaction_id).length,
			};
		},
	},
	{
		name: 'Invoice Item > Create',
		facts: invoiceItemCreate.facts,
		path: '/invoice/v1/items/add',
		credentialType: 'paymentGatewayInvoiceApi',
		prepare: () => {
			const name = unique('Lost item');
			return {
				parameters: {
					resource: 'invoiceItem',
					operation: 'create',
					itemName: name,
					ratePerUnit: 10,
					category: 'Services',
				},
				made: () =>
					[...sandbox.state.invoiceItems.values()].filter((i) => i.item_name === name).length,
			};
		},
	},
	{
		name: 'Subscription Plan > Create',
		facts: planCreate.facts,
		path: '/subscriptions/v1/add',
		credentialType: 'paymentGatewaySubscriptionApi',
		prepare: () => {
			const name = unique('Lost plan');
			return {
				parameters: {
					resource: 'subscriptionPlan',
					operation: 'create',
					planName: name,
					frequency: 'monthly',
					interval: 1,
					currency: 'AED',
					installmentAmount: 100,
					unlimitedTerms: false,
					terms: 12,
					initialPaymentAmount: 100,
					finalPaymentAmount: 100,
					startDate: `${tomorrow}T09:00:00`,
				},
				made: () =>
					[...sandbox.state.subscriptionPlans.values()].filter(
						(p) => (p.request as IDataObject).plan_name === name,
					).length,
			};
		},
	},
	{
		name: 'Payment Link > Deactivate',
		facts: linkDeactivate.facts,
		path: '/payment-links/v1/deactivate',
		credentialType: 'paymentGatewayPaymentLinkApi',
		prepare: async () => {
			const created = await runGateway(sandbox, {
				items: [LINK_ROW],
				credentialType: 'paymentGatewayPaymentLinkApi',
				parameters: { resource: 'paymentLink', operation: 'bulkCreate' },
			});
			expect(created.error).toBeUndefined();
			const link = [...sandbox.state.paymentLinks.values()].at(-1)!;
			sandbox.clearRequests();
			return {
				parameters: { resource: 'paymentLink', operation: 'deactivate', dataId: link.data_id },
				made: () => (link.status === 'Deactivated' ? 1 : 0),
			};
		},
	},
	{
		name: 'Payment Link > Bulk Create',
		facts: linkBulkCreate.facts,
		path: '/payment-links/v1/bulk-upload',
		credentialType: 'paymentGatewayPaymentLinkApi',
		prepare: () => {
			const before = sandbox.state.paymentLinkUploads.length;
			return {
				parameters: { resource: 'paymentLink', operation: 'bulkCreate' },
				items: [LINK_ROW],
				made: () => sandbox.state.paymentLinkUploads.length - before,
			};
		},
	},
	{
		name: 'Payout > Bulk Create',
		facts: payoutBulkCreate.facts,
		path: '/payout/v1/bulk/payouts',
		credentialType: 'paymentGatewayPayoutApi',
		prepare: () => {
			const before = sandbox.state.payoutBatches.size;
			const row = {
				'Reference No': unique('PAY').replace(/ /g, '-'),
				'Payment Mode': 'NEFT',
				Amount: 120,
				Remark: 'Refund of deposit',
				'Beneficiary Name': 'Asha Rao',
				'Beneficiary Account Number': '123456789012',
				'Beneficiary IFSC': 'HDFC0001234',
			};
			return {
				parameters: { resource: 'payout', operation: 'bulkCreate', currency: 'INR' },
				items: [row],
				made: () => sandbox.state.payoutBatches.size - before,
			};
		},
	},
];

async function runCase(c: Case, kind: FaultKind) {
	const prepared = await c.prepare();
	// A refund reads the transaction list first, whose path starts with the manage path.
	sandbox.faults.inject({ kind, path: c.path, after: c.name === 'Payment > Refund' ? 1 : 0 });
	const result = await runGateway(sandbox, {
		parameters: prepared.parameters as INodeParameters,
		items: prepared.items,
		binary: prepared.binary,
		credentialType: c.credentialType,
		continueOnFail: true,
	});
	const [item] = result.outputs.Gateway;
	const lostAnswer = (item.json.lostAnswer ?? {}) as IDataObject;
	return { item, lostAnswer, sent: requestsTo(sandbox, c.path).length, made: prepared.made() };
}

const write = (facts: OperationFacts) => {
	if (facts.kind !== 'write') throw new Error('not a write');
	return facts;
};

describe.each(CASES.map((c) => [c.name, c] as const))('%s: a lost answer', (_name, c) => {
	const facts = write(c.facts);

	it('the service acted, the answer dropped: done, with the record; made once', async () => {
		const { item, lostAnswer, sent, made } = await runCase(c, 'dropAnswer');
		expect(made).toBe(1);
		expect(sent).toBe(facts.retried ? 2 : 1);
		if (facts.lostAnswer === 'unknown') {
			expect(item.json.error).toBeDefined();
			expect(lostAnswer.outcome).toBe('unknown');
		} else {
			expect(item.json.error).toBeUndefined();
			expect(lostAnswer.outcome).toBe('done');
			expect(String(lostAnswer.how)).not.toBe('');
		}
	});

	it('the service did not act (HTTP 500): made at most once, never twice', async () => {
		const { item, lostAnswer, sent, made } = await runCase(c, 'status500');
		if (facts.retried) {
			// The repeat was the first request the service acted on: an ordinary answer.
			expect(sent).toBe(2);
			expect(made).toBe(1);
			expect(item.json.error).toBeUndefined();
		} else {
			expect(sent).toBe(1);
			expect(made).toBe(0);
			expect(item.json.error).toBeDefined();
			// Only a check that can prove "not done" says so; a refund may still be applied later.
			expect(lostAnswer.outcome).toBe(facts.lostAnswer === 'check' ? 'notDone' : 'unknown');
		}
	});
});

describe('the order a lost answer is about', () => {
	it('an empty Merchant Order ID: the one the node made is in every attempt and in the output', async () => {
		const { item, sent } = await runCase(CASES[0], 'dropAnswer');
		const ids = requestsTo(sandbox, '/orders/v1/create').map(
			(r) => JSON.parse(r.body.toString()).data.order_details.m_order_id,
		);
		expect(sent).toBe(2);
		expect(ids[0]).toMatch(/^n8n-/);
		expect(ids[1]).toBe(ids[0]);
		expect(item.json).toMatchObject({ confirmedByDuplicate: true, m_order_id: ids[0] });
	});
});

describe('a refund whose answer was lost', () => {
	it('done: says a refund of the same amount made elsewhere could not be told apart', async () => {
		const { item, lostAnswer } = await runCase(
			CASES.find((c) => c.name === 'Payment > Refund')!,
			'dropAnswer',
		);
		expect(lostAnswer.how).toMatch(/could not be told apart from this one/);
		// A refund of 1 from a CAPTURED transaction: what was captured less 1 is left.
		const captured = Number((item.json.transaction as IDataObject).amount_captured);
		expect(item.json.amount_left_to_refund).toBe(Math.round((captured - 1) * 100) / 100);
	});

	it('on a transaction already partially refunded: unknown, and says why', async () => {
		const record = fresh('CAPTURED');
		const first = await runGateway(sandbox, {
			parameters: {
				resource: 'payment',
				operation: 'refund',
				transactionId: record.transaction_id,
				amount: 1,
				currency: record.currency,
			},
		});
		expect(first.error).toBeUndefined();
		sandbox.faults.inject({ kind: 'status500', path: '/orders/v1/transaction', after: 1 });
		const result = await runGateway(sandbox, {
			continueOnFail: true,
			parameters: {
				resource: 'payment',
				operation: 'refund',
				transactionId: record.transaction_id,
				amount: 1,
				currency: record.currency,
			},
		});
		const json = result.outputs.Gateway[0].json;
		expect(json.lostAnswer).toMatchObject({ outcome: 'unknown' });
		expect(String((json.lostAnswer as IDataObject).how)).toMatch(
			/A further partial refund leaves that status as it was/,
		);
		expect(json.error).toBe(
			"The refund's answer was lost and the node cannot tell whether it went through",
		);
	});
});
