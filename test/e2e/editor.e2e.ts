// The package in the real n8n editor, driven in headless Chromium (Debian's /usr/bin/chromium through
// playwright-core; never a downloaded browser): the node icons render on the canvas, every resource
// and operation is offered in the node panel's selectors, and screenshots of the panels are saved to
// docs/screenshots/ (linked from the README).
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

import type { BrowserContext, Locator, Page } from 'playwright-core';

import { createKeys } from '../sandbox/core/keys';
import { assertChromium, setUpOwner, signedInBrowser } from './browser';
import { GATEWAY_TYPE, N8n, TRIGGER_TYPE, type CredentialEntry, type WorkflowJson } from './n8n';

const ROOT = resolve(__dirname, '../..');
const SCREENSHOTS = join(ROOT, 'docs/screenshots');
const OWNER = {
	email: 'editor@e2e.local',
	firstName: 'Editor',
	lastName: 'E2e',
	password: 'E2e-Editor-Passw0rd',
};
const WORKFLOW_ID = 'e2eEditorPanels';

/** What the selectors must offer: display names, as in the README's operations table. */
const RESOURCES: Record<string, string[]> = {
	'Invoice Item': ['Activate', 'Create', 'Deactivate', 'Delete', 'Get', 'Get Many', 'Update'],
	Order: [
		'Authorize',
		'Charge Saved Card',
		'Create Payment',
		'Create Split Payment',
		'Save Card',
		'Wait for Payment',
	],
	Payment: ['Capture', 'Refund', 'Void'],
	'Payment Link': ['Bulk Create', 'Deactivate'],
	Payout: ['Bulk Create', 'Wait for Results'],
	'Subscription Plan': ['Create'],
	Transaction: ['Get', 'Get Many', 'Get POS Order', 'Upload Document'],
};
/** n8n adds this to the selectors of nodes whose credentials the HTTP Request node can reuse. */
const N8N_EXTRA_OPTION = 'Custom API Call';

const keys = createKeys();
const SERVICE = 'http://127.0.0.1:5680'; // never called: the panels only need saved credentials

const CREDENTIALS: CredentialEntry[] = [
	{
		id: 'edHostedCred',
		name: 'Sandbox Hosted',
		type: 'paymentGatewayHostedApi',
		data: { baseUrl: SERVICE, ...keys.hosted },
	},
	{
		id: 'edPayoutCred',
		name: 'Sandbox Payout',
		type: 'paymentGatewayPayoutApi',
		data: {
			payoutUrl: `${SERVICE}/payout`,
			obtainBy: 'request',
			...keys.payout,
			keyPlacement: 'headers',
		},
	},
	{
		id: 'edWebhookCred',
		name: 'Sandbox Webhook',
		type: 'paymentGatewayWebhookApi',
		data: { notificationSecret: keys.webhook.notificationSecret },
	},
];

const hosted = { paymentGatewayHostedApi: { id: 'edHostedCred', name: 'Sandbox Hosted' } };

/** The nodes whose panels are photographed, by node name. */
const NODES = {
	createPayment: 'Create Payment',
	bulkPayout: 'Bulk Payouts',
	transactions: 'List Transactions',
	trigger: 'Payment Gateway Trigger',
	waitForPayment: 'Wait for Payment',
} as const;

function editorWorkflow(): WorkflowJson {
	const node = (
		name: string,
		type: string,
		position: [number, number],
		rest: Record<string, unknown> = {},
	) => ({
		id: randomUUID(),
		name,
		type,
		typeVersion: 1,
		position,
		parameters: {},
		...rest,
	});
	const link = (to: string) => ({ node: to, type: 'main', index: 0 });
	return {
		id: WORKFLOW_ID,
		name: 'Payment Gateway in the editor',
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			node('Run', 'n8n-nodes-base.manualTrigger', [0, 0]),
			node(NODES.createPayment, GATEWAY_TYPE, [300, -180], {
				parameters: {
					resource: 'order',
					operation: 'createPayment',
					authentication: 'hosted',
					amount: 25,
					currency: 'AED',
					merchantOrderId: 'WEB-1001',
					customerName: 'Aisha Khan',
					customerEmail: 'aisha@example.com',
				},
				credentials: hosted,
			}),
			node(NODES.bulkPayout, GATEWAY_TYPE, [300, 0], {
				parameters: { resource: 'payout', operation: 'bulkCreate', validateOnly: true },
				credentials: { paymentGatewayPayoutApi: { id: 'edPayoutCred', name: 'Sandbox Payout' } },
			}),
			node(NODES.transactions, GATEWAY_TYPE, [300, 180], {
				parameters: {
					resource: 'transaction',
					operation: 'getMany',
					authentication: 'hosted',
					returnAll: true,
				},
				credentials: hosted,
			}),
			node(NODES.trigger, TRIGGER_TYPE, [760, 0], {
				webhookId: randomUUID(),
				parameters: { events: ['payment_captured', 'payment_failed'] },
				credentials: { paymentGatewayWebhookApi: { id: 'edWebhookCred', name: 'Sandbox Webhook' } },
			}),
			node('Fulfil order', 'n8n-nodes-base.noOp', [1060, 0]),
			node(NODES.waitForPayment, GATEWAY_TYPE, [760, 260], {
				webhookId: randomUUID(),
				parameters: {
					resource: 'order',
					operation: 'waitForPayment',
					authentication: 'hosted',
					waitLimit: 2,
					waitLimitUnit: 'hours',
				},
				credentials: {
					...hosted,
					paymentGatewayWebhookApi: { id: 'edWebhookCred', name: 'Sandbox Webhook' },
				},
			}),
		],
		connections: {
			Run: {
				main: [[link(NODES.createPayment), link(NODES.bulkPayout), link(NODES.transactions)]],
			},
			[NODES.trigger]: { main: [[link('Fulfil order')]] },
		},
	};
}

