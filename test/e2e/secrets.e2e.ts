// A service or proxy that echoes the request's credentials: real n8n must keep them out of the
// execution data it saves and out of its log, with and without continue-on-fail.
import { startSandbox, type Sandbox } from '../sandbox';
import { manualGatewayWorkflow, sandboxCredentials } from './fixtures';
import { N8n } from './n8n';

let sandbox: Sandbox;
let n8n: N8n;

const FAILS_ID = 'e2eEchoSecrets1';
const CONTINUES_ID = 'e2eEchoSecrets2';
const CREATE = '/orders/v1/create';
const parameters = { resource: 'order', operation: 'createPayment', amount: 10, currency: 'AED' };

beforeAll(async () => {
	sandbox = await startSandbox({ seed: 12 });
	n8n = await N8n.create();
	await n8n.importCredentials(sandboxCredentials(sandbox));
	await n8n.importWorkflow(manualGatewayWorkflow(FAILS_ID, 'E2E echoed secrets', parameters));
	const continues = manualGatewayWorkflow(CONTINUES_ID, 'E2E echoed secrets, continue', parameters);
	continues.nodes[1].onError = 'continueRegularOutput';
	await n8n.importWorkflow(continues);
}, 300_000);

afterAll(async () => {
	await n8n?.dispose();
	await sandbox?.stop();
});

beforeEach(() => {
	sandbox.faults.clear();
	sandbox.clearRequests();
});

/** The secrets the sandbox received, checked to be real so that "absent" means something. */
function sentSecrets(): string[] {
	const [request] = sandbox.requests.filter((r) => r.path === CREATE);
	const secrets = [request.headers['merchant-key'], request.headers['merchant-secret']];
	expect(secrets).toEqual([sandbox.keys.hosted.merchantKey, sandbox.keys.hosted.merchantSecret]);
	return secrets;
}

describe('secrets echoed back by the service', () => {
	it.each([400, 500])(
		"HTTP %i: absent from the failed execution and from n8n's output",
		async (status) => {
			// On every attempt: with the Merchant Order ID the node makes, a 500 on an order is sent again.
			sandbox.faults.inject({ kind: 'echoSecrets', path: CREATE, status, count: 10 });
			const result = await n8n.execute(FAILS_ID);
			expect(result.code).not.toBe(0);
			const everything = `${result.stdout}\n${result.stderr}`;
			// The echo reached n8n: the redacted message is in its output.
			expect(everything).toContain('merchant-key=[redacted] merchant-secret=[redacted]');
			for (const secret of sentSecrets()) expect(everything).not.toContain(secret);
		},
	);

	it('continue-on-fail: the error item and the execution data hold no secret', async () => {
		sandbox.faults.inject({ kind: 'echoSecrets', path: CREATE, status: 400 });
		const result = await n8n.execute(CONTINUES_ID);
		expect(result.code).toBe(0);
		const [item] = result.items('Payment Gateway');
		expect(JSON.stringify(item.json)).toContain('[redacted]');
		const everything = `${JSON.stringify(result.run)}\n${result.stdout}\n${result.stderr}`;
		for (const secret of sentSecrets()) expect(everything).not.toContain(secret);
	});
});
