// The one-command demo (`npm start` → scripts/start.sh → here, under Node 24, after the build and
// the n8n install): the service sandbox and a real n8n with this package, the example workflows
// and credentials pointing at the sandbox, an owner account to log in with. Ctrl-C stops both.
//
//   node scripts/demo.js [--reset] [--port 5678] [--sandbox-port 5680]
//
// The n8n user folder .tools/demo-n8n (git-ignored) keeps what you change in the editor between
// runs; --reset deletes it first. Examples are imported when their workflow id is not there yet.
// .tools/demo-n8n is a link to a folder outside the clone (DEMO_HOME): n8n loads the package from
// the folder's .n8n/nodes, and Node.js looks in every node_modules above a package before n8n's
// own module paths, so inside the clone the package would reach the clone's development copies of
// n8n-workflow, n8n-core and @n8n/*. Outside it, it reaches what n8n's installer leaves: nothing.
'use strict';

const { spawn, spawnSync } = require('node:child_process');
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const net = require('node:net');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const N8N_SH = path.join(ROOT, 'scripts/n8n.sh');
// DEMO_EXAMPLES_DIR: another folder of example JSON (for trying the demo script itself).
const EXAMPLES = process.env.DEMO_EXAMPLES_DIR ? path.resolve(process.env.DEMO_EXAMPLES_DIR) : path.join(ROOT, 'examples');
const PACKAGE = 'n8n-nodes-payment-gateway';
const GATEWAY_TYPE = `${PACKAGE}.paymentGateway`;
const TRIGGER_TYPE = `${PACKAGE}.paymentGatewayTrigger`;
const TRIGGER_PATH = 'payment-gateway';
const HOSTED_TYPE = 'paymentGatewayHostedApi';

/** Where the demo's n8n folder really is: outside the clone, one per clone (see the top). */
const DEMO_HOME = path.join(
	process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'),
	'n8n-nodes-payment-gateway',
	`demo-${path.basename(ROOT)}-${createHash('sha256').update(ROOT).digest('hex').slice(0, 8)}`,
);
/** The trigger's exactly-once mode the demo documents (docs/running-at-scale.md, regular mode). */
const DOCUMENTED_MODE = 'memory + database rows + execution check';

/** The owner account made on first start (documented in README.md). */
const OWNER = { email: 'demo@example.com', password: 'Demo-Passw0rd', firstName: 'Demo', lastName: 'Owner' };
const BROWSER_ID = 'n8n-nodes-payment-gateway-demo';

const USAGE = 'usage: npm start -- [--reset] [--port 5678] [--sandbox-port 5680]';

function parseArgs(argv) {
	const options = { reset: false, port: 5678, sandboxPort: 5680 };
	for (let i = 0; i < argv.length; i += 1) {
		const flag = argv[i];
		if (flag === '--help' || flag === '-h') {
			console.log(USAGE);
			process.exit(0);
		} else if (flag === '--reset') options.reset = true;
		else if (flag === '--port' || flag === '--sandbox-port') {
			const value = argv[(i += 1)];
			if (!/^\d+$/.test(value ?? '')) fail(`${flag} needs a port number`);
			options[flag === '--port' ? 'port' : 'sandboxPort'] = Number(value);
		} else fail(`unknown argument ${flag}\n${USAGE}`);
	}
	return options;
}

