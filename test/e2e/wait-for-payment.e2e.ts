// Order > Wait for Payment in a regular-mode n8n: the example workflow (examples/payment-link-wait.json,
// imported unchanged) and a variant paid before the wait, published and driven over HTTP.
import { startSandbox, type Sandbox } from '../sandbox';
import { N8n, type CredentialEntry } from './n8n';
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
import { RESUMES_ON_EVERY_OUTPUT, SIGNED_RESUME_URLS } from './version';
import { UNSIGNED_RESUME_URL_NOTE } from '../../nodes/PaymentGateway/actions/order/waitForPayment.resumeUrl';
import { NOT_IN_THIS_N8N } from '../../nodes/PaymentGateway/actions/order/waitForPayment.engine';

const { fillCredentials } = require('../../examples/fill-credentials.js') as {
	fillCredentials: (values: unknown) => CredentialEntry[];
};

let sandbox: Sandbox;
let n8n: N8n;

beforeAll(async () => {
	sandbox = await startSandbox({ seed: 19, transactionCount: 10 });
	// Refused deliveries (409 from n8n once an execution no longer waits) retry within a second or two.
	sandbox.state.settings.webhookRetryDelayScale = 0.05;
	n8n = await N8n.create();
	await n8n.importCredentials(fillCredentials(sandbox));
	for (const workflow of [
		PAYMENT_EVENTS,
		EXAMPLE,
		paidBeforeWaitWorkflow(sandbox.baseUrl),
		triggerPathBrokenWorkflow(),
	]) {
		await n8n.importWorkflow(workflow);
		await n8n.publish(workflow.id);
	}
	await n8n.start();
	await n8n.publicApiKey();
	await untilWebhooksServed(n8n.baseUrl, () => n8n.log());
}, 900_000);

afterAll(async () => {
	await n8n?.dispose();
	await sandbox?.stop();
});

const env = (): WaitEnv => ({ sandbox, main: n8n, hookBase: n8n.baseUrl });

// Where n8n resumes a waiting node on its first output only, Wait for Payment refuses to wait.
const whereResumed = RESUMES_ON_EVERY_OUTPUT ? describe : describe.skip;
const whereNotResumed = RESUMES_ON_EVERY_OUTPUT ? it.skip : it;

describe(`Order > Wait for Payment in regular mode (${EXAMPLE.id}, ${EARLY_ID})`, () => {
	whereResumed('where n8n resumes a waiting node on every output', () => {
		waitForPaymentCases(env, 'REG');

		it("resume URLs: signed by n8n (later 2.x); where they are not (1.x, 2.0), n8n's log says so once", () => {
			const said = n8n.log().split(UNSIGNED_RESUME_URL_NOTE).length - 1;
			expect(said).toBe(SIGNED_RESUME_URLS ? 0 : 1);
		});
	});

	whereNotResumed(
		'where n8n resumes a waiting node on its first output only: refused before waiting, saying why',
		async () => {
			const answer = await fetch(`${n8n.baseUrl}/webhook/pay-by-link`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ order_id: `REG-old-${Date.now()}`, amount: 25, currency: 'AED' }),
			});
			expect(answer.status).toBe(200);
			const executions = await n8n.waitForExecutions(EXAMPLE.id, (list) =>
				list.some((e) => e.status === 'error'),
			);
			expect(executions.map((e) => e.status)).toEqual(['error']);
			const { error, lastNodeExecuted } = executions[0].data!.resultData as {
				error?: { message?: string };
				lastNodeExecuted?: string;
			};
			expect([lastNodeExecuted, error?.message]).toEqual(['Wait for Payment', NOT_IN_THIS_N8N]);
		},
	);
});
