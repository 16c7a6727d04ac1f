// Order > Wait for Payment in real n8n, shared by the regular-mode (*.e2e.ts) and queue-mode
// (*.queue.ts) suites: the example workflow examples/payment-link-wait.json, started over HTTP,
// each execution waiting for its own order; the sandbox pays, declines or leaves the orders and
// delivers their final status to the executions' resume URLs.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

import { LATE_STATUS_QUERY } from '../../nodes/webhook/late-status';
import type { Sandbox } from '../sandbox';
import { nodeJson } from './fixtures';
import { GATEWAY_TYPE, nodeItems, type Execution, type N8n, type WorkflowJson } from './n8n';
import { SIGNED_RESUME_URLS } from './version';

export const EXAMPLE: WorkflowJson = JSON.parse(
	readFileSync(resolve(__dirname, '../../examples/payment-link-wait.json'), 'utf8'),
) as WorkflowJson;
/** The catch-all the example's orders send their statuses through (its Late Status Trigger URL). */
export const PAYMENT_EVENTS: WorkflowJson = JSON.parse(
	readFileSync(
		resolve(__dirname, '../../examples/checkout-to-fulfilment.payment-events.json'),
		'utf8',
	),
) as WorkflowJson;
export const EARLY_ID = 'e2ePaidBeforeWait';
const WAIT = 'Wait for Payment';
export const LATE_TRIGGER_PATH = '5f0f9c1e-2f52-4c4e-9a34-7c1d2b8e6a01/payment-gateway';
export const BROKEN_ID = 'e2eTriggerPathBroken';
/** A trigger path nobody serves (an unpublished trigger): n8n answers 404 to every status. */
export const BROKEN_TRIGGER_PATH = '0b7d3c55-7a51-4b8e-9f0e-2d4c6a1e9b11/payment-gateway';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface WaitEnv {
	sandbox: Sandbox;
	/** The process with the public API (main). */
	main: N8n;
	/** Where production webhooks are called (main, or the webhook process in queue mode). */
	hookBase: string;
}

/**
 * The example's flow with the customer paying between Create Payment and Wait for Payment (an
 * HTTP Request to the sandbox's hosted-page endpoint): the delivery arrives while the execution runs.
 */
export function paidBeforeWaitWorkflow(sandboxUrl: string): WorkflowJson {
	const byName = (name: string) => structuredClone(EXAMPLE.nodes.find((n) => n.name === name)!);
	const pay = nodeJson('Customer pays at once', 'n8n-nodes-base.httpRequest', 4.2, 440, {
		method: 'POST',
		url: `={{ "${sandboxUrl}/__sandbox/orders/" + $json.p_order_id + "/complete" }}`,
		sendBody: true,
		specifyBody: 'json',
		jsonBody: '{"outcome":"pay"}',
		options: {},
	});
	// Its order's status comes straight to the execution (no trigger): the order's own status decides.
	const create = byName('Create Payment');
	delete (create.parameters as Record<string, unknown>).lateStatusUrl;
	const hook = byName('New order');
	Object.assign(hook, { id: randomUUID(), webhookId: randomUUID() });
	(hook.parameters as Record<string, unknown>).path = 'pay-early';
	const link = (to: string) => ({ main: [[{ node: to, type: 'main', index: 0 }]] });
	return {
		id: EARLY_ID,
		name: 'Paid before the wait',
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			hook,
			{ ...create, id: randomUUID() },
			pay,
			{ ...byName(WAIT), id: randomUUID(), webhookId: randomUUID() },
			{ ...byName('Fulfil order'), id: randomUUID() },
		],
		connections: {
			'New order': link('Create Payment'),
			'Create Payment': link('Customer pays at once'),
			'Customer pays at once': link(WAIT),
			[WAIT]: { main: [[], [{ node: 'Fulfil order', type: 'main', index: 0 }], []] },
		},
	};
}

/**
 * The example unchanged but for its Late Status Trigger URL, which points at a trigger that is not
 * published (`BROKEN_TRIGGER_PATH`), and its own webhook path: the trigger path broken on purpose.
 */
export function triggerPathBrokenWorkflow(): WorkflowJson {
	const workflow = structuredClone(EXAMPLE);
	Object.assign(workflow, { id: BROKEN_ID, name: 'Pay and wait, trigger path broken' });
	type Node = { id: string; name: string; webhookId?: string; parameters: Record<string, unknown> };
	for (const node of workflow.nodes as Node[]) {
		node.id = randomUUID();
		if (node.webhookId) node.webhookId = randomUUID();
		const { parameters } = node;
		if (node.name === 'New order') parameters.path = 'pay-by-link-broken';
		if (typeof parameters.lateStatusUrl === 'string')
			parameters.lateStatusUrl = parameters.lateStatusUrl.replace(
				LATE_TRIGGER_PATH,
				BROKEN_TRIGGER_PATH,
			);
	}
	return workflow;
}

/**
 * Resolves once n8n serves the production webhooks (they answer 404 for a moment after start): a
 * probe without an order body fails in Create Payment and creates no order.
 */
export async function untilWebhooksServed(
	hookBase: string,
	log: () => string,
	timeoutMs = 60_000,
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const probe = await fetch(`${hookBase}/webhook/pay-early`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: '{}',
		});
		if (probe.status !== 404) return;
		if (Date.now() > deadline)
			throw new Error(`webhooks never served at ${hookBase}:\n${log().slice(-3000)}`);
		await sleep(250);
	}
}

