// Lost answers in real n8n, the set-up both suites share: one published workflow whose webhooks
// each feed one Payment Gateway node (version 3, the editor's default, settings left at their
// defaults, Continue On Fail), run against the sandbox; outputs read from the executions n8n saved.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

import { startSandbox, type FaultKind, type Sandbox, type TransactionRecord } from '../sandbox';
import { requestsTo, sandboxCredentials } from '../workflows/support';
import { GATEWAY_TYPE, N8n, nodeItems, type Execution, type Item, type WorkflowJson } from './n8n';

export const CREATE = '/orders/v1/create';

/** A file posted to the webhook (multipart), which n8n hands on as the binary field `data`. */
export interface Upload {
	fileName: string;
	mimeType: string;
	data: Buffer;
}

export interface Prepared {
	/** The webhook's items. */
	items: object[];
	file?: Upload;
	/** The write's effects in the sandbox since `prepare` (2 would be a duplicate). */
	effects: () => number;
}

export interface Case {
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
	prepare: () => Prepared | Promise<Prepared>;
}

/** The sandbox and n8n of the running suite, set in its beforeAll. */
export const live = {} as { sandbox: Sandbox; n8n: N8n };

let workflowId = '';
let cases: Case[] = [];
const credentialIds = new Map<string, string>();

const hookPath = (c: Case) => `lost-${c.name.toLowerCase().replace(/ /g, '-')}`;
const hookUrl = (c: Case) => `${live.n8n.baseUrl}/webhook/${hookPath(c)}`;

