// A workflow's publication in n8n 2.41, where the user looks: Publish pressed in the editor, the
// publication status n8n's REST API gives (and the editor reads), the message box it shows.
import type { Page } from 'playwright-core';

import type { N8n } from './n8n';

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Opens the workflow in the editor and presses Publish, then Publish in n8n's dialog. */
export async function publishInEditor(page: Page, n8n: N8n, id: string): Promise<number> {
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
export async function stored(
	n8n: N8n,
	id: string,
): Promise<{ active: boolean; activeVersionId: unknown }> {
	const { status, body } = await n8n.rest('GET', `/rest/workflows/${id}`);
	if (status !== 200) throw new Error(`GET /rest/workflows/${id}: ${status}`);
	return { active: body.data.active, activeVersionId: body.data.activeVersionId ?? null };
}

export interface Publication {
	status: string;
	triggers: Array<{ nodeId: string; status: string; errorMessage?: string | null }>;
}

/**
 * n8n 2.41 publishes through its publication service: the publish request is accepted, the triggers
 * are activated after it, and the outcome is the workflow's publication status (its REST route,
 * which the editor reads too). Waits until it is settled (not in progress, not `until`).
 */
export async function settledPublication(
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

/**
 * The editor's message box (a toast) containing `hasText`: its text, and which of `phrases` are
 * hidden until it is scrolled.
 */
export async function readToast(
	page: Page,
	hasText: string,
	phrases: string[],
): Promise<{ text: string; hidden: string[] }> {
	const toast = page.locator('.el-notification', { hasText });
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
	}, phrases);
	return { text: await toast.innerText(), hidden };
}