let n8n: N8n;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
	assertChromium();
	mkdirSync(SCREENSHOTS, { recursive: true });
	n8n = await N8n.create({ ui: true });
	await n8n.importCredentials(CREDENTIALS);
	await n8n.importWorkflow(editorWorkflow());
	await n8n.start();
	await setUpOwner(n8n, OWNER);
	({ context, page } = await signedInBrowser(n8n, OWNER));
}, 900_000);

afterAll(async () => {
	await context?.close();
	await n8n?.dispose();
});

const canvasNode = (name: string) =>
	page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`);
const ndv = () => page.locator('[data-test-id="ndv"]');

async function openWorkflow(): Promise<void> {
	await page.goto(`${n8n.baseUrl}/workflow/${WORKFLOW_ID}`);
	await canvasNode(NODES.createPayment).waitFor();
}

/** Opens a node's panel (double click on the canvas), waits for its parameters. */
async function openPanel(name: string): Promise<Locator> {
	await canvasNode(name).dblclick();
	const panel = ndv();
	await panel.locator('[data-test-id="node-parameters"]').waitFor();
	// Off the panel's resize handle and the canvas, so no hover state shows in a screenshot.
	await page.mouse.move(720, 6);
	await settle();
	return panel;
}

/** Lets fonts, icons, the credential select and the panel's opening animation settle. */
async function settle(): Promise<void> {
	await page.waitForLoadState('networkidle').catch(() => undefined);
	await page
		.waitForFunction('document.getAnimations().every((a) => a.playState !== "running")')
		.catch(() => undefined);
	await page.waitForTimeout(300);
}

async function closePanel(): Promise<void> {
	await ndv().locator('[data-test-id="ndv-close-button"]').click();
	await ndv().waitFor({ state: 'hidden' });
}

/**
 * The options of a select parameter of the open panel: opens it, reads each option's headline,
 * closes it. `undefined` when the panel does not show the parameter at all.
 */
async function selectOptions(parameter: string): Promise<string[] | undefined> {
	const field = ndv().locator(`[data-test-id="parameter-input-${parameter}"]`);
	// The panel re-renders after a change of resource: the field appears when it has (seconds on a
	// loaded machine); a field that never appears is reported by the caller.
	await field.waitFor({ timeout: 60_000 }).catch(() => undefined);
	if ((await field.count()) === 0) return undefined;
	const input = field.locator('input').first();
	await input.click();
	const list = page.locator(`[id="${await input.getAttribute('aria-controls')}"]`);
	await list.waitFor();
	const names = await list.locator('li .option-headline').allTextContents();
	await page.keyboard.press('Escape');
	await list.waitFor({ state: 'hidden' });
	return names.map((name) => name.trim());
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Picks an option of a select parameter of the open panel by its headline. */
async function choose(parameter: string, option: string): Promise<void> {
	const input = ndv().locator(`[data-test-id="parameter-input-${parameter}"] input`).first();
	await input.click();
	const list = page.locator(`[id="${await input.getAttribute('aria-controls')}"]`);
	const headline = page.locator('.option-headline', {
		hasText: new RegExp(`^${escapeRegExp(option)}$`),
	});
	await list.locator('li').filter({ has: headline }).click();
	await list.waitFor({ state: 'hidden' });
	for (const deadline = Date.now() + 120_000; (await input.inputValue()) !== option; ) {
		if (Date.now() > deadline) throw new Error(`${parameter} did not change to ${option}`);
		await page.waitForTimeout(100);
	}
}

const HIDDEN_SELECTOR_HELP =
	'n8n 2.x hides, in the node panel, every parameter that the parameters choosing the credential ' +
	"(those named in the credentials' displayOptions: authentication, resource, operation) depend on. " +
	'Here the `authentication` parameters are shown per resource and operation, so Resource and Operation ' +
	'are hidden and cannot be changed after the node is placed.';

describe('the Payment Gateway nodes in the real n8n editor', () => {
	it('the canvas shows both nodes with their icon', async () => {
		await openWorkflow();
		for (const name of [NODES.createPayment, NODES.bulkPayout, NODES.transactions, NODES.trigger]) {
			const node = canvasNode(name);
			await node.waitFor();
			// A file: icon is served by n8n and drawn as an <img>: loaded means a natural width.
			const icon = node.locator('img[src*="paymentGateway"]').first();
			await icon.waitFor();
			const rendered = await icon.evaluate(async (element: any) => {
				if (!element.complete)
					await new Promise((done) => element.addEventListener('load', done, { once: true }));
				return { src: element.getAttribute('src'), width: element.naturalWidth };
			});
			expect({ name, ...rendered }).toEqual({
				name,
				src: expect.stringContaining(
					'/icons/n8n-nodes-payment-gateway/dist/icons/paymentGateway.svg',
				),
				width: expect.any(Number),
			});
			expect(rendered.width).toBeGreaterThan(0);
		}
		await settle();
		await page.screenshot({ path: join(SCREENSHOTS, 'canvas.png') });
	});

	it.each([
		['Order > Create Payment', 'order-create-payment.png', NODES.createPayment],
		['Payout > Bulk Create', 'payout-bulk-create.png', NODES.bulkPayout],
		['Transaction > Get Many', 'transaction-get-many.png', NODES.transactions],
	])('the %s panel (docs/screenshots/%s)', async (_label, file, name) => {
		const panel = await openPanel(name);
		// The node's own parameters are there (not an error or an unknown-node panel).
		await expect(panel.locator('[data-test-id="node-credentials-select"]').count()).resolves.toBe(
			1,
		);
		await panel.screenshot({ path: join(SCREENSHOTS, file) });
		await closePanel();
	});

	it('the trigger panel, with its webhook URLs (docs/screenshots/trigger.png)', async () => {
		const panel = await openPanel(NODES.trigger);
		await expect(panel.locator('[data-test-id="parameter-input-events"]').count()).resolves.toBe(1);
		const urls = panel.getByText('Webhook URLs', { exact: true });
		if ((await urls.count()) > 0) {
			await urls.first().click();
			const production = panel.getByText('Production URL', { exact: true });
			if ((await production.count()) > 0) await production.first().click();
			await settle();
		}
		await panel.screenshot({ path: join(SCREENSHOTS, 'trigger.png') });
		await closePanel();
	});

	it('Wait for Payment: three named outputs, Resource and Operation still shown, both credentials asked (docs/screenshots/order-wait-for-payment.png)', async () => {
		const node = canvasNode(NODES.waitForPayment);
		for (const label of ['Timed Out', 'Paid', 'Failed']) {
			await expect(node.getByText(label, { exact: true }).count()).resolves.toBe(1);
		}
		const panel = await openPanel(NODES.waitForPayment);
		for (const parameter of ['resource', 'operation', 'orderId', 'waitLimit', 'waitLimitUnit']) {
			await expect(
				panel.locator(`[data-test-id="parameter-input-${parameter}"]`).count(),
			).resolves.toBe(1);
		}
		await expect(panel.locator('[data-test-id="node-credentials-select"]').count()).resolves.toBe(
			2,
		);
		await panel.screenshot({ path: join(SCREENSHOTS, 'order-wait-for-payment.png') });
		await closePanel();
	});

	it('every resource and every operation is offered in the node panel selectors', async () => {
		// Against the node's own description too, so a new operation cannot go unchecked.
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const { PaymentGateway } = require(
			join(ROOT, 'dist/nodes/PaymentGateway/PaymentGateway.node.js'),
		);
		const properties: Array<{
			name: string;
			options?: Array<{ name: string; value: string }>;
			displayOptions?: any;
		}> = new PaymentGateway().description.properties;
		const resourceOf = (value: string) =>
			properties.find((p) => p.name === 'resource')!.options!.find((o) => o.value === value)!.name;
		const described = Object.fromEntries(
			properties
				.filter((p) => p.name === 'operation')
				.map((p) => [
					resourceOf(p.displayOptions.show.resource[0]),
					p.options!.map((o) => o.name).sort(),
				]),
		);
		expect(described).toEqual(RESOURCES);

		await openPanel(NODES.createPayment);
		const seen: Record<string, string[] | undefined> = {};
		const resources = await selectOptions('resource');
		if (resources === undefined)
			throw new Error(`the node panel shows no Resource selector. ${HIDDEN_SELECTOR_HELP}`);
		expect(resources.filter((name) => name !== N8N_EXTRA_OPTION).sort()).toEqual(
			Object.keys(RESOURCES).sort(),
		);
		for (const resource of Object.keys(RESOURCES)) {
			await choose('resource', resource);
			seen[resource] = (await selectOptions('operation'))
				?.filter((name) => name !== N8N_EXTRA_OPTION)
				.sort();
		}
		const missing = Object.keys(RESOURCES).filter((resource) => seen[resource] === undefined);
		if (missing.length > 0) {
			throw new Error(`no Operation selector for ${missing.join(', ')}. ${HIDDEN_SELECTOR_HELP}`);
		}
		expect(seen).toEqual(RESOURCES);
		// Changes stay unsaved: the workflow is thrown away with the n8n folder.
		await closePanel();
	});
});