/** Per case: Webhook (its items, and a file if posted) → Code (one item each) → Payment Gateway. */
function workflow(name: string): WorkflowJson {
	const node = (nodeName: string, type: string, typeVersion: number, extra: object) => ({
		id: randomUUID(),
		name: nodeName,
		type,
		typeVersion,
		position: [0, 0],
		...extra,
	});
	const link = (to: string) => ({ main: [[{ node: to, type: 'main', index: 0 }]] });
	// A multipart body's fields arrive as text; its file goes with every item.
	const jsCode = [
		'const { json, binary } = $input.first();',
		"const items = typeof json.body.items === 'string' ? JSON.parse(json.body.items) : json.body.items;",
		'return items.map((item) => (binary ? { json: item, binary } : { json: item }));',
	].join('\n');
	const nodes: Array<Record<string, unknown>> = [];
	const connections: Record<string, unknown> = {};
	for (const c of cases) {
		const [hook, split] = [`Webhook ${c.name}`, `Items ${c.name}`];
		nodes.push(
			node(hook, 'n8n-nodes-base.webhook', 2, {
				webhookId: randomUUID(),
				parameters: { httpMethod: 'POST', path: hookPath(c), responseMode: 'lastNode' },
			}),
			node(split, 'n8n-nodes-base.code', 2, { parameters: { jsCode } }),
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
	return { id: workflowId, name, active: false, nodes, connections, settings };
}

/** Starts the sandbox and an n8n serving the suite's published workflow, one branch per case. */
export function useLostAnswers(id: string, name: string, suiteCases: Case[]): void {
	workflowId = id;
	cases = suiteCases;
	beforeAll(async () => {
		live.sandbox = await startSandbox({ seed: 33, transactionCount: 300 });
		live.n8n = await N8n.create();
		const credentials = sandboxCredentials(live.sandbox).map((c, i) => {
			credentialIds.set(c.type, `${id}Cred${i}`);
			return { ...c, id: `${id}Cred${i}`, name: c.type };
		});
		await live.n8n.importCredentials(credentials);
		await live.n8n.importWorkflow(workflow(name));
		await live.n8n.publish(id);
		await live.n8n.start();
		await live.n8n.waitForWebhooks(cases.map(hookUrl));
	}, 900_000);

	afterAll(async () => {
		await live.n8n?.dispose();
		await live.sandbox?.stop();
	});

	beforeEach(() => {
		live.sandbox.faults.clear();
		live.sandbox.clearRequests();
	});
}

export const caseNamed = (name: string) => cases.find((c) => c.name === name)!;

const used = new Set<string>();
/** A transaction of this status no earlier case used, on a PSP that takes documents. */
export function fresh(status: string): TransactionRecord {
	const { state } = live.sandbox;
	const record = (state.transactions as TransactionRecord[]).find(
		(r) =>
			r.status === status &&
			['AED', 'USD', 'EUR'].includes(r.currency) &&
			!state.settings.documentUnsupportedPsps.includes(r.psp) &&
			!used.has(r.transaction_id),
	);
	if (!record) throw new Error(`no unused ${status} transaction`);
	used.add(record.transaction_id);
	return record;
}

export const ordersWith = (mOrderId: unknown) =>
	[...live.sandbox.state.orders.values()].filter(
		(o) => o.request.data.order_details.m_order_id === mOrderId,
	);
export const sentOrderIds = () =>
	requestsTo(live.sandbox, CREATE).map(
		(r) => JSON.parse(r.body.toString()).data.order_details.m_order_id as string,
	);

/** The items as JSON, or with a file as multipart (the items then a text field). */
function body(items: object[], file?: Upload): Pick<RequestInit, 'body' | 'headers'> {
	if (!file) {
		return {
			body: JSON.stringify({ items }),
			headers: { 'content-type': 'application/json' },
		};
	}
	const form = new FormData();
	form.append('items', JSON.stringify(items));
	form.append('data', new Blob([file.data], { type: file.mimeType }), file.fileName);
	return { body: form };
}

/**
 * Posts once n8n serves the webhook. On a loaded machine n8n answered a CORS probe of the path (so
 * `waitForWebhooks` passed) and then 404 to the first POST: a 404 starts no execution, so the POST
 * is sent again until n8n takes it (a safety net of 120 s, judged by n8n's answer).
 */
async function postWhenRegistered(
	url: string,
	request: () => Pick<RequestInit, 'body' | 'headers'>,
): Promise<Response> {
	for (const deadline = Date.now() + 120_000; ; await sleep(500)) {
		const response = await fetch(url, { method: 'POST', ...request() });
		if (response.status !== 404 || Date.now() > deadline) return response;
		await response.text();
	}
}

/** Posts the items to the case's webhook; the execution n8n saved, and the node's output in it. */
export async function run(
	c: Case,
	items: object[],
	file?: Upload,
): Promise<{ execution: Execution; output: Item[] }> {
	const before = (await live.n8n.executions(workflowId)).length;
	const response = await postWhenRegistered(hookUrl(c), () => body(items, file));
	expect(response.status).toBe(200);
	const executions = await live.n8n.waitForExecutions(
		workflowId,
		(e) => e.length > before && e[0].finished,
	);
	expect(executions).toHaveLength(before + 1);
	const [execution] = executions;
	expect(execution).toMatchObject({ status: 'success', mode: 'webhook' });
	return { execution, output: nodeItems(execution.data?.resultData.runData, c.name) };
}

/** One item through the case's node with the fault on its write; what n8n and the sandbox show. */
export async function lose(c: Case, kind: FaultKind) {
	const prepared = await c.prepare();
	live.sandbox.faults.inject({ kind, path: c.path, after: c.after ?? 0 });
	const { execution, output } = await run(c, prepared.items, prepared.file);
	expect(output).toHaveLength(1);
	const sent = requestsTo(live.sandbox, c.path).length;
	return { execution, json: output[0].json, sent, effects: prepared.effects() };
}

/** n8n-<execution>-<item>-<8 hex digits>, at most 30 characters. */
export const generatedId = (execution: Execution, item: number) =>
	new RegExp(`^n8n-${execution.id}-${item}-[0-9a-f]{8}$`);

/** An order settled by the refusal of its repeat: both attempts carried the ID the node made. */
export function expectOrderConfirmedByDuplicate(execution: Execution, json: Item['json']): void {
	expect(json).toMatchObject({ confirmedByDuplicate: true });
	expect(String(json.m_order_id)).toMatch(generatedId(execution, 0));
	expect(sentOrderIds()).toEqual([json.m_order_id, json.m_order_id]);
	expect(ordersWith(json.m_order_id)).toHaveLength(1);
}
