// Workflow JSON for the benchmark: Manual Trigger, then per contender a Code node making its items
// and the contender itself, in the order given (A/B alternated by the caller).
import { randomUUID } from 'node:crypto';

import type { Sandbox } from '../test/sandbox';
import { GATEWAY_TYPE, type CredentialEntry, type WorkflowJson } from '../test/e2e/n8n';

export type Channel = 'hosted' | 'invoice' | 'paymentLink' | 'payout';

const CREDENTIAL_TYPES: Record<Channel, string> = {
	hosted: 'paymentGatewayHostedApi',
	invoice: 'paymentGatewayInvoiceApi',
	paymentLink: 'paymentGatewayPaymentLinkApi',
	payout: 'paymentGatewayPayoutApi',
};

/** A credential id per sandbox and channel (n8n ids: at most 21 characters). */
const credentialId = (sandboxName: string, channel: Channel) => `b${sandboxName}${channel}`.slice(0, 21);

export function credentialsFor(name: string, sandbox: Sandbox): CredentialEntry[] {
	return (Object.keys(CREDENTIAL_TYPES) as Channel[]).map((channel) => ({
		id: credentialId(name, channel),
		name: credentialId(name, channel),
		type: CREDENTIAL_TYPES[channel],
		data:
			channel === 'payout'
				? { payoutUrl: sandbox.payoutUrl, obtainBy: 'request', ...sandbox.keys.payout }
				: { baseUrl: sandbox.baseUrl, ...sandbox.keys[channel] },
	}));
}

/** One contender: the node measured, fed by its own item generator (JavaScript of a Code node). */
export interface Contender {
	name: string;
	items: string;
	node: Record<string, unknown>;
	/** Fed one item at a time by Loop Over Items: how n8n users make a node send sequentially. */
	oneByOne?: boolean;
}

export function gateway(sandboxName: string, parameters: Record<string, unknown>, channel: Channel = 'hosted', typeVersion = 1) {
	return {
		type: GATEWAY_TYPE,
		typeVersion,
		parameters: channel === 'hosted' ? { authentication: channel, ...parameters } : parameters,
		credentials: { [CREDENTIAL_TYPES[channel]]: { id: credentialId(sandboxName, channel), name: credentialId(sandboxName, channel) } },
	};
}

/** n8n's HTTP Request node sending the merchant keys as plain headers (no credential to resolve). */
export function httpRequest(sandbox: Sandbox, request: { method: string; path: string; query?: Record<string, string>; jsonBody?: string }) {
	const pairs = (record: Record<string, string>) => Object.entries(record).map(([name, value]) => ({ name, value }));
	return {
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		parameters: {
			method: request.method,
			url: `${sandbox.baseUrl}${request.path}`,
			...(request.query ? { sendQuery: true, queryParameters: { parameters: pairs(request.query) } } : {}),
			sendHeaders: true,
			headerParameters: { parameters: pairs({ 'merchant-key': sandbox.keys.hosted.merchantKey, 'merchant-secret': sandbox.keys.hosted.merchantSecret }) },
			...(request.jsonBody ? { sendBody: true, specifyBody: 'json', jsonBody: request.jsonBody } : {}),
			options: {},
		},
	};
}

/** Manual Trigger → (items → contender) for each contender in order, as one chain. */
export function benchWorkflow(id: string, contenders: Contender[]): WorkflowJson {
	const nodes: Array<Record<string, unknown>> = [
		{ id: randomUUID(), name: 'Manual Trigger', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
	];
	const link = (node: string, index = 0) => ({ node, index });
	const edges: Array<[from: { node: string; index: number }, to: string]> = [];
	let last = link('Manual Trigger');
	for (const contender of contenders) {
		const x = nodes.length * 200;
		const items = `Items for ${contender.name}`;
		nodes.push({ id: randomUUID(), name: items, type: 'n8n-nodes-base.code', typeVersion: 2, position: [x, 0], parameters: { jsCode: contender.items } });
		nodes.push({ id: randomUUID(), name: contender.name, position: [x + 200, 0], ...contender.node });
		edges.push([last, items]);
		if (!contender.oneByOne) {
			edges.push([link(items), contender.name]);
			last = link(contender.name);
			continue;
		}
		// Loop Over Items: output 0 once every batch is done, output 1 for each batch of one item.
		const loop = `Loop for ${contender.name}`;
		nodes.push({ id: randomUUID(), name: loop, type: 'n8n-nodes-base.splitInBatches', typeVersion: 3, position: [x + 100, 100], parameters: { batchSize: 1, options: {} } });
		edges.push([link(items), loop], [link(loop, 1), contender.name], [link(contender.name), loop]);
		last = link(loop, 0);
	}
	const connections: Record<string, { main: Array<Array<{ node: string; type: string; index: number }>> }> = {};
	for (const [from, to] of edges) {
		const outputs = (connections[from.node] ??= { main: [] }).main;
		while (outputs.length <= from.index) outputs.push([]);
		outputs[from.index].push({ node: to, type: 'main', index: 0 });
	}
	return { id, name: id, active: false, settings: { executionOrder: 'v1' }, nodes, connections };
}

/** Code node source returning `count` items built by `json` (a JS expression of i and run). */
export const itemsCode = (count: number, json: string) =>
	`const run = Date.now().toString(36) + Math.random().toString(36).slice(2, 6);\n` +
	`return Array.from({ length: ${count} }, (_, i) => ({ json: ${json} }));`;
