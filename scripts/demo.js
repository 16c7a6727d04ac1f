// The one-command demo (`npm start` → scripts/start.sh → here, under Node 24, after the build and
// the n8n install): the service sandbox and a real n8n with this package, the example workflows
// and credentials pointing at the sandbox, an owner account to log in with. Ctrl-C stops both.
//
//   node scripts/demo.js [--reset] [--port 5678] [--sandbox-port 5680]
//
// The n8n user folder .tools/demo-n8n (git-ignored) keeps what you change in the editor between
// runs; --reset deletes it first. Examples are imported when their workflow id is not there yet.
// .tools/demo-n8n is a link to a folder outside the clone (why: scripts/demo/folder.js).
// Also here: the command line (demo/args.js), child processes and ports (demo/processes.js), the
// examples and their credentials (demo/examples.js), the trigger's exactly-once mode
// (demo/trigger-mode.js), the summary printed once ready (demo/summary.js).
'use strict';

const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const { fail, parseArgs } = require('./demo/args');
const {
	OWNER,
	ROOT,
	N8N_SH,
	demoCredentials,
	readJson,
	readExamples,
	listensForEvents,
	productionUrls,
	checkoutTrigger,
} = require('./demo/examples');
const { prepareFolder } = require('./demo/folder');
const { sleep, portFree, killGroup, stopGroup, tail } = require('./demo/processes');
const { printSummary } = require('./demo/summary');
const { exactlyOnceMode } = require('./demo/trigger-mode');

const BROWSER_ID = 'n8n-nodes-payment-gateway-demo';
/** The sandbox's payout result timing in the demo (docs/sandbox.md#payout-results). */
const DEMO_PAYOUT_RESULTS = { payoutCallbackDelayMs: 5000, payoutResultStepMs: 5000 };

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

	/**
	 * Waits (60 s at most) until the published workflows' webhook addresses answer: n8n activates
	 * workflows one after the other once it reports ready, and the summary is printed when the
	 * first trigger is active (a preflight to the results address had 500, "not registered"). A
	 * CORS preflight asks n8n's registered webhooks (204) and runs nothing.
	 */
	async addressesRegistered(workflows, inN8n) {
		const published = new Set((inN8n ?? []).filter((w) => w.active).map((w) => w.id));
		const urls = workflows
			.filter((w) => published.has(w.id))
			.flatMap((w) => productionUrls(w, this.base))
			.filter((u) => u.method);
		const preflight = (u) =>
			fetch(u.url, { method: 'OPTIONS', headers: { origin: 'http://probe.localhost', 'access-control-request-method': u.method } }).then(
				(r) => r.status,
				() => 0,
			);
		for (const deadline = Date.now() + 60_000; !this.stopping; await sleep(500)) {
			const waiting = (await Promise.all(urls.map(preflight))).map((status, i) => (status === 204 ? undefined : urls[i].url)).filter(Boolean);
			if (waiting.length === 0) return;
			if (Date.now() > deadline) {
				console.warn(`demo: n8n has not registered ${waiting.join(', ')} within 60 s; see ${path.join(this.folder, 'n8n.log')}`);
				return;
			}
		}
	}

	/**
	 * Credentials every time (cheap, and the sandbox's address is fixed); workflows only the first
	 * time each one is seen, so edits made in the editor survive a restart. Those that listen for
	 * events are published.
	 */
	async importExamples(fresh, workflows, credentials, step) {
		const stateFile = path.join(this.folder, 'demo-state.json');
		const state = fresh || !fs.existsSync(stateFile) ? { imported: [] } : readJson(stateFile);
		const toImport = workflows.filter((w) => !state.imported.includes(w.id));
		const work = path.join(this.folder, 'import');
		fs.mkdirSync(work, { recursive: true });
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
		if (!this.stopping) console.log(`done (${((Date.now() - started) / 1000).toFixed(0)} s)`);
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

		prepareFolder(this.folder, {
			reset: options.reset,
			linked: !process.env.DEMO_N8N_FOLDER,
			log: (real) => console.log(`Resetting: removing ${path.relative(ROOT, this.folder)} (${real})`),
		});
		const fresh = !fs.existsSync(path.join(this.folder, '.n8n/database.sqlite'));

		const { startSandbox } = require(path.join(ROOT, 'dist/test/sandbox'));
		this.sandbox = await startSandbox({ port: options.sandboxPort, host: '127.0.0.1', seed: 1, transactionCount: 250 });
		const { sandbox } = this;
		// Payout results a few seconds after the upload, a reversal a few seconds after its payment:
		// soon enough to watch, and after Wait for Results' first look, so the monthly payroll
		// example shows the wait and routes the reversed row to Failed at its 1-minute check.
		Object.assign(sandbox.state.settings, DEMO_PAYOUT_RESULTS);

		const link = this.n8nSh(['link', this.folder]);
		if (link.status !== 0) throw new Error(`n8n.sh link failed:\n${link.stderr}`);

		const { workflows, template } = readExamples();
		const credentials = demoCredentials(sandbox, workflows, template);
		const step = (text) => process.stdout.write(`${text} ... `);
		await this.importExamples(fresh, workflows, credentials, step);
		if (this.stopping) return;

		step(`Starting n8n on ${this.base}`);
		const bootStarted = Date.now();
		await this.startN8n();
		if (this.stopping) return;
		const login = await this.ownerLogin();
		console.log(`ready (${((Date.now() - bootStarted) / 1000).toFixed(0)} s)`);
		this.triggerMode = await exactlyOnceMode(this, workflows);

		const checkout = checkoutTrigger(workflows);
		const checkoutUrl = checkout && productionUrls(checkout, this.base).find((u) => u.kind === 'trigger');
		if (checkoutUrl) sandbox.state.settings.defaultWebhookUrl = checkoutUrl.url;

		const inN8n = login.ok ? await this.workflowsInN8n(login.cookie) : undefined;
		await this.addressesRegistered(workflows, inN8n);
		if (this.stopping) return;
		printSummary(this, { workflows, credentials, login, inN8n, checkout, checkoutUrl });
	}

	async stop(code = 0) {
		if (this.stopping) return;
		this.stopping = true;
		const children = [this.server, this.cliChild].filter(Boolean);
		await Promise.all(children.map((child) => stopGroup(child)));
		if (this.sandbox) await this.sandbox.stop().catch(() => undefined);
		process.exit(code);
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
