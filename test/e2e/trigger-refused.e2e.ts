// A trigger that cannot keep exactly-once is refused where the user looks, in a real n8n 2.41.1 and
// its editor (headless Debian Chromium): publishing it in the editor fails with the reason and
// nothing listens; a workflow published before n8n changed under it fails its activation at start,
// and that failure is readable through n8n's REST API and shown in the editor. The same workflow in
// an unchanged n8n publishes from the editor and runs a delivery (the control).
// n8n 2.41 publishes through its publication service: the publish request is accepted (200), the
// triggers are activated after it, and a failure is the workflow's publication status (`failed`),
// pushed to the editor; the saved workflow keeps `active: true`. So the state judged is the
// publication status, the trigger's URL (404: not listening) and the executions, not `active`.
//
// Why the change is simulated: no supported n8n release lacks what the trigger needs, so an n8n
// "whose internals changed" is made by a preload (NODE_OPTIONS=--require) that hides
// ProcessedDataRepository from @n8n/db only for requests made by this package's door to n8n's
// internals (a module under /n8n-internals/). n8n itself loads and uses @n8n/db untouched; the door
// sees the change as it would see a release without that repository ("database rows: CHANGED"),
// which makes the trigger's exactly-once mode none. The preload writes a line into a marker file
// each time it hides the export, so the test knows it ran inside n8n's process.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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
import { N8n, OWNER } from './n8n';

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

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** The preload: n8n's @n8n/db as the door receives it, without ProcessedDataRepository. */
function writePreload(folder: string): { file: string; marker: string } {
	const file = join(folder, 'hide-processed-data-repository.js');
	const marker = join(folder, 'hidden.log');
	writeFileSync(
		file,
		`'use strict';
const Module = require('node:module');
const { appendFileSync } = require('node:fs');
const HIDDEN = 'ProcessedDataRepository';
const DB = /[\\\\/]node_modules[\\\\/]@n8n[\\\\/]db[\\\\/]dist[\\\\/]index\\.js$/;
const DOOR = /[\\\\/]n8n-internals[\\\\/]/;
const proxies = new WeakMap();
// A proxy over an empty target: @n8n/db's exports are non-configurable, which a proxy over them
// could not report as missing.
const hide = (real) =>
	new Proxy({}, {
		get: (_, key) => (key === HIDDEN ? undefined : Reflect.get(real, key)),
		has: (_, key) => key !== HIDDEN && Reflect.has(real, key),
		ownKeys: () => Reflect.ownKeys(real).filter((key) => key !== HIDDEN),
		getOwnPropertyDescriptor: (_, key) => {
			const found = key === HIDDEN ? undefined : Reflect.getOwnPropertyDescriptor(real, key);
			return found && { ...found, configurable: true };
		},
	});
const load = Module._load;
Module._load = function (request, parent, isMain) {
	const loaded = load.apply(this, arguments);
	if (!parent || !DOOR.test(parent.filename || '')) return loaded;
	let file;
	try {
		file = Module._resolveFilename(request, parent, isMain);
	} catch {
		return loaded;
	}
	if (!DB.test(file)) return loaded;
	if (!proxies.has(loaded)) proxies.set(loaded, hide(loaded));
	appendFileSync(${JSON.stringify(marker)}, process.pid + ' ' + parent.filename + '\\n');
	return proxies.get(loaded);
};
`,
	);
	return { file, marker };
}

/** Opens the workflow in the editor and presses Publish, then Publish in n8n's dialog. */
async function publishInEditor(page: Page, n8n: N8n, id: string): Promise<number> {
	await page.goto(`${n8n.baseUrl}/workflow/${id}`);
	await page.locator('[data-test-id="canvas-node"]').first().waitFor();
	await page.locator('[data-test-id="workflow-open-publish-modal-button"]').click();
	const answered = page.waitForResponse(
		(response) =>
			response.url().endsWith(`/rest/workflows/${id}/activate`) &&
			response.request().method() === 'POST',
	);
	await page.locator('[data-test-id="workflow-publish-button"]').click();
	return (await answered).status();
}

/** The workflow as n8n stores it (REST as the owner). */
async function stored(
	n8n: N8n,
	id: string,
): Promise<{ active: boolean; activeVersionId: unknown }> {
	const { status, body } = await n8n.rest('GET', `/rest/workflows/${id}`);
	if (status !== 200) throw new Error(`GET /rest/workflows/${id}: ${status}`);
	return { active: body.data.active, activeVersionId: body.data.activeVersionId ?? null };
}

interface Publication {
	status: string;
	triggers: Array<{ nodeId: string; status: string; errorMessage?: string | null }>;
}

/**
 * n8n 2.41 publishes through its publication service: the publish request is accepted, the triggers
 * are activated after it, and the outcome is the workflow's publication status (its REST route,
 * which the editor reads too). Waits until it is settled (not in progress, not `until`).
 */
async function settledPublication(
	n8n: N8n,
	id: string,
	until = 'in_progress',
): Promise<Publication> {
	let publication: Publication | undefined;
	for (const deadline = Date.now() + 120_000; Date.now() < deadline; await sleep(300)) {
		const { status, body } = await n8n.rest('GET', `/rest/workflows/${id}/publication-status`);
		if (status !== 200) throw new Error(`publication-status ${id}: ${status}`);
		publication = body.data as Publication;
		if (!['in_progress', until].includes(publication.status)) return publication;
	}
	throw new Error(`publication of ${id} not settled: ${JSON.stringify(publication)}`);
}

const expectReason = (text: string | null | undefined) => {
	for (const part of [REFUSED, ...CAPABILITY, ...WHAT_NEXT]) expect(text).toContain(part);
};

/** One signed payment delivery to the trigger's production URL; its HTTP status. */
const deliver = async (n8n: N8n, box: Sandbox, webhookId: string): Promise<number> =>
	await deliverSignedPayment(
		n8n.webhookUrl(webhookId, TRIGGER_PATH),
		box.keys.webhook.notificationSecret,
	);

/** The editor's error message: its text, and which of `phrases` are hidden until it is scrolled. */
async function readToast(page: Page): Promise<{ text: string; hidden: string[] }> {
	const toast = page.locator('.el-notification', { hasText: REFUSED });
	await toast.waitFor();
	const box = toast.locator('.el-notification__content');
	// Runs in the page (no DOM types in this project's TypeScript settings).
	const hidden = await box.evaluate((content: any, phrases: string[]) => {
		const { document } = globalThis as any;
		const bounds = content.getBoundingClientRect();
		const seen = (phrase: string) => {
			const walker = document.createTreeWalker(content, 4 /* NodeFilter.SHOW_TEXT */);
			for (let node = walker.nextNode(); node; node = walker.nextNode()) {
				const at = node.textContent?.indexOf(phrase) ?? -1;
				if (at < 0) continue;
				const range = document.createRange();
				range.setStart(node, at);
				range.setEnd(node, at + phrase.length);
				const rect = range.getBoundingClientRect();
				return rect.top >= bounds.top && rect.bottom <= bounds.bottom + 1;
			}
			return false;
		};
		return phrases.filter((phrase) => !seen(phrase));
	}, SEEN_FIRST);
	return { text: await toast.innerText(), hidden };
}

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
		const message = await readToast(page);
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
		const again = await readToast(page);
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
