// Safe by default, in real n8n: a published workflow whose webhooks each feed one Payment Gateway
// node (version 3, the editor's default, settings left at their defaults, Continue On Fail), run
// against the sandbox. An order without a Merchant Order ID goes out with one the node makes from
// n8n's execution ID; a write whose answer the sandbox drops after acting is settled by looking,
// and n8n keeps the outcome in the execution; the sandbox shows one effect, never two.
import { randomUUID } from 'node:crypto';

import { startSandbox, type FaultKind, type Sandbox, type TransactionRecord } from '../sandbox';
import { requestsTo, sandboxCredentials } from '../workflows/support';
import { GATEWAY_TYPE, N8n, nodeItems, type Execution, type Item, type WorkflowJson } from './n8n';

const WORKFLOW_ID = 'e2eLostAnswers';
const CREATE = '/orders/v1/create';
const MANAGE = '/orders/v1/transaction';

let sandbox: Sandbox;
let n8n: N8n;
let counter = 0;

interface Case {
	/** The Payment Gateway node's name. */
	name: string;
	credential: string;
	/** The write's path: the fault's and the counted requests'. */
	path: string;
	/** Requests to `path` let through before the fault (a refund reads the transaction first). */
	after?: number;
	/** Requests to `path` after a dropped answer: 2 where the node repeats and the service refuses. */
	sends: number;
	parameters: Record<string, unknown>;
	/** The webhook's items, and the write's effects in the sandbox since (2 would be a duplicate). */
	prepare: () => { items: object[]; effects: () => number };
}

const used = new Set<string>();
/** A transaction of this status no earlier case used. */
function fresh(status: string): TransactionRecord {
	const record = (sandbox.state.transactions as TransactionRecord[]).find(
		(r) =>
			r.status === status &&
			['AED', 'USD', 'EUR'].includes(r.currency) &&
			!used.has(r.transaction_id),
	);
	if (!record) throw new Error(`no unused ${status} transaction`);
	used.add(record.transaction_id);
	return record;
}

const ordersWith = (mOrderId: unknown) =>
	[...sandbox.state.orders.values()].filter(
		(o) => o.request.data.order_details.m_order_id === mOrderId,
	);
const sentOrderIds = () =>
	requestsTo(sandbox, CREATE).map(
		(r) => JSON.parse(r.body.toString()).data.order_details.m_order_id as string,
	);

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
			const before = sandbox.state.orders.size;
			return { items: [{ amount: 12 }], effects: () => sandbox.state.orders.size - before };
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
				[...sandbox.state.invoiceItems.values()].filter((i) => i.item_name === itemName).length;
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
			sandbox.state.paymentLinks.set(dataId, {
				data_id: dataId,
				link_id: `L-${dataId}`,
				qr_id: `Q-${dataId}`,
				payment_link: `${sandbox.checkoutUrl}/L-${dataId}`,
				amount: '10.00',
				currency: 'AED',
				status: 'Active',
			});
			const link = sandbox.state.paymentLinks.get(dataId)!;
			return { items: [{ dataId }], effects: () => (link.status === 'Deactivated' ? 1 : 0) };
		},
	},
];

const caseNamed = (name: string) => CASES.find((c) => c.name === name)!;
const hookPath = (c: Case) => `lost-${c.name.toLowerCase().replace(/ /g, '-')}`;
const hookUrl = (c: Case) => `${n8n.baseUrl}/webhook/${hookPath(c)}`;
const credentialIds = new Map<string, string>();

