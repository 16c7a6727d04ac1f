// Lost answers settled by the service's refusal of a repeat, in real n8n (set-up:
// ./lost-answers.support.ts): the order operations (each order carries the Merchant Order ID the
// node makes), Upload Document and Subscription Plan Create are sent again and the refusal says
// the first attempt acted: done. Payment Link Bulk Create cannot be checked and is not sent again:
// unknown. The uploads take their file from the webhook's binary data. One effect, never two.
import { paymentLinkSchema } from '../../nodes/PaymentGateway/spreadsheet/paymentLink';
import { buildXlsx } from '../../nodes/PaymentGateway/spreadsheet/xlsx';
import {
	CREATE,
	expectOrderConfirmedByDuplicate,
	fresh,
	live,
	lose,
	useLostAnswers,
	type Case,
	type Prepared,
} from './lost-answers.support';

type RepeatCase = Case & { outcome: 'done' | 'unknown'; how: RegExp };

let counter = 0;
const unique = (prefix: string) => `${prefix} ${process.pid} ${++counter}`;
const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const REFUSED_ORDER =
	/sent the order again with the same Merchant Order ID .* refused it as a duplicate/;

/** An order operation, Merchant Order ID left empty as a new node has it; an effect is an order. */
const order = (
	operation: string,
	parameters: Record<string, unknown>,
	item: () => object = () => ({}),
	credential = 'paymentGatewayHostedApi',
) => ({
	credential,
	path: CREATE,
	sends: 2,
	outcome: 'done' as const,
	how: REFUSED_ORDER,
	parameters: {
		authentication: credential === 'paymentGatewayS2sApi' ? 's2s' : 'hosted',
		resource: 'order',
		operation,
		amount: '={{ $json.amount }}',
		currency: 'AED',
		...parameters,
	},
	prepare: (): Prepared => {
		const before = live.sandbox.state.orders.size;
		return {
			items: [{ amount: 12, ...item() }],
			effects: () => live.sandbox.state.orders.size - before,
		};
	},
});

