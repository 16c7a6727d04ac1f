// A trigger that cannot keep exactly-once is refused where the user looks, in a real n8n 2.41.1 and
// its editor (headless Debian Chromium): publishing it in the editor fails with the reason and
// nothing listens; a workflow published before n8n changed under it fails its activation at start,
// and that failure is readable through n8n's REST API and shown in the editor. The same workflow in
// an unchanged n8n publishes from the editor and runs a delivery (the control).
// n8n 2.41 publishes through its publication service (publication.ts): the saved workflow keeps
// `active: true` whatever happened, so the state judged is the publication status, the trigger's
// URL (404: not listening) and the executions, not `active`.
//
// Why the change is simulated: no supported n8n release lacks what the trigger needs, so an n8n
// "whose internals changed" is made by a preload (hidden-repository.ts) that hides
// ProcessedDataRepository from @n8n/db for the package's door only, which makes the trigger's
// exactly-once mode none.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { BrowserContext, Page } from 'playwright-core';

import { startSandbox, type Sandbox } from '../sandbox';
import { assertChromium, setUpOwner, signedInBrowser } from './browser';
import {
	deliverSignedPayment,
	sandboxCredentials,
	TRIGGER_PATH,
	triggerWorkflow,
} from './fixtures';
import { writePreload } from './hidden-repository';
import { N8n, OWNER } from './n8n';
import { publishInEditor, readToast, settledPublication, stored } from './publication';

const REFUSED = 'cannot tell a delivery from its retry';
/** The capability the door names, and what n8n's release lacks for it. */
const CAPABILITY = ['database rows: CHANGED', '@n8n/db has no ProcessedDataRepository'];
/** What follows and what to do: the message must carry them (n8n shows no description here). */
const WHAT_NEXT = ['answer every payment event 503', 'Drop Duplicate Deliveries'];
/** Read in the editor's message box without scrolling it (it scrolls beyond 30% of the window). */
const SEEN_FIRST = [REFUSED, '503', 'Drop Duplicate Deliveries', 'database rows: CHANGED'];
const MODE_NONE = 'exactly-once mode of the trigger: none';
const MODE_DOCUMENTED =
	'exactly-once mode of the trigger: memory + database rows + execution check';
/** Screenshots of what the user sees; inside the run folder unless TRIGGER_REFUSED_SHOTS names one. */
const SHOTS = process.env.TRIGGER_REFUSED_SHOTS ?? process.env.N8N_E2E_TMP ?? tmpdir();

const expectReason = (text: string | null | undefined) => {
	for (const part of [REFUSED, ...CAPABILITY, ...WHAT_NEXT]) expect(text).toContain(part);
};

/** One signed payment delivery to the trigger's production URL; its HTTP status. */
const deliver = async (n8n: N8n, box: Sandbox, webhookId: string): Promise<number> =>
	await deliverSignedPayment(
		n8n.webhookUrl(webhookId, TRIGGER_PATH),
		box.keys.webhook.notificationSecret,
	);

