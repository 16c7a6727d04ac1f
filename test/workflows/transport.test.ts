import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { requestOptionsProperty } from '../../nodes/PaymentGateway/actions/common.descriptions';
import type { Channel } from '../../nodes/PaymentGateway/transport';
import { apiRequest } from '../../nodes/PaymentGateway/transport';
import { registerNodeType } from '../harness';
import type { Sandbox } from '../sandbox';
import { parseMultipart, startSandbox } from '../sandbox';
import { requestsTo, runGateway, sandboxCredentials } from './support';

/**
 * Sends one request through the package's transport, for request kinds no operation of this
 * version makes yet (money-moving writes, payout uploads).
 */
class TransportProbe implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Transport Probe',
		name: 'transportProbe',
		group: ['transform'],
		version: 1,
		description: 'Test-only node',
		defaults: { name: 'Transport Probe' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: 'paymentGatewayHostedApi', required: false },
			{ name: 'paymentGatewayPayoutApi', required: false },
		],
		properties: [
			{ displayName: 'Channel', name: 'channel', type: 'string', default: 'hosted' },
			{ displayName: 'Method', name: 'method', type: 'string', default: 'POST' },
			{ displayName: 'Path', name: 'path', type: 'string', default: '' },
			{ displayName: 'Retry Safe', name: 'retrySafe', type: 'boolean', default: false },
			{ displayName: 'Body', name: 'body', type: 'json', default: '{}' },
			{ displayName: 'Multipart', name: 'multipart', type: 'boolean', default: false },
			{ displayName: 'How To Check', name: 'howToCheck', type: 'string', default: '' },
			requestOptionsProperty,
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const out: INodeExecutionData[] = [];
		for (let i = 0; i < this.getInputData().length; i++) {
			const body = JSON.parse(this.getNodeParameter('body', i) as string) as IDataObject;
			const multipart = this.getNodeParameter('multipart', i) as boolean;
			try {
				const json = await apiRequest.call(this, i, {
					channel: this.getNodeParameter('channel', i) as Channel,
					method: this.getNodeParameter('method', i) as 'POST',
					path: this.getNodeParameter('path', i) as string,
					retrySafe: this.getNodeParameter('retrySafe', i) as boolean,
					howToCheck: (this.getNodeParameter('howToCheck', i) as string) || undefined,
					...(multipart
						? {
								multipart: [
									{ name: 'request_id', value: 'batch-1' },
									{
										name: 'payout_file',
										fileName: 'p.xlsx',
										contentType: 'application/octet-stream',
										data: Buffer.from([1, 2, 3]),
									},
								],
							}
						: { body }),
				});
				out.push({ json, pairedItem: { item: i } });
			} catch (error) {
				if (!this.continueOnFail()) throw error;
				out.push({ json: { error: (error as Error).message }, pairedItem: { item: i } });
			}
		}
		return [out];
	}
}

let sandbox: Sandbox;

beforeAll(async () => {
	registerNodeType('test.transportProbe', new TransportProbe());
	sandbox = await startSandbox();
});
afterAll(async () => await sandbox.stop());
beforeEach(() => {
	sandbox.faults.clear();
	sandbox.clearRequests();
});

const CAPTURE = '/orders/v1/transaction';
const capture = {
	action: 'CAPTURE',
	transaction_id: '1',
	amount: { currencyCode: 'AED', value: 10 },
};

