// Order > Wait for Payment on n8n's distributed engine: main (waits, time-outs) + one `n8n webhook`
// (serves the production webhook and /webhook-waiting/ resume calls) + one `n8n worker` (runs every
// execution, first part and resumed part), PostgreSQL and Redis. WEBHOOK_URL is the webhook process
// for all of them, so the resume URLs that the worker gives the service point there.
import { startSandbox, type Sandbox } from '../sandbox';
import { N8n, type CredentialEntry, type Execution } from './n8n';
import { ClusterProcess, queueEnvironment } from './queue';
import {
	EARLY_ID,
	EXAMPLE,
	PAYMENT_EVENTS,
	paidBeforeWaitWorkflow,
	triggerPathBrokenWorkflow,
	untilWebhooksServed,
	type WaitEnv,
} from './wait-for-payment';
import { waitForPaymentCases } from './wait-for-payment.cases';
import { RESUMES_ON_EVERY_OUTPUT } from './version';

const { fillCredentials } = require('../../examples/fill-credentials.js') as {
	fillCredentials: (values: unknown) => CredentialEntry[];
};

let sandbox: Sandbox;
let main: N8n;
let webhook: ClusterProcess;
let worker: ClusterProcess;

beforeAll(async () => {
	Object.assign(process.env, queueEnvironment());
	sandbox = await startSandbox({ seed: 29, transactionCount: 10 });
	sandbox.state.settings.webhookRetryDelayScale = 0.05;
	const hookFolder = await N8n.create();
	process.env.N8N_E2E_WEBHOOK_URL = `${hookFolder.baseUrl}/`;
	main = await N8n.create();
	await main.importCredentials(fillCredentials(sandbox));
	for (const workflow of [
		PAYMENT_EVENTS,
		EXAMPLE,
		paidBeforeWaitWorkflow(sandbox.baseUrl),
		triggerPathBrokenWorkflow(),
	]) {
		await main.importWorkflow(workflow);
		await main.publish(workflow.id);
	}
	await main.start();
	[webhook, worker] = await Promise.all([
		ClusterProcess.start('webhook', 10, hookFolder),
		ClusterProcess.start('worker', 25),
	]);
	await main.publicApiKey();
	await untilWebhooksServed(webhook.n8n.baseUrl, () => webhook.log());
}, 900_000);

afterAll(async () => {
	await Promise.all([webhook?.stop(), worker?.stop()]);
	await main?.dispose();
	await sandbox?.stop();
	delete process.env.N8N_E2E_WEBHOOK_URL;
}, 120_000);

const env = (): WaitEnv => ({ sandbox, main, hookBase: webhook.n8n.baseUrl });

/** Both parts of the execution ran in the worker: it logged the start of the execution twice. */
function finishedOnWorker(execution: Execution): void {
	const starts = worker.log().split(`Worker started execution ${execution.id} `).length - 1;
	expect({ id: execution.id, mode: execution.mode, starts: Math.min(starts, 2) }).toEqual({
		id: execution.id,
		mode: 'webhook',
		starts: 2,
	});
}

describe(`queue mode: Order > Wait for Payment resumed through the webhook process, finished on a worker (${EXAMPLE.id}, ${EARLY_ID})`, () => {
	// Where n8n resumes a waiting node on its first output only, the regular suite shows the refusal.
	if (RESUMES_ON_EVERY_OUTPUT) waitForPaymentCases(env, 'QUE', finishedOnWorker);
	else it.skip('Wait for Payment is not available in this n8n', () => undefined);
});