const LINK_COLUMNS = paymentLinkSchema('').columns.map((c) => c.displayName);
const LINK_ROW: Record<string, string | number> = {
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

const CASES: RepeatCase[] = [
	{ name: 'Authorize', ...order('authorize', {}) },
	{
		name: 'Save Card',
		...order('saveCard', { customerId: '={{ $json.customerId }}' }, () => ({
			customerId: 'CUST-LOST',
		})),
	},
	{
		name: 'Charge Saved Card',
		...order(
			'chargeSavedCard',
			{
				paymentToken: '={{ $json.token }}',
				customerId: '={{ $json.customerId }}',
				transactionAction: 'SALE',
			},
			() => ({
				customerId: 'CUST-CHG',
				...live.sandbox.state.addToken({ m_customer_id: 'CUST-CHG' }),
			}),
			'paymentGatewayS2sApi',
		),
	},
	{
		name: 'Create Split Payment',
		...order('createSplitPayment', {
			transactionAction: 'SALE',
			splitRecipients: { recipient: [{ splitId: 'SPL01', type: 'P', value: 50 }] },
		}),
	},
	{
		name: 'Upload Document',
		credential: 'paymentGatewayHostedApi',
		path: '/orders/v1/transaction/documents',
		sends: 2,
		outcome: 'done',
		how: /sent the document again and the service refused it as already uploaded/,
		parameters: {
			authentication: 'hosted',
			resource: 'transaction',
			operation: 'uploadDocument',
			transactionId: '={{ $json.transactionId }}',
			documentType: 'INVOICE',
			documentRef: '={{ $json.documentRef }}',
		},
		prepare: () => {
			const { transaction_id: transactionId } = fresh('CAPTURED');
			const documents = () =>
				live.sandbox.state.documents.filter((d) => d.transaction_id === transactionId);
			return {
				items: [{ transactionId, documentRef: `INV-${transactionId}` }],
				file: { fileName: 'invoice.pdf', mimeType: 'application/pdf', data: PDF },
				// The stored file is the one posted to the webhook.
				effects: () => documents().filter((d) => d.data.equals(PDF)).length,
			};
		},
	},
	{
		name: 'Subscription Plan Create',
		credential: 'paymentGatewaySubscriptionApi',
		path: '/subscriptions/v1/add',
		sends: 2,
		outcome: 'done',
		how: /sent the plan again and the service refused it as a plan that already exists/,
		parameters: {
			resource: 'subscriptionPlan',
			operation: 'create',
			planName: '={{ $json.planName }}',
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
		prepare: () => {
			const planName = unique('E2E lost plan');
			const plans = () =>
				[...live.sandbox.state.subscriptionPlans.values()].filter(
					(p) => (p.request as { plan_name?: string }).plan_name === planName,
				);
			return { items: [{ planName }], effects: () => plans().length };
		},
	},
	{
		name: 'Payment Link Bulk Create',
		credential: 'paymentGatewayPaymentLinkApi',
		path: '/payment-links/v1/bulk-upload',
		sends: 1,
		outcome: 'unknown',
		how: /no read of payment links .* Check the payment links in the merchant dashboard/,
		parameters: { resource: 'paymentLink', operation: 'bulkCreate', inputMode: 'binary' },
		prepare: async () => {
			const row: typeof LINK_ROW = { ...LINK_ROW, Description: unique('E2E lost links') };
			const data = await buildXlsx('Sheet1', LINK_COLUMNS, [
				LINK_COLUMNS.map((column) => row[column]),
			]);
			// A link is an effect: one per row of the posted file.
			const links = () =>
				[...live.sandbox.state.paymentLinks.values()].filter(
					(l) => l.columns?.Description === row.Description,
				);
			return {
				items: [{}],
				file: { fileName: 'links.xlsx', mimeType: XLSX, data },
				effects: () => links().length,
			};
		},
	},
];

useLostAnswers('e2eLostAnswersRepeat', 'E2E lost answers, settled by a repeat', CASES);

describe('a lost answer in real n8n, default settings: settled by a refused repeat, or unknown', () => {
	it.each(CASES.map((c) => [c.name, c.outcome, c] as const))(
		'%s: the service acted and its answer was dropped → %s, with how; one effect in the sandbox',
		async (_name, _outcome, c) => {
			const { execution, json, sent, effects } = await lose(c, 'dropAnswer');
			expect(effects).toBe(1);
			expect(sent).toBe(c.sends);
			expect(json.lostAnswer).toEqual({ outcome: c.outcome, how: expect.stringMatching(c.how) });
			if (c.outcome === 'unknown') {
				expect(json.error).toBe(
					'The payment link upload may have created links: its answer was lost',
				);
				return;
			}
			expect(json.error).toBeUndefined();
			// The repeat carried the ID the node made, and the service refused it as a duplicate.
			if (c.path === CREATE) expectOrderConfirmedByDuplicate(execution, json);
		},
	);

	const after500 = (c: RepeatCase) =>
		c.outcome === 'unknown' ? 'unknown, sent once, nothing made' : 'sent again, made once';
	it.each(CASES.map((c) => [c.name, after500(c), c] as const))(
		'%s: HTTP 500, the service did not act → %s',
		async (_name, _after, c) => {
			const { json, sent, effects } = await lose(c, 'status500');
			if (c.outcome === 'unknown') {
				expect(json.lostAnswer).toEqual({ outcome: 'unknown', how: expect.stringMatching(c.how) });
				expect([sent, effects]).toEqual([1, 0]);
				return;
			}
			// The repeat was the first request the service acted on: an ordinary answer.
			expect(json.error).toBeUndefined();
			expect(json.lostAnswer).toBeUndefined();
			expect([sent, effects]).toEqual([2, 1]);
		},
	);
});