/** Per case: Webhook (its items in the body) → Code (one item each) → Payment Gateway v3. */
function workflow(): WorkflowJson {
	const node = (name: string, type: string, typeVersion: number, extra: object) => ({
		id: randomUUID(),
		name,
		type,
		typeVersion,
		position: [0, 0],
		...extra,
	});
	const link = (to: string) => ({ main: [[{ node: to, type: 'main', index: 0 }]] });
	const nodes: Array<Record<string, unknown>> = [];
	const connections: Record<string, unknown> = {};
	for (const c of CASES) {
		const [hook, split] = [`Webhook ${c.name}`, `Items ${c.name}`];
		nodes.push(
			node(hook, 'n8n-nodes-base.webhook', 2, {
				webhookId: randomUUID(),
				parameters: { httpMethod: 'POST', path: hookPath(c), responseMode: 'lastNode' },
			}),
			node(split, 'n8n-nodes-base.code', 2, {
				parameters: { jsCode: 'return $input.first().json.body.items.map((json) => ({ json }));' },
			}),
			node(c.name, GATEWAY_TYPE, 3, {
				parameters: c.parameters,
				credentials: {
					[c.credential]: { id: credentialIds.get(c.credential), name: c.credential },
				},
				onError: 'continueRegularOutput',
			}),
		);
		connections[hook] = link(split);
		connections[split] = link(c.name);
	}
	const settings = { executionOrder: 'v1' };
	return { id: WORKFLOW_ID, name: 'E2E lost answers', active: false, nodes, connections, settings };
}

beforeAll(async () => {
	sandbox = await startSandbox({ seed: 33, transactionCount: 300 });
	n8n = await N8n.create();
	const credentials = sandboxCredentials(sandbox).map((c, i) => {
		credentialIds.set(c.type, `e2eLostCred${i}`);
		return { ...c, id: `e2eLostCred${i}`, name: c.type };
	});
	await n8n.importCredentials(credentials);
	await n8n.importWorkflow(workflow());
	await n8n.publish(WORKFLOW_ID);
	await n8n.start();
	await n8n.waitForWebhooks(CASES.map(hookUrl));
}, 300_000);

afterAll(async () => {
	await n8n?.dispose();
	await sandbox?.stop();
});

beforeEach(() => {
	sandbox.faults.clear();
	sandbox.clearRequests();
});

/** Posts the items to the case's webhook; the execution n8n saved, and the node's output in it. */
async function run(c: Case, items: object[]): Promise<{ execution: Execution; output: Item[] }> {
	const before = (await n8n.executions(WORKFLOW_ID)).length;
	const response = await fetch(hookUrl(c), {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ items }),
	});
	expect(response.status).toBe(200);
	const executions = await n8n.waitForExecutions(
		WORKFLOW_ID,
		(e) => e.length > before && e[0].finished,
	);
	expect(executions).toHaveLength(before + 1);
	const [execution] = executions;
	expect(execution).toMatchObject({ status: 'success', mode: 'webhook' });
	return { execution, output: nodeItems(execution.data?.resultData.runData, c.name) };
}

/** n8n-<execution>-<item>-<8 hex digits>, at most 30 characters. */
const generatedId = (execution: Execution, item: number) =>
	new RegExp(`^n8n-${execution.id}-${item}-[0-9a-f]{8}$`);

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
		sandbox.clearRequests();
		const again = await createTwo();
		expect(again.filter((id) => first.includes(id))).toEqual([]);
	});
});

describe('a lost answer in real n8n, default settings: settled by looking, one effect', () => {
	async function lose(c: Case, kind: FaultKind) {
		const prepared = c.prepare();
		sandbox.faults.inject({ kind, path: c.path, after: c.after ?? 0 });
		const { execution, output } = await run(c, prepared.items);
		expect(output).toHaveLength(1);
		const sent = requestsTo(sandbox, c.path).length;
		return { execution, json: output[0].json, sent, effects: prepared.effects() };
	}

	it.each(CASES.map((c) => [c.name, c] as const))(
		'%s: the service acted and its answer was dropped → done, with how; one effect in the sandbox',
		async (_name, c) => {
			const { execution, json, sent, effects } = await lose(c, 'dropAnswer');
			expect(json.error).toBeUndefined();
			expect(json.lostAnswer).toEqual({ outcome: 'done', how: expect.stringMatching(/\w/) });
			expect(effects).toBe(1);
			expect(sent).toBe(c.sends);
			if (c.name !== 'Create Payment') return;
			// The repeat carried the ID the node made, and the service refused it as a duplicate.
			expect(json).toMatchObject({ confirmedByDuplicate: true });
			expect(String(json.m_order_id)).toMatch(generatedId(execution, 0));
			expect(sentOrderIds()).toEqual([json.m_order_id, json.m_order_id]);
			expect(ordersWith(json.m_order_id)).toHaveLength(1);
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
});
