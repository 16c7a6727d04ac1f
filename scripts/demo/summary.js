// What `npm start` prints once the demo runs: the addresses, keys, credentials, example workflows
// and what to click (scripts/demo.js calls it with the running demo).
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const {
	OWNER,
	EXAMPLES,
	GATEWAY_TYPE,
	PAYOUT_TRIGGER_TYPE,
	HOSTED_TYPE,
	nodesOf,
	MCP_USE,
	keyLines,
	productionUrls,
} = require('./examples');

function printSummary(demo, { workflows, credentials, login, inN8n, checkout, checkoutUrl }) {
	const { sandbox, base } = demo;
	const { keys } = sandbox;
	const active = new Map((inN8n ?? []).map((w) => [w.id, w.active]));
	const lines = [
		'',
		'================ Payment Gateway demo is running ================',
		'',
		`n8n editor      ${base}/`,
		`  log in with   ${OWNER.email} / ${OWNER.password}` +
			(login.ok ? '' : `   (login answered ${login.status}: if you changed the password, use yours, or npm start -- --reset)`),
		`  n8n log       ${path.relative(process.cwd(), path.join(demo.folder, 'n8n.log'))}`,
		...(demo.triggerMode ? [`  trigger       exactly-once mode: ${demo.triggerMode}  (as documented for one n8n process)`] : []),
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
	const results = resultsAddress(workflows, active, base);
	const { settings } = sandbox.state;
	const seconds = (ms) => `${(ms / 1000).toFixed(ms % 1000 ? 1 : 0)} s`;
	if (results) {
		lines.push(
			`Payout results address: POST ${results.url.url}  (workflow "${results.workflow.name}"; Bulk Create with an empty`,
			`  Callback URL sends it with the account's token; the sandbox posts a batch's results ${seconds(settings.payoutCallbackDelayMs)}`,
			`  after its upload, a reversal ${seconds(settings.payoutResultStepMs)} after its payment)`,
		);
	}
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
	lines.push('', 'What to click:', ...whatToClick(demo, workflows, checkout), '', 'Ctrl-C stops n8n and the sandbox.', '');
	console.log(lines.join('\n'));
}

/** The published workflow whose Payout Results Trigger is the payout account's results address. */
function resultsAddress(workflows, active, base) {
	for (const workflow of workflows) {
		if (!active.get(workflow.id)) continue;
		const url = productionUrls(workflow, base).find((u) => u.kind === 'payout-results');
		if (url) return { workflow, url };
	}
	return undefined;
}

function whatToClick(demo, workflows, checkout) {
	const { base } = demo;
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
			`     and on ${demo.sandbox.checkoutUrl} (orders waiting for payment). Pay it and the run goes on to its Paid branch.`,
		);
	}
	const waitsForResults = (w) => nodesOf(w, GATEWAY_TYPE).some((node) => node.parameters?.operation === 'waitForResults');
	const payroll = workflows.find((w) => waitsForResults(w) && manualOf(w));
	const results = workflows.find((w) => nodesOf(w, PAYOUT_TRIGGER_TYPE).some((node) => !node.disabled));
	if (payroll) {
		steps.push(
			`  ${n++}. Open "${payroll.name}" (${base}/workflow/${payroll.id}) and press "Execute workflow": it pays the`,
			'     payroll rows, then waits for their results; after about a minute the rows leave on Paid and Failed.',
			...(results
				? [`     Each result also runs "${results.name}" (${base}/workflow/${results.id}/executions).`]
				: []),
			`     The batch and its posts: ${demo.sandbox.baseUrl}/__sandbox/payouts. A second run this month pays nobody.`,
		);
	}
	const manual = workflows.filter((w) => manualOf(w) && w !== viaManual && w !== payroll);
	if (manual.length > 0) {
		steps.push(`  ${n++}. Run the others with "Execute workflow": ${manual.map((w) => `"${w.name}"`).join(', ')}.`);
	}
	if (fs.existsSync(path.join(EXAMPLES, 'README.md'))) steps.push('  Every example is described in examples/README.md.');
	return steps;
}

/** Stops n8n (process group, SIGTERM then SIGKILL) and the sandbox, then exits. */

module.exports = { printSummary };
