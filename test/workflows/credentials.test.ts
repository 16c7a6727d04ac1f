import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { testCredential } from '../harness';
import type { Sandbox } from '../sandbox';
import { startSandbox } from '../sandbox';
import { sandboxCredentials } from './support';

let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox();
});
afterAll(async () => await sandbox.stop());
beforeEach(() => sandbox.clearRequests());

const credential = (type: string) => sandboxCredentials(sandbox).find((c) => c.type === type)!;

const MERCHANT_TYPES = [
	['paymentGatewayHostedApi', '/orders/v1/transaction-list'],
	['paymentGatewayS2sApi', '/orders/v1/transaction-list'],
	['paymentGatewaySdkApi', '/orders/v1/transaction-list'],
	['paymentGatewayInvoiceApi', '/invoice/v1/items/list'],
	['paymentGatewayPaymentLinkApi', '/payment-links/v1/deactivate'],
	['paymentGatewaySubscriptionApi', '/subscriptions/v1/add'],
	['paymentGatewayPosApi', '/pos/v1/orders/0'],
];

describe.each(MERCHANT_TYPES)('%s credential test', (type, path) => {
	it('passes with the good keys, calling a request that changes nothing', async () => {
		const result = await testCredential(type, credential(type).data);
		expect(result).toEqual({ status: 'OK', message: 'Reachable, keys accepted' });
		expect(sandbox.requests.map((r) => r.path)).toEqual([path]);
	});

	it('fails with a clear message for a wrong secret', async () => {
		const data = { ...credential(type).data, merchantSecret: 'wrong-secret-123' };
		const result = await testCredential(type, data);
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/^Invalid key or secret: the service answered 401/);
		expect(result.message).not.toContain('wrong-secret-123');
	});

	it('fails with a wrong secret at an address that is not the service', async () => {
		const data = {
			...credential(type).data,
			baseUrl: `${sandbox.baseUrl}/not-the-api`,
			merchantSecret: 'x',
		};
		const result = await testCredential(type, data);
		expect(result.status).toBe('Error');
	});

	it('never shows a key or secret the service echoes back in its refusal', async () => {
		const data = credential(type).data as ICredentialDataDecryptedObject;
		sandbox.faults.inject({ kind: 'echoSecrets', path, status: 403 });
		try {
			const result = await testCredential(type, data);
			expect(result.status).toBe('Error');
			expect(result.message).toContain('[redacted]');
			expect(result.message).not.toContain(String(data.merchantKey));
			expect(result.message).not.toContain(String(data.merchantSecret));
		} finally {
			sandbox.faults.clear();
		}
	});

	it("fails for another channel's keys", async () => {
		const other =
			type === 'paymentGatewayInvoiceApi' ? 'paymentGatewayHostedApi' : 'paymentGatewayInvoiceApi';
		const data = { ...credential(other).data };
		const result = await testCredential(type, data);
		expect(result.message).toMatch(/^Invalid key or secret/);
	});
});

describe('channel credential tests, addresses', () => {
	it('refuses plain http:// to a remote host without sending anything', async () => {
		const result = await testCredential('paymentGatewayHostedApi', {
			...credential('paymentGatewayHostedApi').data,
			baseUrl: 'http://payments.example.com',
		});
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/Base URL refused: .*only allowed for localhost/);
	});

	it('says when the address answers but is not the service', async () => {
		const result = await testCredential('paymentGatewayHostedApi', {
			...credential('paymentGatewayHostedApi').data,
			baseUrl: `${sandbox.baseUrl}/not-the-api`,
		});
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/Unexpected answer .* HTTP 404.*Check the address/);
	});

	it('says when the host cannot be reached', async () => {
		const result = await testCredential('paymentGatewayHostedApi', {
			...credential('paymentGatewayHostedApi').data,
			baseUrl: 'http://127.0.0.1:1',
		});
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/^Could not reach http:\/\/127\.0\.0\.1:1/);
	});
});

describe('payout credential test', () => {
	const payout = (): ICredentialDataDecryptedObject => ({
		...credential('paymentGatewayPayoutApi').data,
	});

	it('obtains a token with good keys', async () => {
		const result = await testCredential('paymentGatewayPayoutApi', payout());
		expect(result).toEqual({ status: 'OK', message: 'Reachable, keys accepted, token issued' });
		expect(sandbox.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /payout/v1/token']);
	});

	it('fails with a clear message for a wrong secret', async () => {
		const result = await testCredential('paymentGatewayPayoutApi', {
			...payout(),
			merchantSecret: 'nope',
		});
		expect(result.message).toMatch(/^Invalid key or secret/);
	});

	it('can send the key pair as Basic auth, which the sandbox does not accept', async () => {
		const result = await testCredential('paymentGatewayPayoutApi', {
			...payout(),
			keyPlacement: 'basic',
		});
		expect(result.message).toMatch(/^Invalid key or secret/);
		expect(sandbox.requests[0].headers.authorization).toMatch(/^Basic /);
	});

	it('checks a pasted token without creating anything', async () => {
		const { token } = sandbox.state.issuePayoutToken();
		const ok = await testCredential('paymentGatewayPayoutApi', {
			...payout(),
			obtainBy: 'paste',
			accessToken: token,
		});
		expect(ok).toEqual({ status: 'OK', message: 'Reachable, keys accepted' });
		const bad = await testCredential('paymentGatewayPayoutApi', {
			...payout(),
			obtainBy: 'paste',
			accessToken: 'stale',
		});
		expect(bad.message).toMatch(/^Invalid key or secret/);
		const elsewhere = await testCredential('paymentGatewayPayoutApi', {
			...payout(),
			payoutUrl: `${sandbox.baseUrl}/not-the-api`,
			obtainBy: 'paste',
			accessToken: token,
		});
		expect(elsewhere.status).toBe('Error');
	});
});