describe('retries only what cannot move money twice', () => {
	it.each(['status500', 'html502', 'timeout', 'reset'] as const)(
		'sends a non-idempotent write once after %s',
		async (kind) => {
			sandbox.faults.inject({ kind, retryAfter: 0, delayMs: 2000 });
			// The transport's words for a write that is not retry-safe; the operations then settle it
			// (test/workflows/lost-answers.test.ts).
			const result = await runGateway(sandbox, {
				nodeType: 'test.transportProbe',
				parameters: {
					path: CAPTURE,
					retrySafe: false,
					body: JSON.stringify(capture),
					howToCheck:
						'look the payment up with Transaction > Get, with its transaction ID or order ID',
					requestOptions: { timeoutMs: 400 },
				},
			});
			expect(result.error).toBeDefined();
			expect(requestsTo(sandbox, CAPTURE)).toHaveLength(1);
			const description = String((result.error as { description?: string }).description);
			expect(description).not.toMatch(/tried \d+ times/);
			expect(description).toMatch(
				/not retried automatically. It may have reached the service and been processed: look the payment up with Transaction > Get, with its transaction ID or order ID before sending it again/,
			);
		},
	);

	it('retries the same write when the service refuses repeats of it', async () => {
		sandbox.faults.inject({ kind: 'status500' });
		await runGateway(sandbox, {
			nodeType: 'test.transportProbe',
			parameters: { path: CAPTURE, retrySafe: true, body: JSON.stringify(capture) },
		});
		expect(requestsTo(sandbox, CAPTURE).length).toBeGreaterThanOrEqual(2);
	});

	it('sends JSON bodies as application/json', async () => {
		await runGateway(sandbox, {
			nodeType: 'test.transportProbe',
			parameters: { path: CAPTURE, body: JSON.stringify(capture) },
		});
		const [request] = requestsTo(sandbox, CAPTURE);
		expect(request.headers['content-type']).toMatch(/^application\/json/);
		expect(JSON.parse(request.body.toString())).toEqual(capture);
	});
});

describe('payout bearer token', () => {
	const UPLOAD = '/payout/v1/bulk/payouts';
	const TOKEN = '/payout/v1/token';
	const upload = (credentials = sandboxCredentials(sandbox)) =>
		runGateway(sandbox, {
			nodeType: 'test.transportProbe',
			credentialType: 'paymentGatewayPayoutApi',
			credentials,
			continueOnFail: true,
			items: [{}, {}],
			parameters: {
				channel: 'payout',
				path: '/v1/bulk/payouts',
				multipart: true,
				requestOptions: { maxRetries: 0 },
			},
		});

	it('is fetched once, cached, sent as Bearer, and renewed once after a 401', async () => {
		const first = await upload();
		expect(requestsTo(sandbox, TOKEN)).toHaveLength(1);
		const uploads = requestsTo(sandbox, UPLOAD);
		expect(uploads).toHaveLength(2);
		const cached = first.credentials.get('paymentGatewayPayoutApi')!;
		// The cached token carries the Payout URL and key it was issued for; only the token is sent.
		const bearer = (data: typeof cached) =>
			`Bearer ${String(data.sessionToken).replace(/^v1:[0-9a-f]+:/, '')}`;
		expect(String(cached.sessionToken)).toMatch(/^v1:[0-9a-f]{32}:/);
		expect(uploads[0].headers.authorization).toBe(bearer(cached));
		const parts = parseMultipart(uploads[0].body, uploads[0].headers['content-type'] as string)!;
		expect(parts.map((p) => p.name)).toEqual(['request_id', 'payout_file']);
		expect([...parts[1].data]).toEqual([1, 2, 3]);

		// The next run starts from the stored credential: no new token until the service says 401.
		const stored = sandboxCredentials(sandbox).map((c) =>
			c.type === 'paymentGatewayPayoutApi' ? { ...c, data: cached } : c,
		);
		sandbox.clearRequests();
		await upload(stored);
		expect(requestsTo(sandbox, TOKEN)).toHaveLength(0);

		sandbox.state.expirePayoutTokens();
		sandbox.clearRequests();
		const renewed = await upload(stored);
		expect(requestsTo(sandbox, TOKEN)).toHaveLength(1);
		// First upload 401, the same upload again with the new token, then the second item.
		const renewedData = renewed.credentials.get('paymentGatewayPayoutApi')!;
		expect(requestsTo(sandbox, UPLOAD).map((r) => r.headers.authorization)).toEqual([
			bearer(cached),
			bearer(renewedData),
			bearer(renewedData),
		]);
	});
});
