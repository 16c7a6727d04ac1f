// A waiting Order > Wait for Payment in the real editor's executions view, beside n8n's own Wait
// node waiting in the same view: the same waiting state (border, badge, output panel), no red
// border and no "No output data". Debian's Chromium through playwright-core, as editor.e2e.ts.
import { randomUUID } from 'node:crypto';

import type { BrowserContext, Page } from 'playwright-core';

import type { Sandbox } from '../sandbox';
import { closeEditorAfterAll, openEditorRun, signedInBrowser } from './browser';
import { N8n, OWNER, type CredentialEntry, type WorkflowJson } from './n8n';
import { EXAMPLE, startWaiting, untilExecution } from './wait-for-payment';

const { fillCredentials } = require('../../examples/fill-credentials.js') as {
	fillCredentials: (values: unknown) => CredentialEntry[];
};

const N8N_WAIT_ID = 'e2eN8nWaitNode';
const N8N_WAIT = 'Wait';
const OUR_WAIT = 'Wait for Payment';

/** Webhook → n8n's Wait node (resume on a webhook call) → No Operation. */
const n8nWaitWorkflow: WorkflowJson = {
	id: N8N_WAIT_ID,
	name: "n8n's own Wait",
	active: false,
	settings: { executionOrder: 'v1' },
	nodes: [
		{
			id: randomUUID(),
			name: 'Start',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			position: [0, 0],
			webhookId: randomUUID(),
			parameters: { httpMethod: 'POST', path: 'n8n-wait', responseMode: 'onReceived', options: {} },
		},
		{
			id: randomUUID(),
			name: N8N_WAIT,
			type: 'n8n-nodes-base.wait',
			typeVersion: 1.1,
			position: [220, 0],
			webhookId: randomUUID(),
			parameters: { resume: 'webhook', options: {} },
		},
		{
			id: randomUUID(),
			name: 'After',
			type: 'n8n-nodes-base.noOp',
			typeVersion: 1,
			position: [440, 0],
			parameters: {},
		},
	],
	connections: {
		Start: { main: [[{ node: N8N_WAIT, type: 'main', index: 0 }]] },
		[N8N_WAIT]: { main: [[{ node: 'After', type: 'main', index: 0 }]] },
	},
};

let sandbox: Sandbox;
let n8n: N8n;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
	({ sandbox, n8n } = await openEditorRun({ seed: 23, transactionCount: 5 }));
	await n8n.importCredentials(fillCredentials(sandbox));
	for (const workflow of [EXAMPLE, n8nWaitWorkflow]) {
		await n8n.importWorkflow(workflow);
		await n8n.publish(workflow.id);
	}
	await n8n.start();
	await n8n.publicApiKey();
	await n8n.waitForWebhooks(
		['pay-by-link', 'n8n-wait'].map((path) => `${n8n.baseUrl}/webhook/${path}`),
		'POST',
		120_000,
	);
	({ context, page } = await signedInBrowser(n8n, OWNER));
}, 900_000);

closeEditorAfterAll(() => ({ context, n8n, sandbox }));

/** Starts n8n's Wait workflow; resolves with its execution once it waits. */
async function n8nWaitExecution(): Promise<string> {
	const answer = await fetch(`${n8n.baseUrl}/webhook/n8n-wait`, { method: 'POST', body: '{}' });
	expect(answer.status).toBe(200);
	const [execution] = await n8n.waitForExecutions(N8N_WAIT_ID, (list) =>
		list.some((e) => e.status === 'waiting'),
	);
	expect(execution?.status).toBe('waiting');
	return execution.id;
}

/** What the executions view shows of a node: its classes, badge text and output panel text. */
async function viewOf(workflowId: string, executionId: string, node: string) {
	await page.goto(`${n8n.baseUrl}/workflow/${workflowId}/executions/${executionId}`);
	const frame = page;
	const canvasNode = frame.locator(`[data-test-id="canvas-node"][data-node-name="${node}"]`);
	await canvasNode.waitFor();
	const inner = canvasNode.locator('[data-test-id="canvas-default-node"]').first();
	const shape = await inner.evaluate((el: any) => {
		const style = (globalThis as any).getComputedStyle(el);
		return {
			classes: String(el.getAttribute('class')).replace(/_[a-z0-9]+_\d+/g, ''),
			border: style.borderColor,
			boxShadow: style.boxShadow,
			marks: [...el.querySelectorAll('[data-test-id]')].map((e: any) =>
				e.getAttribute('data-test-id'),
			),
		};
	});
	await inner.dblclick();
	const output = frame.locator('[data-test-id="output-panel"]');
	await output.waitFor();
	// The panel's body is there once it says what the run holds (data or n8n's no-data text).
	await output
		.getByText(/No output data|Waiting for input|item/)
		.first()
		.waitFor({ timeout: 120_000 });
	const text = (await output.innerText()).replace(/\s+/g, ' ').trim();
	await page.keyboard.press('Escape');
	return { ...shape, output: text };
}

describe('a waiting execution in the executions view', () => {
	// Found in n8n 2.41.1: the executions view marks a waiting node, n8n's own Wait node included,
	// with an animated red-orange border (class "waiting") and an output panel saying "No output
	// data" until it resumes; a failed node has the "error" class instead. So a waiting Wait for
	// Payment must look exactly like n8n's Wait node waiting, and carry nothing n8n reads as an issue.
	it('shows Wait for Payment waiting exactly as n8n shows its own Wait node waiting', async () => {
		const waiting = await startWaiting(
			{ sandbox, main: n8n, hookBase: n8n.baseUrl },
			`VIEW-${Date.now()}`,
		);
		const ownId = await n8nWaitExecution();
		const ours = await viewOf(EXAMPLE.id, waiting.executionId, OUR_WAIT);
		const theirs = await viewOf(N8N_WAIT_ID, ownId, N8N_WAIT);
		console.log(JSON.stringify({ ours, theirs }));
		expect(theirs.classes.split(' ')).toContain('waiting');
		expect(ours.classes.split(' ')).not.toContain('error');
		expect(ours).toEqual(theirs);
		// What n8n saved: the node's run is "waiting" with nothing on any output, no error.
		const execution = await untilExecution(n8n, waiting.executionId, () => true);
		const [run] = execution.data?.resultData.runData[OUR_WAIT] ?? [];
		expect(run).toMatchObject({ executionStatus: 'waiting', data: { main: [[], [], []] } });
		expect(run).not.toHaveProperty('error');
	});
});
