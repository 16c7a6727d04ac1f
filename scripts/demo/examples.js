// The demo's example workflows and the credentials they use, all pointing at the sandbox
// (scripts/demo.js imports them; `npm start` runs it).
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '../..');
const N8N_SH = path.join(ROOT, 'scripts/n8n.sh');
// DEMO_EXAMPLES_DIR: another folder of example JSON (for trying the demo script itself).
const EXAMPLES = process.env.DEMO_EXAMPLES_DIR ? path.resolve(process.env.DEMO_EXAMPLES_DIR) : path.join(ROOT, 'examples');
const PACKAGE = 'n8n-nodes-payment-gateway';
const GATEWAY_TYPE = `${PACKAGE}.paymentGateway`;
const TRIGGER_TYPE = `${PACKAGE}.paymentGatewayTrigger`;
const TRIGGER_PATH = 'payment-gateway';
/** The Payout Results Trigger: published, its production URL is the payout account's results address. */
const PAYOUT_TRIGGER_TYPE = `${PACKAGE}.paymentGatewayPayoutTrigger`;
const PAYOUT_TRIGGER_PATH = 'payout-results';
const HOSTED_TYPE = 'paymentGatewayHostedApi';
/** The owner account made on first start (documented in README.md). */
const OWNER = { email: 'demo@example.com', password: 'Demo-Passw0rd', firstName: 'Demo', lastName: 'Owner' };

// ---------------------------------------------------------------------------------------------
// Credentials: one per channel, all pointing at the sandbox.

/** Sandbox data for each credential type of the package. */
function credentialData(type, sandbox) {
	const { keys, baseUrl, payoutUrl } = sandbox;
	const channels = {
		paymentGatewayHostedApi: keys.hosted,
		paymentGatewaySdkApi: keys.sdk,
		paymentGatewayS2sApi: keys.s2s,
		paymentGatewayPaymentLinkApi: keys.paymentLink,
		paymentGatewaySubscriptionApi: keys.subscription,
		paymentGatewayInvoiceApi: keys.invoice,
	};
	if (channels[type]) return { baseUrl, ...channels[type] };
	if (type === 'paymentGatewayPosApi') return { baseUrl, merchantKey: keys.pos.apiKey, merchantSecret: keys.pos.apiSecret };
	if (type === 'paymentGatewayPayoutApi') {
		return { payoutUrl, obtainBy: 'request', ...keys.payout, keyPlacement: 'headers' };
	}
	if (type === 'paymentGatewayWebhookApi') return { notificationSecret: keys.webhook.notificationSecret };
	return undefined;
}

/** Our own credential of each type, for types no example refers to. */
const DEFAULT_CREDENTIALS = [
	['paymentGatewayHostedApi', 'demoHostedCred', 'Sandbox Hosted Solution'],
	['paymentGatewaySdkApi', 'demoSdkCred', 'Sandbox SDK'],
	['paymentGatewayS2sApi', 'demoS2sCred', 'Sandbox S2S'],
	['paymentGatewayPaymentLinkApi', 'demoPayLinkCred', 'Sandbox Payment Link'],
	['paymentGatewaySubscriptionApi', 'demoSubscrCred', 'Sandbox Subscription'],
	['paymentGatewayInvoiceApi', 'demoInvoiceCred', 'Sandbox Invoice'],
	['paymentGatewayPosApi', 'demoPosCred', 'Sandbox POS'],
	['paymentGatewayPayoutApi', 'demoPayoutCred', 'Sandbox Payout'],
	['paymentGatewayWebhookApi', 'demoWebhookCred', 'Sandbox Webhook'],
];

/**
 * Every credential the demo needs: the examples' template (examples/credentials*.json, when
 * there is one) with its data filled in from the sandbox, then one for every credential an
 * example workflow refers to by id, then our own for every type still missing.
 */
function demoCredentials(sandbox, workflows, template) {
	const byId = new Map();
	const add = (id, name, type) => {
		if (!id || byId.has(id)) return;
		const data = credentialData(type, sandbox);
		if (data) byId.set(id, { id, name: name || id, type, data });
	};
	// The examples' own filler (examples/fill-credentials.js) when there is one; else our data.
	let filled = [];
	const filler = path.join(EXAMPLES, 'fill-credentials.js');
	if (template.length > 0 && fs.existsSync(filler)) {
		try {
			filled = require(filler).fillCredentials(sandbox);
		} catch (error) {
			console.warn(`demo: ${path.relative(ROOT, filler)} failed (${error.message}); using the demo's own credential data`);
		}
	}
	for (const entry of filled) {
		if (entry?.id && entry.type && entry.data && !byId.has(entry.id)) byId.set(entry.id, entry);
	}
	for (const entry of template) add(entry.id, entry.name, entry.type);
	for (const workflow of workflows) {
		for (const node of workflow.nodes ?? []) {
			for (const [type, ref] of Object.entries(node.credentials ?? {})) add(ref?.id, ref?.name, type);
		}
	}
	const types = new Set([...byId.values()].map((entry) => entry.type));
	for (const [type, id, name] of DEFAULT_CREDENTIALS) if (!types.has(type)) add(id, name, type);
	// Imported in this order, the Hosted one last: n8n gives a new node the newest usable
	// credential, so a new Order node shows the Hosted credential the README's first order uses.
	const entries = [...byId.values()];
	const hosted = (entry) => entry.type === HOSTED_TYPE;
	return [...entries.filter((entry) => !hosted(entry)), ...entries.filter(hosted)];
}

// ---------------------------------------------------------------------------------------------
// Examples

