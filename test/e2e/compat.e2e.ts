// What every supported n8n release must do with the package (npm run test:compat runs this file on
// each release of test/compat/versions.txt): load it, pass every credential test, make and read an
// order, and keep connections alive. The figures go to .tools/compat/ for the compatibility table.
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { startSandbox, type Sandbox } from '../sandbox';
import { sandboxCredentials as harnessCredentials } from '../workflows/support';
import { manualGatewayWorkflow, sandboxCredentials, TRIGGER_PATH } from './fixtures';
import { GATEWAY_TYPE, N8n, PACKAGE, type CredentialEntry } from './n8n';
import { N8N_LABEL, N8N_VERSION } from './version';

let sandbox: Sandbox;
let n8n: N8n;

const ORDER_ID = 'compatOrder';
const PAGES_ID = 'compatPages';
const LIST = '/orders/v1/transaction-list';

/** Every credential of the package, pointing at the sandbox, with ids n8n accepts. */
function everyCredential(): CredentialEntry[] {
	const webhook = sandboxCredentials(sandbox).find((c) => c.type === 'paymentGatewayWebhookApi')!;
	const channels = harnessCredentials(sandbox).map((c, i) => ({
		...c,
		id: `compatCred${i}`,
		name: `Compat ${c.type}`,
	}));
	return [...channels, webhook] as CredentialEntry[];
}

/** Distinct client connections of the requests to a path (the sandbox logs the client's port). */
const connectionsTo = (path: string) =>
	new Set(sandbox.requests.filter((r) => r.path === path).map((r) => r.connection)).size;

function recordFigure(name: string, value: unknown): void {
	const dir = resolve(__dirname, '../../.tools/compat');
	mkdirSync(dir, { recursive: true });
	writeFileSync(join(dir, `${N8N_LABEL}.${name}.json`), JSON.stringify(value));
}

beforeAll(async () => {
	sandbox = await startSandbox({ seed: 31, transactionCount: 250 });
	n8n = await N8n.create();
	const hosted = sandboxCredentials(sandbox).filter((c) => c.type !== 'paymentGatewayWebhookApi');
	await n8n.importCredentials([...hosted, ...everyCredential()]);
	await n8n.importWorkflow(
		manualGatewayWorkflow(ORDER_ID, 'Compat create payment', {
			resource: 'order',
			operation: 'createPayment',
			amount: 25,
			currency: 'AED',
			urls: { webhookUrl: n8n.webhookUrl(randomUUID(), TRIGGER_PATH) },
		}),
	);
	await n8n.importWorkflow(
		manualGatewayWorkflow(PAGES_ID, 'Compat every transaction', {
			resource: 'transaction',
			operation: 'getMany',
			returnAll: true,
		}),
	);
}, 300_000);

afterAll(async () => {
	await n8n?.dispose();
	await sandbox?.stop();
});

beforeEach(() => sandbox.clearRequests());

describe(`the package in n8n ${N8N_VERSION}`, () => {
	it('loads: n8n knows the three nodes, in every version of the action node', async () => {
		await n8n.start();
		try {
			const nodes = [
				{ name: GATEWAY_TYPE, version: 1 },
				{ name: GATEWAY_TYPE, version: 3 },
				{ name: `${PACKAGE}.paymentGatewayTrigger`, version: 1 },
				{ name: `${PACKAGE}.paymentGatewayPollTrigger`, version: 1 },
			];
			const answer = await n8n.rest('POST', '/rest/node-types', { nodeInfos: nodes });
			expect(answer.status).toBe(200);
			// Answered under their short names (without the package's prefix).
			const described = (answer.body.data ?? answer.body) as Array<{ name: string }>;
			expect(described.map((d) => d.name).sort()).toEqual(
				nodes.map((n) => n.name.slice(PACKAGE.length + 1)).sort(),
			);
		} finally {
			await n8n.stop();
		}
	}, 900_000);

	it('every credential test passes against the sandbox (Test button)', async () => {
		await n8n.start();
		try {
			const verdicts: Record<string, unknown> = {};
			for (const credential of everyCredential()) {
				const answer = await n8n.rest('POST', '/rest/credentials/test', {
					credentials: credential,
				});
				verdicts[credential.type] = (answer.body.data ?? answer.body)?.status ?? answer.status;
			}
			expect(verdicts).toEqual(Object.fromEntries(everyCredential().map((c) => [c.type, 'OK'])));
		} finally {
			await n8n.stop();
		}
	}, 900_000);

	it('Order > Create Payment, then paid in the sandbox: Transaction > Get reads it CAPTURED', async () => {
		const created = await n8n.execute(ORDER_ID);
		expect([created.code, created.code === 0 ? '' : created.stderr.slice(-3000)]).toEqual([0, '']);
		const pOrderId = String(created.items('Payment Gateway')[0]?.json.p_order_id);
		expect(sandbox.state.orders.get(pOrderId)).toBeDefined();
		sandbox.state.completeOrder(pOrderId, 'pay');

		const readId = 'compatRead';
		await n8n.importWorkflow(
			manualGatewayWorkflow(readId, 'Compat read order', {
				resource: 'transaction',
				operation: 'get',
				getBy: 'orderId',
				id: pOrderId,
			}),
		);
		const read = await n8n.execute(readId);
		expect([read.code, read.code === 0 ? '' : read.stderr.slice(-3000)]).toEqual([0, '']);
		expect(read.items('Payment Gateway').map((i) => i.json)).toEqual([
			expect.objectContaining({ p_order_id: pOrderId, status: 'CAPTURED', amount_value: 25 }),
		]);
	});

	it('keeps connections alive: Return All over 3 pages uses one connection', async () => {
		const run = await n8n.execute(PAGES_ID);
		expect(run.code).toBe(0);
		expect(run.items('Payment Gateway')).toHaveLength(sandbox.state.transactions.length);
		const figure = { requests: sandbox.requests.length, connections: connectionsTo(LIST) };
		recordFigure('keep-alive', figure);
		expect(figure).toEqual({ requests: 3, connections: 1 });
	});
});
