// The trigger works wherever the package sits: n8n's modules reached are the running n8n's, never a
// copy found above the package's folder. A signed payment delivery must start one execution in
// each layout below, and the package's line in n8n's log must name the documented mode.
// - n8n's user folder inside this clone (as `npm start`'s default folder was): the clone's
//   development copies of @n8n/di, n8n-core and n8n-workflow sit above the package;
// - N8N_CUSTOM_EXTENSIONS pointing into another project that has its own node_modules/@n8n/di.
// The layout of n8n's installer under ~/.n8n/nodes, which a Docker image has too (n8n installed
// under its own prefix, packages under the user folder), is every other suite's: the package there
// has nothing above it.
import { randomUUID } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { startSandbox, type Sandbox } from '../sandbox';
import {
	deliverSignedPayment,
	sandboxCredentials,
	TRIGGER_PATH,
	triggerWorkflow,
} from './fixtures';
import { N8n, TRIGGER_TYPE, type Execution } from './n8n';

const ROOT = resolve(__dirname, '../..');
const MODE = 'exactly-once mode of the trigger: memory + database rows + execution check';
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

let sandbox: Sandbox;
beforeAll(async () => {
	sandbox = await startSandbox({ seed: 31, transactionCount: 5 });
});
afterAll(async () => await sandbox?.stop());

/** Publishes a trigger workflow of `type`, starts n8n, delivers one signed payment. */
async function deliverOnePayment(n8n: N8n, type: string): Promise<Execution[]> {
	const webhookId = randomUUID();
	const workflow = triggerWorkflow('e2eLayoutEvents', webhookId);
	workflow.nodes[0].type = type;
	await n8n.importCredentials(sandboxCredentials(sandbox));
	await n8n.importWorkflow(workflow);
	await n8n.publish('e2eLayoutEvents');
	await n8n.start();
	const url = n8n.webhookUrl(webhookId, TRIGGER_PATH);
	let status = 404;
	// Until the published workflow's webhook is registered (404 before), then once.
	for (const deadline = Date.now() + 120_000; status === 404 && Date.now() < deadline; ) {
		status = await deliverSignedPayment(url, sandbox.keys.webhook.notificationSecret);
		if (status === 404) await sleep(500);
	}
	expect({ status, log: status === 200 ? '' : n8n.log().slice(-3000) }).toEqual({
		status: 200,
		log: '',
	});
	return await n8n.waitForExecutions('e2eLayoutEvents', (runs) => runs.length >= 1);
}

describe('the trigger in the layouts users have', () => {
	it("n8n's user folder inside the clone: one execution, the documented mode", async () => {
		mkdirSync(join(ROOT, '.tools'), { recursive: true });
		const n8n = await N8n.create({ parent: join(ROOT, '.tools') });
		try {
			const runs = await deliverOnePayment(n8n, TRIGGER_TYPE);
			expect(runs.map((run) => run.status)).toEqual(['success']);
			expect(n8n.log()).toContain(MODE);
		} finally {
			await n8n.dispose();
		}
	}, 900_000);

	it('N8N_CUSTOM_EXTENSIONS into a project with its own @n8n/di: one execution, the documented mode', async () => {
		const project = mkdtempSync(join(process.env.N8N_E2E_TMP ?? tmpdir(), 'project-'));
		const n8n = await N8n.create({ env: { N8N_CUSTOM_EXTENSIONS: join(project, 'custom') } });
		try {
			// The package as installed, moved into the other project (n8n must not load it twice).
			const nodes = join(n8n.userFolder, '.n8n/nodes');
			cpSync(join(nodes, 'node_modules/n8n-nodes-payment-gateway'), join(project, 'custom'), {
				recursive: true,
			});
			rmSync(nodes, { recursive: true, force: true });
			cpSync(join(ROOT, 'node_modules/@n8n/di'), join(project, 'node_modules/@n8n/di'), {
				recursive: true,
			});
			const runs = await deliverOnePayment(n8n, 'CUSTOM.paymentGatewayTrigger');
			expect(runs.map((run) => run.status)).toEqual(['success']);
			expect(n8n.log()).toContain(MODE);
		} finally {
			await n8n.dispose();
			rmSync(project, { recursive: true, force: true });
		}
	}, 900_000);
});