function readJson(file) {
	return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/** examples/*.json: workflows (objects with nodes) and an optional credentials template (array). */
function readExamples() {
	const workflows = [];
	const template = [];
	if (!fs.existsSync(EXAMPLES)) return { workflows, template };
	for (const name of fs.readdirSync(EXAMPLES).sort()) {
		if (!name.endsWith('.json')) continue;
		const file = path.join(EXAMPLES, name);
		let content;
		try {
			content = readJson(file);
		} catch (error) {
			console.warn(`demo: skipping ${path.relative(ROOT, file)}: ${error.message}`);
			continue;
		}
		const entries = Array.isArray(content) ? content : [content];
		for (const entry of entries) {
			if (entry && Array.isArray(entry.nodes)) {
				if (!entry.id) console.warn(`demo: ${name} has no workflow id; skipped`);
				else workflows.push({ ...entry, file: name });
			} else if (entry && typeof entry.type === 'string' && entry.id) {
				template.push(entry);
			}
		}
	}
	return { workflows, template };
}

const nodesOf = (workflow, type) => (workflow.nodes ?? []).filter((node) => node.type === type);

const MCP_TRIGGER_TYPE = '@n8n/n8n-nodes-langchain.mcpTrigger';
/** What the MCP address is and how to use it: a stream for MCP clients, not a page. */
const MCP_USE = [
	'      (an MCP server address: an event stream that never finishes loading in a browser or curl.',
	'      Give it to an MCP client: an AI Agent node\'s MCP Client Tool (Endpoint: this URL), Claude',
	'      Desktop or `npx @modelcontextprotocol/inspector`; see docs/ai-agents.md)',
];

/** Workflows started by an outside event: published so that their production URLs answer. */
function listensForEvents(workflow) {
	return (workflow.nodes ?? []).some(
		(node) =>
			!node.disabled &&
			(node.type === TRIGGER_TYPE ||
				node.type === PAYOUT_TRIGGER_TYPE ||
				node.type === 'n8n-nodes-base.webhook' ||
				node.type === 'n8n-nodes-base.formTrigger' ||
				node.type === MCP_TRIGGER_TYPE),
	);
}

/** Every channel's sandbox keys, one line each, as the credential fields name them. */
function keyLines(keys) {
	const line = (label, text) => `                ${label.padEnd(13)} ${text}`;
	const pair = (label, k) => line(label, `Merchant Key ${k.merchantKey}  Merchant Secret ${k.merchantSecret}`);
	return [
		pair('Hosted', keys.hosted),
		pair('S2S', keys.s2s),
		pair('SDK', keys.sdk),
		pair('Invoice', keys.invoice),
		pair('Subscription', keys.subscription),
		pair('Payment Link', keys.paymentLink),
		line('Payout', `Payout Key ${keys.payout.merchantKey}  Payout Secret ${keys.payout.merchantSecret}`),
		line('POS', `POS Web API Key ${keys.pos.apiKey}  POS Web API Secret ${keys.pos.apiSecret}`),
		line('Webhook', `Notification Secret ${keys.webhook.notificationSecret}`),
	];
}

/** Production URLs of a workflow's webhook-like start nodes. */
function productionUrls(workflow, base) {
	const urls = [];
	for (const node of workflow.nodes ?? []) {
		if (node.disabled) continue;
		if (node.type === TRIGGER_TYPE) {
			const prefix = node.webhookId ? `${node.webhookId}` : `${workflow.id}/${encodeURIComponent(node.name)}`;
			urls.push({ node: node.name, kind: 'trigger', method: 'POST', url: `${base}/webhook/${prefix}/${TRIGGER_PATH}` });
		} else if (node.type === PAYOUT_TRIGGER_TYPE) {
			// A full path (isFullPath): /webhook/<path>, no webhook id in it.
			const p = node.parameters?.path || PAYOUT_TRIGGER_PATH;
			urls.push({ node: node.name, kind: 'payout-results', method: 'POST', url: `${base}/webhook/${p}` });
		} else if (node.type === 'n8n-nodes-base.webhook') {
			const p = node.parameters?.path || node.webhookId;
			urls.push({ node: node.name, kind: 'webhook', method: node.parameters?.httpMethod ?? 'GET', url: `${base}/webhook/${p}` });
		} else if (node.type === 'n8n-nodes-base.formTrigger') {
			const p = node.parameters?.path || node.webhookId;
			urls.push({ node: node.name, kind: 'form', url: `${base}/form/${p}` });
		} else if (node.type === MCP_TRIGGER_TYPE) {
			urls.push({ node: node.name, kind: 'mcp', url: `${base}/mcp/${node.parameters?.path || node.webhookId}` });
		}
	}
	return urls;
}

/** The trigger workflow the sandbox delivers to by default: the checkout one when there is one. */
function checkoutTrigger(workflows) {
	const triggers = workflows.filter((w) => nodesOf(w, TRIGGER_TYPE).some((n) => !n.disabled));
	return (
		triggers.find((w) => /checkout|fulfil/i.test(`${w.file} ${w.name}`)) ??
		triggers.find((w) => !/save|card|token/i.test(`${w.file} ${w.name}`)) ??
		triggers[0]
	);
}

module.exports = {
	OWNER,
	ROOT,
	N8N_SH,
	EXAMPLES,
	PACKAGE,
	GATEWAY_TYPE,
	TRIGGER_TYPE,
	TRIGGER_PATH,
	PAYOUT_TRIGGER_TYPE,
	HOSTED_TYPE,
	credentialData,
	DEFAULT_CREDENTIALS,
	demoCredentials,
	readJson,
	readExamples,
	nodesOf,
	MCP_TRIGGER_TYPE,
	MCP_USE,
	listensForEvents,
	keyLines,
	productionUrls,
	checkoutTrigger,
};