export interface Waiting {
	ref: string;
	pOrderId: string;
	executionId: string;
	resumeUrl: string;
	/** The order's webhook URL: the payment-events trigger, carrying the resume URL. */
	webhookUrl: string;
}

/** One execution of the GET /api/v1/executions/:id, with its data. */
export async function executionById(n8n: N8n, id: string): Promise<Execution> {
	const key = await n8n.publicApiKey();
	const response = await fetch(`${n8n.baseUrl}/api/v1/executions/${id}?includeData=true`, {
		headers: { 'X-N8N-API-KEY': key },
	});
	if (!response.ok)
		throw new Error(`GET execution ${id}: ${response.status} ${await response.text()}`);
	return (await response.json()) as Execution;
}

/** Polls an execution until `accept` holds; the last state otherwise. */
export async function untilExecution(
	n8n: N8n,
	id: string,
	accept: (e: Execution) => boolean,
	timeoutMs = 60_000,
): Promise<Execution> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const execution = await executionById(n8n, id);
		if (accept(execution) || Date.now() > deadline) return execution;
		await sleep(500);
	}
}

const finished = (e: Execution) => e.finished || ['success', 'error', 'crashed'].includes(e.status);

/** The order the sandbox holds for a Merchant Order ID, once the workflow created it. */
async function orderOf(
	sandbox: Sandbox,
	ref: string,
	timeoutMs = 60_000,
): Promise<{ pOrderId: string; webhookUrl: string }> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		for (const [pOrderId, order] of sandbox.state.orders) {
			const data = order.request.data as {
				order_details?: { m_order_id?: string };
				urls?: { webhook_url?: string };
			};
			if (data.order_details?.m_order_id === ref)
				return { pOrderId, webhookUrl: String(data.urls?.webhook_url ?? '') };
		}
		if (Date.now() > deadline) throw new Error(`no order ${ref} in the sandbox`);
		await sleep(200);
	}
}

/** Starts the example for a new order; resolves once its execution waits in Wait for Payment. */
export async function startWaiting(
	env: WaitEnv,
	ref: string,
	waitMinutes = 60,
	path = 'pay-by-link',
	triggerPath = LATE_TRIGGER_PATH,
): Promise<Waiting> {
	const body = {
		order_id: ref,
		amount: 25,
		currency: 'AED',
		customer: { name: 'Aisha Khan', email: 'aisha@example.com' },
		wait_minutes: waitMinutes,
	};
	const answer = await fetch(`${env.hookBase}/webhook/${path}`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	expect(answer.status).toBe(200);
	const { pOrderId, webhookUrl } = await orderOf(env.sandbox, ref);
	// Late Status: the order's statuses go to the payment-events trigger, which passes them on.
	const lateStatus = new URL(webhookUrl);
	expect(lateStatus.pathname).toBe(`/webhook/${triggerPath}`);
	const resumeUrl = lateStatus.searchParams.get(LATE_STATUS_QUERY) ?? '';
	const url = new URL(resumeUrl);
	expect(url.origin).toBe(new URL(env.hookBase).origin);
	// n8n 2.x signs resume URLs; 1.x does not (the webhook credential's secret still guards them).
	if (SIGNED_RESUME_URLS) expect(url.searchParams.get('signature')).toMatch(/^[0-9a-f]{64}$/);
	else expect(url.searchParams.has('signature')).toBe(false);
	const segments = url.pathname.split('/');
	const executionId = segments[segments.indexOf('webhook-waiting') + 1];
	const execution = await untilExecution(
		env.main,
		executionId,
		(e) => e.status === 'waiting' || finished(e),
	);
	expect(execution.status).toBe('waiting');
	return { ref, pOrderId, executionId, resumeUrl, webhookUrl };
}

export async function untilFinished(
	env: WaitEnv,
	waiting: Waiting,
	timeoutMs = 60_000,
): Promise<Execution> {
	return await untilExecution(env.main, waiting.executionId, finished, timeoutMs);
}

/** The Wait for Payment node's outputs in the execution's last run of it: [timedOut, paid, failed]. */
export function waitOutputs(execution: Execution): Array<Array<{ json: Record<string, any> }>> {
	const runs = execution.data?.resultData.runData[WAIT] ?? [];
	return (runs[runs.length - 1]?.data?.main ?? []).map(
		(items: unknown) => (items as Array<{ json: Record<string, any> }>) ?? [],
	);
}

export const ran = (execution: Execution, node: string) =>
	nodeItems(execution.data?.resultData.runData, node);

/** POSTs a delivery to a resume URL as the service would (or with another secret). */
export async function deliver(
	url: string,
	secret: string | undefined,
	payload: unknown,
): Promise<{ status: number; body: string }> {
	const headers: Record<string, string> = { 'content-type': 'application/json' };
	if (secret !== undefined) headers['notification-secret'] = secret;
	const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(payload) });
	return { status: response.status, body: await response.text() };
}

/** The final status the sandbox stored for an order (its last webhook event). */
export function lastEvent(sandbox: Sandbox, pOrderId: string) {
	const events = sandbox.state.eventsOf(pOrderId);
	return events[events.length - 1];
}

/** Where the example's trigger is called with a status for the execution of `resumeUrl`. */
export const triggerUrlFor = (hookBase: string, resumeUrl: string) =>
	`${hookBase}/webhook/${LATE_TRIGGER_PATH}?resume=${encodeURIComponent(resumeUrl)}`;

export const gatewayNodes = (workflow: WorkflowJson) =>
	workflow.nodes.filter((n) => n.type === GATEWAY_TYPE);