async function shot(page: Page, name: string): Promise<void> {
	mkdirSync(SHOTS, { recursive: true });
	await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

let sandbox: Sandbox;
beforeAll(async () => {
	assertChromium();
	sandbox = await startSandbox({ seed: 41, transactionCount: 3 });
});
afterAll(async () => await sandbox?.stop());

describe('a trigger that cannot keep exactly-once, where the user looks', () => {
	let n8n: N8n;
	let context: BrowserContext | undefined;
	let page: Page;
	let marker: string;
	const fresh = { id: 'e2eRefusedNew', webhookId: randomUUID() };
	const old = { id: 'e2eRefusedOld', webhookId: randomUUID() };
	const OLD_NAME = 'E2E payment events (published before)';

	beforeAll(async () => {
		const folder = mkdtempSync(join(process.env.N8N_E2E_TMP ?? tmpdir(), 'preload-'));
		const preload = writePreload(folder);
		marker = preload.marker;
		const nodeOptions = `${process.env.NODE_OPTIONS ?? ''} --require ${preload.file}`.trim();
		n8n = await N8n.create({ ui: true, env: { NODE_OPTIONS: nodeOptions } });
		await n8n.importCredentials(sandboxCredentials(sandbox));
		const published = triggerWorkflow(old.id, old.webhookId);
		published.name = OLD_NAME;
		await n8n.importWorkflows([triggerWorkflow(fresh.id, fresh.webhookId), published]);
		// Published while nothing had changed yet: the CLI only records it, n8n activates it at start.
		await n8n.publish(old.id);
		await n8n.start();
		await setUpOwner(n8n, OWNER);
		({ context, page } = await signedInBrowser(n8n, OWNER));
	}, 900_000);

	afterAll(async () => {
		await context?.close();
		await n8n?.dispose();
	});

	it("the door sees n8n's internals changed; n8n itself runs", () => {
		// The preload ran in n8n's process, on the door's request for @n8n/db.
		expect(existsSync(marker) && readFileSync(marker, 'utf8')).toMatch(/n8n-internals/);
		expect(n8n.log()).toContain(MODE_NONE);
		for (const part of CAPABILITY) expect(n8n.log()).toContain(part);
	});

	it('publishing in the editor is refused with the reason; nothing listens', async () => {
		expect((await settledPublication(n8n, fresh.id)).status).toBe('not_published');
		await publishInEditor(page, n8n, fresh.id);
		const message = await readToast(page, REFUSED, SEEN_FIRST);
		await shot(page, 'publish-refused');
		console.log(`the editor's message on Publish:\n${message.text}`);
		expect(message.text).toContain('Workflow could not be published');
		expectReason(message.text);
		expect(message.hidden).toEqual([]);
		const publication = await settledPublication(n8n, fresh.id, 'not_published');
		expect(publication.status).toBe('failed');
		expect(publication.triggers.map((trigger) => trigger.status)).toEqual(['failed']);
		expectReason(publication.triggers[0].errorMessage);
		// Not listening (404), rather than listening and answering 503; no execution.
		expect(await deliver(n8n, sandbox, fresh.webhookId)).toBe(404);
		expect(await n8n.executions(fresh.id)).toEqual([]);
	}, 300_000);

	it("published before the change: its activation at start failed, in n8n's API and the editor", async () => {
		const publication = await settledPublication(n8n, old.id);
		expect(publication.status).toBe('failed');
		expect(publication.triggers.map((trigger) => trigger.status)).toEqual(['failed']);
		expectReason(publication.triggers[0].errorMessage);
		expect(await deliver(n8n, sandbox, old.webhookId)).toBe(404);
		// The editor: the Publish button marked, its tooltip naming the failed trigger.
		await page.goto(`${n8n.baseUrl}/workflow/${old.id}`);
		await page.locator('[data-test-id="canvas-node"]').first().waitFor();
		await page.locator('[data-test-id="workflow-open-publish-modal-button"]').hover();
		// n8n's tooltips are reka-ui poppers.
		const tooltip = page
			.locator('[data-reka-popper-content-wrapper]', { hasText: 'Publish again to retry' })
			.first();
		await tooltip.waitFor();
		await shot(page, 'active-at-start-editor');
		const said = await tooltip.innerText();
		console.log(`the editor's tooltip on Publish:\n${said}`);
		expect(said).toContain("This workflow isn't running");
		expect(said).toContain('Payment Gateway Trigger');
		// Publishing again, as the tooltip says, shows the reason.
		await publishInEditor(page, n8n, old.id);
		const again = await readToast(page, REFUSED, SEEN_FIRST);
		await shot(page, 'active-at-start-republish');
		expectReason(again.text);
		expect(again.hidden).toEqual([]);
		// The workflows list marks it.
		await page.goto(`${n8n.baseUrl}/home/workflows`);
		const name = page.locator('[data-test-id="workflow-card-name"]', { hasText: OLD_NAME });
		const indicator = page.locator('[data-test-id="workflow-card-publish-indicator"]');
		const card = page.locator('div', { has: name }).filter({ has: indicator }).last();
		await card.waitFor();
		await shot(page, 'active-at-start-list');
		expect(await card.locator('[data-test-id="workflow-card-publish-indicator"]').innerText()).toBe(
			'Failed publish',
		);
	}, 300_000);
});

describe('the control: the same workflow in an unchanged n8n', () => {
	it('publishes from the editor and answers a delivery 200, one execution', async () => {
		const webhookId = randomUUID();
		const workflow = triggerWorkflow('e2eRefusedCtl', webhookId);
		const n8n = await N8n.create({ ui: true });
		let context: BrowserContext | undefined;
		try {
			await n8n.importCredentials(sandboxCredentials(sandbox));
			await n8n.importWorkflow(workflow);
			await n8n.start();
			await setUpOwner(n8n, OWNER);
			const opened = await signedInBrowser(n8n, OWNER);
			context = opened.context;
			await publishInEditor(opened.page, n8n, workflow.id);
			expect((await settledPublication(n8n, workflow.id, 'not_published')).status).toBe(
				'published',
			);
			expect((await stored(n8n, workflow.id)).active).toBe(true);
			await n8n.waitForWebhooks([n8n.webhookUrl(webhookId, TRIGGER_PATH)]);
			expect(await deliver(n8n, sandbox, webhookId)).toBe(200);
			const runs = await n8n.waitForExecutions(workflow.id, (found) => found.length >= 1);
			expect(runs.map((run) => run.status)).toEqual(['success']);
			expect(n8n.log()).toContain(MODE_DOCUMENTED);
		} finally {
			await context?.close();
			await n8n.dispose();
		}
	}, 900_000);
});
