// Safe by default, in real n8n (set-up: ./lost-answers.support.ts): an order without a Merchant
// Order ID goes out with one the node makes from n8n's execution ID; a write whose answer the
// sandbox drops after acting is settled by looking (or by the refusal of its repeat), and n8n keeps
// the outcome in the execution; the sandbox shows one effect, never two.
import {
	caseNamed,
	CREATE,
	expectOrderConfirmedByDuplicate,
	fresh,
	generatedId,
	live,
	lose,
	ordersWith,
	run,
	sentOrderIds,
	useLostAnswers,
	type Case,
} from './lost-answers.support';
import { requestsTo } from '../workflows/support';

const MANAGE = '/orders/v1/transaction';
let counter = 0;

/** Capture / Void / Refund of a fresh transaction; an effect is one entry of its status history. */
const manage = (operation: string, status: string, amount?: number) => ({
	credential: 'paymentGatewayHostedApi',
	path: MANAGE,
	sends: 1,
	parameters: {
		authentication: 'hosted',
		resource: 'payment',
		operation,
		transactionId: '={{ $json.transactionId }}',
		amount: '={{ $json.amount }}',
		currency: '={{ $json.currency }}',
	},
	prepare: () => {
		const record = fresh(status);
		const before = record.internal.history.length;
		return {
			items: [
				{
					transactionId: record.transaction_id,
					amount: amount ?? Number(record.amount),
					currency: record.currency,
				},
			],
			effects: () => record.internal.history.length - before,
		};
	},
});

const CASES: Case[] = [
	{
		name: 'Create Payment',
		credential: 'paymentGatewayHostedApi',
		path: CREATE,
		sends: 2,
		// Merchant Order ID left empty, as a new node has it.
		parameters: {
			authentication: 'hosted',
			resource: 'order',
			operation: 'createPayment',
			amount: '={{ $json.amount }}',
			currency: 'AED',
		},
		prepare: () => {
			const before = live.sandbox.state.orders.size;
			return { items: [{ amount: 12 }], effects: () => live.sandbox.state.orders.size - before };
		},
	},
	{ name: 'Capture', ...manage('capture', 'AUTHORISED') },
	{ name: 'Void', ...manage('void', 'AUTHORISED') },
	{ name: 'Refund', after: 1, ...manage('refund', 'CAPTURED', 1) },
	{
		name: 'Invoice Item Create',
		credential: 'paymentGatewayInvoiceApi',
		path: '/invoice/v1/items/add',
		sends: 1,
		parameters: {
			resource: 'invoiceItem',
			operation: 'create',
			itemName: '={{ $json.itemName }}',
			ratePerUnit: 10,
			category: 'Services',
		},
		prepare: () => {
			const itemName = `E2E lost item ${process.pid} ${++counter}`;
			const made = () =>
				[...live.sandbox.state.invoiceItems.values()].filter((i) => i.item_name === itemName)
					.length;
			return { items: [{ itemName }], effects: made };
		},
	},
	{
		name: 'Payment Link Deactivate',
		credential: 'paymentGatewayPaymentLinkApi',
		path: '/payment-links/v1/deactivate',
		sends: 2,
		parameters: { resource: 'paymentLink', operation: 'deactivate', dataId: '={{ $json.dataId }}' },
		prepare: () => {
			const dataId = `e2e-link-${++counter}`;
			live.sandbox.state.paymentLinks.set(dataId, {
				data_id: dataId,
				link_id: `L-${dataId}`,
				qr_id: `Q-${dataId}`,
				payment_link: `${live.sandbox.checkoutUrl}/L-${dataId}`,
				amount: '10.00',
				currency: 'AED',
				status: 'Active',
			});
			const link = live.sandbox.state.paymentLinks.get(dataId)!;
			return { items: [{ dataId }], effects: () => (link.status === 'Deactivated' ? 1 : 0) };
		},
	},
];

useLostAnswers('e2eLostAnswers', 'E2E lost answers', CASES);

describe('Order > Create Payment with Merchant Order ID empty (node version 3), in real n8n', () => {
	const create = caseNamed('Create Payment');

	async function createTwo() {
		const { execution, output } = await run(create, [{ amount: 12 }, { amount: 13 }]);
		const ids = output.map((item) => String(item.json.m_order_id));
		expect(output).toHaveLength(2);
		ids.forEach((id, i) => {
			expect(id).toMatch(generatedId(execution, i));
			expect(id.length).toBeLessThanOrEqual(30);
			const orders = ordersWith(id);
			expect(orders).toHaveLength(1);
			expect(orders[0].p_order_id).toBe(String(output[i].json.p_order_id));
		});
		expect(sentOrderIds()).toEqual(ids);
		return ids;
	}

	it('two items: each order goes out with its own n8n-<execution>-<item>-<8 hex> ID, shown in the output; the sandbox holds exactly those orders', async () => {
		const ids = await createTwo();
		expect(new Set(ids).size).toBe(2);
	});

	it('the workflow run again: two new orders with new IDs', async () => {
		const first = await createTwo();
		live.sandbox.clearRequests();
		const again = await createTwo();
		expect(again.filter((id) => first.includes(id))).toEqual([]);
	});
});

describe('a lost answer in real n8n, default settings: settled by looking, one effect', () => {
	it.each(CASES.map((c) => [c.name, c] as const))(
		'%s: the service acted and its answer was dropped → done, with how; one effect in the sandbox',
		async (_name, c) => {
			const { execution, json, sent, effects } = await lose(c, 'dropAnswer');
			expect(json.error).toBeUndefined();
			expect(json.lostAnswer).toEqual({ outcome: 'done', how: expect.stringMatching(/\w/) });
			expect(effects).toBe(1);
			expect(sent).toBe(c.sends);
			// The repeat carried the ID the node made, and the service refused it as a duplicate.
			if (c.path === CREATE) expectOrderConfirmedByDuplicate(execution, json);
		},
	);

	it.each(['Capture', 'Invoice Item Create'])(
		'%s: HTTP 500, the service did not act → notDone in the error item; nothing happened',
		async (name) => {
			const { json, sent, effects } = await lose(caseNamed(name), 'status500');
			expect(json.error).toEqual(expect.stringMatching(/was not (made|created)/));
			expect(json.lostAnswer).toEqual({
				outcome: 'notDone',
				how: expect.stringMatching(/safe to run/),
			});
			expect(sent).toBe(1);
			expect(effects).toBe(0);
		},
	);

	it('Refund: the answer lost at once and the refund applied after the node looked → unknown, never "safe to run again"; one refund in the end', async () => {
		const c = caseNamed('Refund');
		const prepared = await c.prepare();
		// The service applies the refund 5 s after dropping the connection, after the node's look.
		live.sandbox.faults.inject({ kind: 'applyLate', delayMs: 5000, path: c.path, after: 1 });
		const { output } = await run(c, prepared.items);
		const lost = output[0].json.lostAnswer as { outcome?: string; how?: string };
		expect(lost.outcome).toBe('unknown');
		expect(lost.how).toMatch(/^At \d{4}-\d{2}-\d{2}T[\d:.]+Z the transaction was CAPTURED/);
		expect(lost.how).not.toMatch(/safe to run/);
		expect(prepared.effects()).toBe(0);
		// Judged by the sandbox's state: the late refund lands, once.
		const deadline = Date.now() + 60_000;
		while (prepared.effects() === 0 && Date.now() < deadline)
			await new Promise((done) => setTimeout(done, 250));
		expect(prepared.effects()).toBe(1);
		expect(requestsTo(live.sandbox, c.path)).toHaveLength(1);
	});
});
