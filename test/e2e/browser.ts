// The real editor in headless Debian Chromium, as the editor suites open it: an owner set up
// through n8n's API, a fresh browser profile inside the run folder, signed in.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { chromium, type BrowserContext, type Page } from 'playwright-core';

import { startSandbox, type Sandbox, type SandboxOptions } from '../sandbox';
import { N8n } from './n8n';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** As the machine notes say: without the networking flags Chromium keeps dialling Google's hosts. */
const CHROMIUM_ARGS = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

export interface Owner {
	email: string;
	firstName: string;
	lastName: string;
	password: string;
}

/** Fails early, with the way out, when the machine has no Chromium. */
export function assertChromium(): void {
	if (!existsSync(CHROMIUM)) {
		throw new Error(
			`${CHROMIUM} not found: install Debian's Chromium (apt-get install -y chromium; .ci/run does) or set CHROMIUM_PATH`,
		);
	}
}

/** Chromium checked first (a missing one fails early), then the sandbox and n8n with its editor (not started). */
export async function openEditorRun(
	sandboxOptions: SandboxOptions,
): Promise<{ sandbox: Sandbox; n8n: N8n }> {
	assertChromium();
	const sandbox = await startSandbox(sandboxOptions);
	return { sandbox, n8n: await N8n.create({ ui: true }) };
}

/** Registers an editor suite's afterAll: the browser closed, n8n disposed of, the sandbox stopped. */
export const closeEditorAfterAll = (
	parts: () => { context?: BrowserContext; n8n?: N8n; sandbox?: Sandbox },
) =>
	afterAll(async () => {
		const { context, n8n, sandbox } = parts();
		await context?.close();
		await n8n?.dispose();
		await sandbox?.stop();
	});

/** Creates the instance owner of a started n8n. */
export async function setUpOwner(n8n: N8n, owner: Owner): Promise<void> {
	const setup = await fetch(`${n8n.baseUrl}/rest/owner/setup`, {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify(owner),
	});
	if (!setup.ok) throw new Error(`owner setup: ${setup.status} ${await setup.text()}`);
}

/** A fresh profile each run, inside the run folder that scripts/test-e2e.sh removes. */
async function openBrowser(): Promise<{ context: BrowserContext; page: Page }> {
	const profile = mkdtempSync(join(process.env.N8N_E2E_TMP ?? tmpdir(), 'chromium-'));
	const context = await chromium.launchPersistentContext(profile, {
		executablePath: CHROMIUM,
		headless: true,
		args: CHROMIUM_ARGS,
		viewport: { width: 1440, height: 900 },
	});
	// Generous: on a busy machine the editor's first load alone takes more than half a minute.
	context.setDefaultTimeout(90_000);
	context.setDefaultNavigationTimeout(240_000);
	return { context, page: context.pages()[0] ?? (await context.newPage()) };
}

async function signIn(page: Page, n8n: N8n, owner: Owner): Promise<void> {
	await page.goto(`${n8n.baseUrl}/signin`);
	await page.locator('input[name="emailOrLdapLoginId"]').fill(owner.email);
	await page.locator('input[name="password"]').fill(owner.password);
	await page.locator('[data-test-id="form-submit-button"]').click();
	await page.waitForURL((url) => !url.pathname.startsWith('/signin'));
}

/** A fresh browser signed in as `owner`: where every editor suite starts. */
export async function signedInBrowser(
	n8n: N8n,
	owner: Owner,
): Promise<{ context: BrowserContext; page: Page }> {
	const opened = await openBrowser();
	await signIn(opened.page, n8n, owner);
	return opened;
}