function fail(message) {
	console.error(`demo: ${message}`);
	process.exit(2);
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

function portFree(port) {
	return new Promise((done) => {
		const server = net.createServer();
		server.once('error', () => done(false));
		server.listen(port, '127.0.0.1', () => server.close(() => done(true)));
	});
}

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

// ---------------------------------------------------------------------------------------------
// n8n processes

class Demo {
	constructor(options) {
		this.options = options;
		// DEMO_N8N_FOLDER: another n8n user folder (the end-to-end suite runs the demo in a temporary one).
		this.folder = process.env.DEMO_N8N_FOLDER ? path.resolve(process.env.DEMO_N8N_FOLDER) : path.join(ROOT, '.tools/demo-n8n');
		this.base = `http://127.0.0.1:${options.port}`;
		this.server = undefined;
		this.sandbox = undefined;
		this.stopping = false;
		this.cliChild = undefined;
	}

	/** `n8n.sh <args>`, output captured. */
	n8nSh(args) {
		return spawnSync('bash', [N8N_SH, ...args], { encoding: 'utf8', cwd: ROOT });
	}

	/** One n8n CLI command against the demo folder (boots n8n: a few seconds). */
	cli(args) {
		return new Promise((done, reject) => {
			const child = spawn('bash', [N8N_SH, 'run', this.folder, String(this.options.port), ...args], {
				detached: true,
				stdio: ['ignore', 'pipe', 'pipe'],
				env: { ...process.env, N8N_LOG_LEVEL: 'warn', N8N_WATCH_PID: String(process.pid) },
			});
			this.cliChild = child;
			let output = '';
			child.stdout.on('data', (chunk) => (output += chunk));
			child.stderr.on('data', (chunk) => (output += chunk));
			child.once('error', reject);
			child.once('close', (code) => {
				this.cliChild = undefined;
				killGroup(child.pid, 'SIGKILL'); // a task runner child may outlive the command
				if (this.stopping) reject(new Error('stopped'));
				else if (code === 0) done(output);
				else reject(new Error(`n8n ${args.join(' ')} failed (exit ${code}):\n${output.slice(-3000)}`));
			});
		});
	}

	/** `n8n start` with the editor UI, its output in n8n.log; resolves at readiness. */
	async startN8n() {
		const logFile = path.join(this.folder, 'n8n.log');
		// Lines of this start only: the log is kept across starts.
		this.logStart = fs.statSync(logFile, { throwIfNoEntry: false })?.size ?? 0;
		const log = fs.openSync(logFile, 'a');
		const child = spawn('bash', [N8N_SH, 'run', this.folder, String(this.options.port), 'start'], {
			detached: true,
			stdio: ['ignore', log, log],
			env: {
				...process.env,
				N8N_DISABLE_UI: 'false',
				N8N_LOG_LEVEL: process.env.N8N_LOG_LEVEL ?? 'info',
				// The sandbox writes its date texts in UTC: the ISO copies read them in this zone.
				GENERIC_TIMEZONE: process.env.GENERIC_TIMEZONE ?? 'UTC',
				N8N_WATCH_PID: String(process.pid),
			},
		});
		fs.closeSync(log);
		this.server = child;
		child.once('exit', (code, signal) => {
			if (this.stopping) return;
			console.error(`\nn8n stopped unexpectedly (${signal ?? `exit ${code}`}); its log: ${logFile}`);
			console.error(tail(logFile));
			this.stop(1);
		});
		const deadline = Date.now() + 180_000;
		while (Date.now() < deadline) {
			if (this.stopping) return;
			const status = await fetch(`${this.base}/healthz/readiness`).then((r) => r.status, () => 0);
			if (status === 200) return;
			await sleep(300);
		}
		throw new Error(`n8n did not get ready within 3 minutes; its log: ${logFile}\n${tail(logFile)}`);
	}

	/** The owner account: set up the first time, then a login to check it. Returns the cookie. */
	async ownerLogin() {
		const post = (route, body) =>
			fetch(`${this.base}${route}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', 'browser-id': BROWSER_ID },
				body: JSON.stringify(body),
			});
		let response = await post('/rest/owner/setup', OWNER);
		const created = response.ok;
		if (response.status === 400) {
			// The owner exists already (an earlier run): log in.
			response = await post('/rest/login', { emailOrLdapLoginId: OWNER.email, password: OWNER.password });
		}
		if (!response.ok) return { ok: false, created, status: response.status };
		const cookie = response.headers
			.getSetCookie()
			.map((c) => c.split(';')[0])
			.join('; ');
		return { ok: true, created, cookie };
	}

	/** The workflows n8n holds, through the editor's own REST API. */
	async workflowsInN8n(cookie) {
		const response = await fetch(`${this.base}/rest/workflows`, {
			headers: { cookie, 'browser-id': BROWSER_ID },
		});
		if (!response.ok) return undefined;
		const body = await response.json();
		return body.data;
	}

	async run() {
		const { options } = this;
		for (const [port, what] of [
			[options.sandboxPort, 'the sandbox (--sandbox-port)'],
			[options.port, 'n8n (--port)'],
			[options.port + 1, "n8n's task broker (--port + 1)"],
		]) {
			if (!(await portFree(port))) fail(`port ${port} for ${what} is in use: is a demo already running? Stop it, or pick other ports.`);
		}

		if (options.reset && fs.existsSync(this.folder)) {
			console.log(`Resetting: removing ${path.relative(ROOT, this.folder)}`);
			fs.rmSync(fs.realpathSync(this.folder), { recursive: true, force: true });
		}
		if (!process.env.DEMO_N8N_FOLDER) linkOutsideClone(this.folder);
		fs.mkdirSync(this.folder, { recursive: true });
		const fresh = !fs.existsSync(path.join(this.folder, '.n8n/database.sqlite'));

		const { startSandbox } = require(path.join(ROOT, 'dist/test/sandbox'));
		this.sandbox = await startSandbox({ port: options.sandboxPort, host: '127.0.0.1', seed: 1, transactionCount: 250 });
		const { sandbox } = this;

		const link = this.n8nSh(['link', this.folder]);
		if (link.status !== 0) throw new Error(`n8n.sh link failed:\n${link.stderr}`);

		const { workflows, template } = readExamples();
		const credentials = demoCredentials(sandbox, workflows, template);
		const stateFile = path.join(this.folder, 'demo-state.json');
		const state = fresh || !fs.existsSync(stateFile) ? { imported: [] } : readJson(stateFile);
		const toImport = workflows.filter((w) => !state.imported.includes(w.id));

		// Credentials every time (cheap, and the sandbox's address is fixed); workflows only the
		// first time each one is seen, so edits made in the editor survive a restart.
		const work = path.join(this.folder, 'import');
		fs.mkdirSync(work, { recursive: true });
		const step = (text) => process.stdout.write(`${text} ... `);
		const started = Date.now();
		step(`${fresh ? 'Setting up' : 'Refreshing'} the n8n demo folder ${path.relative(ROOT, this.folder)}: credentials`);
		fs.writeFileSync(path.join(work, 'credentials.json'), JSON.stringify(credentials, null, 2));
		await this.cli(['import:credentials', `--input=${path.join(work, 'credentials.json')}`]);
		if (toImport.length > 0 && !this.stopping) {
			process.stdout.write(`${toImport.length} workflow(s) ... `);
			const strip = ({ file, ...workflow }) => ({ active: false, ...workflow });
			fs.writeFileSync(path.join(work, 'workflows.json'), JSON.stringify(toImport.map(strip), null, 2));
			await this.cli(['import:workflow', `--input=${path.join(work, 'workflows.json')}`]);
			for (const workflow of toImport.filter(listensForEvents)) {
				if (this.stopping) break;
				process.stdout.write(`publish ${workflow.id} ... `);
				await this.cli(['publish:workflow', `--id=${workflow.id}`]);
			}
			state.imported.push(...toImport.map((w) => w.id));
			fs.writeFileSync(stateFile, JSON.stringify(state, null, 2));
		}
		fs.rmSync(work, { recursive: true, force: true });
		if (this.stopping) return;
		console.log(`done (${((Date.now() - started) / 1000).toFixed(0)} s)`);

		step(`Starting n8n on ${this.base}`);
		const bootStarted = Date.now();
		await this.startN8n();
		if (this.stopping) return;
		const login = await this.ownerLogin();
		console.log(`ready (${((Date.now() - bootStarted) / 1000).toFixed(0)} s)`);
		this.triggerMode = await this.exactlyOnceMode(workflows);

		const checkout = checkoutTrigger(workflows);
		const checkoutUrl = checkout && productionUrls(checkout, this.base).find((u) => u.kind === 'trigger');
		if (checkoutUrl) sandbox.state.settings.defaultWebhookUrl = checkoutUrl.url;

		const inN8n = login.ok ? await this.workflowsInN8n(login.cookie) : undefined;
		this.printSummary({ workflows, credentials, login, inN8n, checkout, checkoutUrl });
	}

	/**
	 * The trigger's exactly-once mode, from the line the package logs when n8n activates a published
	 * trigger; the demo stops when it is not the documented one (a trigger answering every payment
	 * 503 would otherwise be found by nobody).
	 */
	async exactlyOnceMode(workflows) {
		const hasTrigger = (w) => listensForEvents(w) && (w.nodes ?? []).some((n) => n.type === TRIGGER_TYPE && !n.disabled);
		if (!workflows.some(hasTrigger)) return undefined;
		const logFile = path.join(this.folder, 'n8n.log');
		const deadline = Date.now() + 60_000;
		let line;
		while (!this.stopping && Date.now() < deadline) {
			line = fs.readFileSync(logFile).subarray(this.logStart).toString('utf8').split('\n').filter((l) => l.includes('exactly-once mode of the trigger:')).pop();
			if (line) break;
			await sleep(500);
		}
		if (!line) throw new Error(`the Payment Gateway Trigger's exactly-once mode was not logged within 60 s; n8n's log: ${logFile}\n${tail(logFile)}`);
		const mode = /exactly-once mode of the trigger: (.*?)\. n8n internals: /.exec(line)?.[1] ?? line;
		if (mode !== DOCUMENTED_MODE)
			throw new Error(
				`the Payment Gateway Trigger's exactly-once mode is "${mode}", not the documented "${DOCUMENTED_MODE}": payment events would not be handled as documented.\nThe package's line in n8n's log (${logFile}):\n${line}`,
			);
		return mode;
	}

	printSummary({ workflows, credentials, login, inN8n, checkout, checkoutUrl }) {
		const { sandbox, base } = this;
		const { keys } = sandbox;
		const active = new Map((inN8n ?? []).map((w) => [w.id, w.active]));
		const lines = [
			'',
			'================ Payment Gateway demo is running ================',
			'',
			`n8n editor      ${base}/`,
			`  log in with   ${OWNER.email} / ${OWNER.password}` +
				(login.ok ? '' : `   (login answered ${login.status}: if you changed the password, use yours, or npm start -- --reset)`),
			`  n8n log       ${path.relative(process.cwd(), path.join(this.folder, 'n8n.log'))}`,
			...(this.triggerMode ? [`  trigger       exactly-once mode: ${this.triggerMode}  (as documented for one n8n process)`] : []),
			'',
			`Sandbox         ${sandbox.baseUrl}    (the payment service, seed 1, ${sandbox.state.transactions.length} transactions)`,
			`  checkout      ${sandbox.checkoutUrl}  (orders waiting for payment, each with its Pay page)`,
			`  payout URL    ${sandbox.payoutUrl}  (the Payout credential's; batches received: ${sandbox.baseUrl}/__sandbox/payouts)`,
			`  controls      ${sandbox.baseUrl}/__sandbox/  (settings, events, orders, requests)`,
			'  keys          (already filled into the credentials below; for your own credentials:)',
			...keyLines(keys),
			'                more about the sandbox: docs/sandbox.md',
			`  test cards    4111111111111111 pays (the checkout page's default), 4000000000000002 is declined`,
			'',
			`Credentials in n8n (all pointing at the sandbox): ${credentials.map((c) => c.name).join(', ')}`,
		];
		const hosted = credentials.filter((c) => c.type === HOSTED_TYPE).pop();
		if (hosted) lines.push(`  a new Order, Payment or Transaction node starts with "${hosted.name}" (n8n picks the newest)`);
		if (checkoutUrl) lines.push(`Sandbox default webhook URL → ${checkoutUrl.url}  (workflow "${checkout.name}")`);
		lines.push('', workflows.length ? 'Example workflows:' : 'No example workflows found in examples/.');
		for (const workflow of workflows) {
			const state = active.get(workflow.id)
				? 'published'
				: inN8n && !active.has(workflow.id)
					? 'deleted in n8n; npm start -- --reset brings it back'
					: 'manual';
			lines.push(`  ${workflow.name}  [${state}]`, `    ${base}/workflow/${workflow.id}`);
			// n8n registers production URLs only for published workflows: others would answer 404.
			if (!active.get(workflow.id)) continue;
			for (const url of productionUrls(workflow, base)) {
				lines.push(`    ${url.node}: ${url.method ? `${url.method} ` : ''}${url.url}`);
				// Opened in a browser or with curl it loads forever: say so, and what to connect to it.
				if (url.kind === 'mcp') lines.push(...MCP_USE);
			}
		}
		lines.push('', 'What to click:', ...this.whatToClick(workflows, checkout), '', 'Ctrl-C stops n8n and the sandbox.', '');
		console.log(lines.join('\n'));
	}

	whatToClick(workflows, checkout) {
		const { base } = this;
		const creates = (w) => nodesOf(w, GATEWAY_TYPE).some((n) => n.parameters?.operation === 'createPayment');
		const webhookOf = (w) => (w.nodes ?? []).find((n) => n.type === 'n8n-nodes-base.webhook' && !n.disabled);
		const manualOf = (w) => (w.nodes ?? []).find((n) => n.type === 'n8n-nodes-base.manualTrigger' && !n.disabled);
		const viaWebhook = workflows.find((w) => creates(w) && webhookOf(w));
		const viaManual = workflows.find((w) => creates(w) && manualOf(w));
		const steps = [`  1. Open ${base}/ and sign in with ${OWNER.email} / ${OWNER.password}.`];
		let n = 2;
		if (viaWebhook) {
			const hook = webhookOf(viaWebhook);
			const url = `${base}/webhook/${hook.parameters?.path || hook.webhookId}`;
			steps.push(
				`  ${n++}. Open "${viaWebhook.name}" (${base}/workflow/${viaWebhook.id}): a webhook creates the`,
				'     payment and answers with its link. Place an order from another terminal:',
				`       curl -s -X POST ${url} -H 'content-type: application/json' \\`,
				`         -d '{"order_id":"WEB-'$(date +%s)'","amount":25,"currency":"AED","customer":{"name":"Aisha Khan","email":"aisha@example.com"}}'`,
				`  ${n++}. Open the payment_link it prints: the sandbox's checkout page. Press Pay (card 4111111111111111`,
				'     is filled in; 4000000000000002 is declined).',
			);
		} else if (viaManual) {
			steps.push(
				`  ${n++}. Open "${viaManual.name}" (${base}/workflow/${viaManual.id}) and press "Execute workflow".`,
				`  ${n++}. Open the payment_link in the Payment Gateway node's output and press Pay on the sandbox's`,
				'     checkout page (card 4111111111111111 is filled in; 4000000000000002 is declined).',
			);
		} else {
			steps.push(
				`  ${n++}. Make a workflow: Manual Trigger → Payment Gateway (Order → Create Payment, a "Hosted" credential),`,
				'     press "Execute workflow", open the output\'s payment_link and press Pay.',
			);
		}
		if (checkout) {
			steps.push(
				`  ${n++}. The sandbox sends the payment webhook to "${checkout.name}": its Executions tab`,
				`     (${base}/workflow/${checkout.id}/executions) shows the run with the captured (or failed) payment.`,
			);
		}
		const waitsFor = (w) => nodesOf(w, GATEWAY_TYPE).some((node) => node.parameters?.operation === 'waitForPayment');
		const waits = workflows.find((w) => waitsFor(w) && webhookOf(w));
		if (waits) {
			const hook = webhookOf(waits);
			const answersAtOnce = (hook.parameters?.responseMode ?? 'onReceived') === 'onReceived';
			// The node that hands the link on (an e-mail in real life), else Create Payment itself.
			const linkNode =
				(waits.nodes ?? []).find((node) => node.type !== GATEWAY_TYPE && JSON.stringify(node.parameters ?? {}).includes('payment_link')) ??
				nodesOf(waits, GATEWAY_TYPE).find((node) => node.parameters?.operation === 'createPayment');
			steps.push(
				`  ${n++}. "${waits.name}" waits for the payment in one execution. Send it the same order (the`,
				`     curl above, to POST ${base}/webhook/${hook.parameters?.path || hook.webhookId})${answersAtOnce ? ': it answers at once ("Workflow was started")' : ''}.`,
				`     The link is in the waiting run (${base}/workflow/${waits.id}/executions, node "${linkNode?.name ?? 'Create Payment'}")`,
				`     and on ${this.sandbox.checkoutUrl} (orders waiting for payment). Pay it and the run goes on to its Paid branch.`,
			);
		}
		const manual = workflows.filter((w) => manualOf(w) && w !== viaManual);
		if (manual.length > 0) {
			steps.push(`  ${n++}. Run the others with "Execute workflow": ${manual.map((w) => `"${w.name}"`).join(', ')}.`);
		}
		if (fs.existsSync(path.join(EXAMPLES, 'README.md'))) steps.push('  Every example is described in examples/README.md.');
		return steps;
	}

	/** Stops n8n (process group, SIGTERM then SIGKILL) and the sandbox, then exits. */
	async stop(code = 0) {
		if (this.stopping) return;
		this.stopping = true;
		const children = [this.server, this.cliChild].filter(Boolean);
		await Promise.all(children.map((child) => stopGroup(child)));
		if (this.sandbox) await this.sandbox.stop().catch(() => undefined);
		process.exit(code);
	}
}

function killGroup(pid, signal) {
	try {
		process.kill(-pid, signal);
		return true;
	} catch {
		return false;
	}
}

/** SIGTERM to a detached child's group; SIGKILL after 10 s or once it exited (its task runner). */
async function stopGroup(child) {
	if (child.exitCode === null && child.signalCode === null) {
		const exited = new Promise((done) => child.once('exit', done));
		killGroup(child.pid, 'SIGTERM');
		await Promise.race([exited, sleep(10_000)]);
	}
	killGroup(child.pid, 'SIGKILL');
}

/**
 * `folder` (inside the clone) as a link to DEMO_HOME; a real folder left by an earlier version of
 * the demo moves there first, so its workflows and executions are kept.
 */
function linkOutsideClone(folder) {
	const stat = fs.lstatSync(folder, { throwIfNoEntry: false });
	fs.mkdirSync(path.dirname(DEMO_HOME), { recursive: true });
	if (stat?.isSymbolicLink() && fs.readlinkSync(folder) === DEMO_HOME) {
		fs.mkdirSync(DEMO_HOME, { recursive: true });
		return;
	}
	if (stat?.isDirectory() && !fs.existsSync(DEMO_HOME)) {
		fs.cpSync(folder, DEMO_HOME, { recursive: true, verbatimSymlinks: true });
	}
	fs.rmSync(folder, { recursive: true, force: true });
	fs.mkdirSync(DEMO_HOME, { recursive: true });
	fs.mkdirSync(path.dirname(folder), { recursive: true });
	fs.symlinkSync(DEMO_HOME, folder);
}

function tail(file, lines = 30) {
	try {
		return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
	} catch {
		return '';
	}
}

const demo = new Demo(parseArgs(process.argv.slice(2)));
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
	process.on(signal, () => {
		if (!demo.stopping) console.log(`\n${signal}: stopping n8n and the sandbox ...`);
		demo.stop(0);
	});
}
// Stopped without a signal reaching us (npm killed with SIGTERM forwards it to its shell only):
// once the parent is gone, stop too rather than leave n8n and the sandbox running.
const parent = process.ppid;
setInterval(() => {
	if (process.ppid !== parent && !demo.stopping) {
		console.log('\nThe parent process ended: stopping n8n and the sandbox ...');
		demo.stop(0);
	}
}, 1000).unref();
demo.run().catch((error) => {
	if (demo.stopping) return; // interrupted: stop() exits
	console.error(`\ndemo failed: ${error.message}`);
	demo.stop(1);
});
