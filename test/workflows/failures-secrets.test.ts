import type { IDataObject } from 'n8n-workflow';

import type { HarnessCredential } from '../harness';
import type { Sandbox } from '../sandbox';
import { startSandbox } from '../sandbox';
import { requestsTo, runGateway, sandboxCredentials } from './support';

let sandbox: Sandbox;
let other: Sandbox;
let counter = 0;

beforeAll(async () => {
	sandbox = await startSandbox({ seed: 13 });
	other = await startSandbox({ seed: 14 });
});
afterAll(async () => {
	await sandbox.stop();
	await other.stop();
});
beforeEach(() => {
	for (const box of [sandbox, other]) {
		box.faults.clear();
		box.clearRequests();
	}
});

const TOKEN = '/payout/v1/token';
const UPLOAD = '/payout/v1/bulk/payouts';
const CREATE = '/orders/v1/create';

const PAYOUT_ROW = {
	'Reference No': 'PAY-1',
	'Payment Mode': 'NEFT',
	Amount: 100.25,
	Remark: 'Run 1',
	'Beneficiary Name': 'Asha Rao',
	'Beneficiary Email': 'asha@example.com',
	'Beneficiary Account Number': '123456789012',
	'Beneficiary Account Type': 'SA',
	'Beneficiary IFSC': 'HDFC0001234',
};

const payout = (
	box: Sandbox,
	options: {
		credentials?: HarnessCredential[];
		requestOptions?: IDataObject;
		continueOnFail?: boolean;
	} = {},
) =>
	runGateway(box, {
		items: [PAYOUT_ROW],
		credentialType: 'paymentGatewayPayoutApi',
		// Version 2: one upload, its failure as the transport gives it (version 3 names the batch).
		typeVersion: 2,
		credentials: options.credentials,
		continueOnFail: options.continueOnFail,
		parameters: {
			resource: 'payout',
			operation: 'bulkCreate',
			currency: 'INR',
			requestId: `S-${process.pid}-${++counter}`,
			requestOptions: options.requestOptions ?? {},
		} as never,
	});

/** Everything a failed run keeps: the error with its description and context, and the run data. */
function everythingKept(result: { error?: unknown; runData: unknown; outputs: unknown }): string {
	const error = result.error as (Error & { description?: unknown; context?: unknown }) | undefined;
	return JSON.stringify({
		message: error?.message,
		description: error?.description,
		context: error?.context,
		stack: error?.stack,
		error,
		runData: result.runData,
		outputs: result.outputs,
	});
}

describe('payout token request', () => {
	it('does not follow a redirect, and says so', async () => {
		sandbox.faults.inject({
			kind: 'redirect',
			path: TOKEN,
			location: `${sandbox.baseUrl}/elsewhere/v1/token?x=1`,
		});
		const result = await payout(sandbox);
		expect(result.error?.message).toBe(
			`The payout token endpoint answered with a redirect (HTTP 302 to ${sandbox.baseUrl}), which is not followed: the payout key and secret go to the Payout URL only. Set the Payout URL to the address the service gives for its payout API.`,
		);
		expect(sandbox.requests.map((r) => r.path)).toEqual([TOKEN]);
	});

	it("honours the node's Timeout", async () => {
		// Held for 3 s, then dropped: with a fixed token time-out the message would name the drop.
		sandbox.faults.inject({ kind: 'timeout', path: TOKEN, delayMs: 3000 });
		const result = await payout(sandbox, { requestOptions: { timeoutMs: 300, maxRetries: 0 } });
		expect(result.error?.message).toBe('The service did not answer within 300 ms');
		expect(requestsTo(sandbox, UPLOAD)).toHaveLength(0);
	});

	it('is bound to the Payout URL and key it was issued for', async () => {
		const first = await payout(sandbox);
		expect(first.error).toBeUndefined();
		const cached = first.credentials.get('paymentGatewayPayoutApi')!;
		const oldToken = String(cached.sessionToken).split(':').pop()!;

		// The same stored credential, now pointing at another payout service.
		const moved = sandboxCredentials(other).map((c) =>
			c.type === 'paymentGatewayPayoutApi'
				? { ...c, data: { ...cached, payoutUrl: other.payoutUrl, ...other.keys.payout } }
				: c,
		);
		const second = await payout(other, { credentials: moved });
		expect(second.error).toBeUndefined();
		const sent = other.requests.map((r) => r.headers.authorization ?? '');
		expect(sent.some((header) => header.includes(oldToken))).toBe(false);
		expect(requestsTo(other, TOKEN)).toHaveLength(1);
		expect(requestsTo(sandbox, UPLOAD)).toHaveLength(1);
	});
});

describe('secrets echoed back by the service or a proxy', () => {
	it.each([400, 500])(
		'HTTP %i: neither key nor secret in the error, its description or the run data',
		async (status) => {
			const keys = sandbox.keys.hosted;
			// An order is sent again after a 500 (it carries a Merchant Order ID): every attempt echoes.
			sandbox.faults.inject({ kind: 'echoSecrets', path: CREATE, status, count: 4 });
			const result = await runGateway(sandbox, {
				parameters: {
					resource: 'order',
					operation: 'createPayment',
					amount: 20,
					currency: 'AED',
				} as never,
			});
			const said = `${result.error?.message} ${String((result.error as { description?: string }).description)}`;
			expect(said).toMatch(
				/Rejected request \(merchant-key=\[redacted\] merchant-secret=\[redacted\]\)/,
			);
			const kept = everythingKept(result);
			expect(kept).not.toContain(keys.merchantKey);
			expect(kept).not.toContain(keys.merchantSecret);
		},
	);

	it('continue-on-fail: the error item holds no secret', async () => {
		const keys = sandbox.keys.hosted;
		sandbox.faults.inject({ kind: 'echoSecrets', path: CREATE, status: 400 });
		const result = await runGateway(sandbox, {
			continueOnFail: true,
			parameters: {
				resource: 'order',
				operation: 'createPayment',
				amount: 20,
				currency: 'AED',
			} as never,
		});
		expect(result.error).toBeUndefined();
		const [item] = result.outputs.Gateway;
		expect(JSON.stringify(item.json)).toContain('[redacted]');
		const kept = everythingKept(result);
		expect(kept).not.toContain(keys.merchantKey);
		expect(kept).not.toContain(keys.merchantSecret);
	});

	it('the payout bearer token is not echoed either', async () => {
		const warm = await payout(sandbox);
		const token = String(warm.credentials.get('paymentGatewayPayoutApi')!.sessionToken)
			.split(':')
			.pop()!;
		const stored = sandboxCredentials(sandbox).map((c) =>
			c.type === 'paymentGatewayPayoutApi'
				? { ...c, data: warm.credentials.get('paymentGatewayPayoutApi')! }
				: c,
		);
		sandbox.faults.inject({ kind: 'echoSecrets', path: UPLOAD, status: 400 });
		const result = await payout(sandbox, { credentials: stored });
		expect(result.error?.message).toContain('authorization=Bearer [redacted]');
		expect(everythingKept(result)).not.toContain(token);
	});
});
