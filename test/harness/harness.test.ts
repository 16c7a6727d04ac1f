import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { CredentialTestContext } from 'n8n-core';
import type {
	IAuthenticateGeneric,
	ICredentialDataDecryptedObject,
	ICredentialTestFunctions,
	ICredentialType,
	ICredentialsDecrypted,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestHelper,
	INodeCredentialTestResult,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import type { HarnessWorkflow } from './index';
import {
	PACKAGE_NAME,
	credentialTypes,
	discoveryReport,
	nodeTypes,
	registerCredentialType,
	registerNodeType,
	runWorkflow,
	testCredential,
} from './index';

// ---------------------------------------------------------------------------------------------
// A local service: token issuing, a token-protected API and an API-key-protected endpoint.

interface SeenRequest {
	method: string;
	path: string;
	headers: IncomingHttpHeaders;
	body: string;
}

const service = {
	server: undefined as Server | undefined,
	baseUrl: '',
	requests: [] as SeenRequest[],
	tokensIssued: 0,
	/** Only the most recently issued token is accepted; older ones are stale. */
	currentToken: '',
	hits(path: string) {
		return this.requests.filter((request) => request.path.startsWith(path)).length;
	},
};

function send(res: ServerResponse, status: number, body: IDataObject) {
	res.writeHead(status, { 'content-type': 'application/json' });
	res.end(JSON.stringify(body));
}

function handle(req: IncomingMessage, res: ServerResponse, body: string) {
	const url = new URL(req.url ?? '/', service.baseUrl);
	const { method = '', headers } = req;
	service.requests.push({ method, path: url.pathname, headers, body });
	if (req.method === 'POST' && url.pathname === '/token') {
		const { merchantKey } = JSON.parse(body || '{}') as IDataObject;
		if (merchantKey !== 'mk_test') return send(res, 403, { error: 'bad merchant key' });
		service.tokensIssued += 1;
		service.currentToken = `token-${service.tokensIssued}`;
		return send(res, 200, { token: service.currentToken });
	}
	if (req.method === 'GET' && url.pathname.startsWith('/charges/')) {
		// The generic authenticate headers must all have arrived, resolved from $credentials.
		if (req.headers['x-merchant-key'] !== 'mk_test' || req.headers['x-region'] !== 'eu') {
			return send(res, 400, { error: 'missing merchant headers' });
		}
		if (req.headers.authorization !== `Bearer ${service.currentToken}`) {
			return send(res, 401, { error: 'token expired' });
		}
		return send(res, 200, { id: url.pathname.split('/')[2], status: 'captured' });
	}
	if (req.method === 'GET' && url.pathname === '/me') {
		const key = req.headers['x-api-key'];
		if (key === 'good') return send(res, 200, { ok: true, sandbox: false });
		if (key === 'sandbox-only') return send(res, 200, { ok: true, sandbox: true });
		if (key === 'revoked') return send(res, 403, { error: 'revoked' });
		return send(res, 401, { error: 'unknown key' });
	}
	return send(res, 404, { error: 'not found' });
}

beforeAll(async () => {
	service.server = createServer((req, res) => {
		let body = '';
		req.on('data', (chunk: Buffer) => (body += chunk.toString()));
		req.on('end', () => handle(req, res, body));
	});
	await new Promise<void>((resolve) => service.server!.listen(0, '127.0.0.1', resolve));
	service.baseUrl = `http://127.0.0.1:${(service.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
	await new Promise((resolve) => service.server?.close(resolve));
});

beforeEach(() => {
	service.requests = [];
});

// ---------------------------------------------------------------------------------------------
// Test-only node and credential types.

const base = {
	group: ['transform'],
	version: 1,
	description: 'Harness test node',
	inputs: [NodeConnectionTypes.Main],
	outputs: [NodeConnectionTypes.Main],
} satisfies Partial<INodeTypeDescription>;

/** generic authenticate from $credentials + preAuthentication filling an expirable token. */
class HarnessTokenApi implements ICredentialType {
	name = 'harnessTokenApi';

	displayName = 'Harness Token API';

	properties: ICredentialType['properties'] = [
		{ displayName: 'Base URL', name: 'baseUrl', type: 'string', default: '' },
		{ displayName: 'Merchant Key', name: 'merchantKey', type: 'string', default: '' },
		// Not given in the tests: proves defaults are applied by getDecrypted.
		{ displayName: 'Region', name: 'region', type: 'string', default: 'eu' },
		{
			displayName: 'Session Token',
			name: 'sessionToken',
			type: 'hidden',
			typeOptions: { expirable: true },
			default: '',
		},
	];

	async preAuthentication(this: IHttpRequestHelper, credentials: ICredentialDataDecryptedObject) {
		const { token } = (await this.helpers.httpRequest({
			method: 'POST',
			url: `${credentials.baseUrl as string}/token`,
			body: { merchantKey: credentials.merchantKey },
			json: true,
		})) as { token: string };
		return { sessionToken: token };
	}

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				'X-Merchant-Key': '={{$credentials.merchantKey}}',
				'X-Region': '={{$credentials.region}}',
				Authorization: '=Bearer {{$credentials.sessionToken}}',
			},
		},
	};
}

class HarnessChargeNode implements INodeType {
	description: INodeTypeDescription = {
		...base,
		displayName: 'Harness Charge',
		name: 'harnessCharge',
		defaults: { name: 'Charge' },
		credentials: [{ name: 'harnessTokenApi', required: true }],
		properties: [
			{ displayName: 'Charge ID', name: 'chargeId', type: 'string', default: '', required: true },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const { baseUrl } = await this.getCredentials<{ baseUrl: string }>('harnessTokenApi');
		const output: INodeExecutionData[] = [];
		for (let itemIndex = 0; itemIndex < this.getInputData().length; itemIndex++) {
			const chargeId = this.getNodeParameter('chargeId', itemIndex) as string;
			const json = (await this.helpers.httpRequestWithAuthentication.call(this, 'harnessTokenApi', {
				method: 'GET',
				url: `${baseUrl}/charges/${chargeId}`,
				json: true,
			})) as IDataObject;
			output.push({ json, pairedItem: { item: itemIndex } });
		}
		return [output];
	}
}

/** Reads input binary through the real helpers and writes a new binary property. */
class HarnessBinaryEcho implements INodeType {
	description: INodeTypeDescription = {
		...base,
		displayName: 'Harness Binary Echo',
		name: 'harnessBinaryEcho',
		defaults: { name: 'Echo' },
		properties: [{ displayName: 'Property', name: 'property', type: 'string', default: 'data' }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [
			await Promise.all(
				this.getInputData().map(async (_item, itemIndex) => {
					const property = this.getNodeParameter('property', itemIndex) as string;
					const meta = this.helpers.assertBinaryData(itemIndex, property);
					const text = (await this.helpers.getBinaryDataBuffer(itemIndex, property)).toString();
					const upper = await this.helpers.prepareBinaryData(
						Buffer.from(text.toUpperCase()),
						'upper.txt',
						'text/plain',
					);
					return {
						json: { text, fileName: meta.fileName ?? null, mimeType: meta.mimeType },
						binary: { upper },
						pairedItem: { item: itemIndex },
					};
				}),
			),
		];
	}
}

class HarnessThrower implements INodeType {
	description: INodeTypeDescription = {
		...base,
		displayName: 'Harness Thrower',
		name: 'harnessThrower',
		defaults: { name: 'Thrower' },
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		throw new NodeOperationError(this.getNode(), 'Card declined', { description: 'do not honour' });
	}
}

/** Tested through a node's `testedBy: '<method>'`. */
class HarnessKeyApi implements ICredentialType {
	name = 'harnessKeyApi';

	displayName = 'Harness Key API';

	properties: ICredentialType['properties'] = [
		{ displayName: 'Base URL', name: 'baseUrl', type: 'string', default: '' },
		{ displayName: 'API Key', name: 'apiKey', type: 'string', default: '' },
		{ displayName: 'Environment', name: 'environment', type: 'string', default: 'sandbox' },
	];
}

/** Tested through its own declarative `test` request. */
class HarnessDeclarativeKeyApi implements ICredentialType {
	name = 'harnessDeclarativeKeyApi';

	displayName = 'Harness Declarative Key API';

	properties: ICredentialType['properties'] = [
		{ displayName: 'Base URL', name: 'baseUrl', type: 'string', default: '' },
		{ displayName: 'API Key', name: 'apiKey', type: 'string', default: '' },
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: { headers: { 'x-api-key': '={{$credentials.apiKey}}' } },
	};

	test: ICredentialType['test'] = {
		request: { baseURL: '={{$credentials.baseUrl}}', url: '/me' },
		rules: [{ type: 'responseCode', properties: { value: 403, message: 'The key was revoked' } }],
	};
}

/** No `test` of its own: tested by the request a node gives in `testedBy`. */
class HarnessNodeTestedKeyApi implements ICredentialType {
	name = 'harnessNodeTestedKeyApi';

	displayName = 'Harness Node-tested Key API';

	properties: ICredentialType['properties'] = [
		{ displayName: 'Base URL', name: 'baseUrl', type: 'string', default: '' },
		{ displayName: 'API Key', name: 'apiKey', type: 'string', default: '' },
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: { headers: { 'x-api-key': '={{$credentials.apiKey}}' } },
	};
}

/** Declarative node whose requestDefaults supply the base URL of the test request. */
class HarnessRequestTestedNode implements INodeType {
	description: INodeTypeDescription = {
		...base,
		displayName: 'Harness Request-tested Node',
		name: 'harnessRequestTestedNode',
		defaults: { name: 'Request Tested' },
		requestDefaults: { baseURL: '={{$credentials.baseUrl}}' },
		credentials: [
			{
				name: 'harnessNodeTestedKeyApi',
				required: true,
				testedBy: {
					request: { method: 'GET', url: '/me' },
					rules: [
						{
							type: 'responseSuccessBody',
							properties: { key: 'sandbox', value: true, message: 'Sandbox keys cannot be used' },
						},
					],
				},
			},
		],
		properties: [],
	};
}

class HarnessUntestedApi implements ICredentialType {
	name = 'harnessUntestedApi';

	displayName = 'Harness Untested API';

	properties: ICredentialType['properties'] = [
		{ displayName: 'Key', name: 'key', type: 'string', default: '' },
	];
}

const credentialTestCalls: Array<{ self: unknown; credential: ICredentialsDecrypted }> = [];

class HarnessKeyNode implements INodeType {
	description: INodeTypeDescription = {
		...base,
		displayName: 'Harness Key Node',
		name: 'harnessKeyNode',
		defaults: { name: 'Key Node' },
		credentials: [{ name: 'harnessKeyApi', required: true, testedBy: 'checkKey' }],
		properties: [],
	};

	methods = {
		credentialTest: {
			async checkKey(
				this: ICredentialTestFunctions,
				credential: ICredentialsDecrypted,
			): Promise<INodeCredentialTestResult> {
				credentialTestCalls.push({ self: this, credential });
				const data = credential.data!;
				try {
					await this.helpers.request({
						uri: `${data.baseUrl as string}/me`,
						headers: { 'x-api-key': data.apiKey },
						json: true,
					});
				} catch (error) {
					return { status: 'Error', message: `Rejected: ${(error as Error).message}` };
				}
				return { status: 'OK', message: 'Connection successful!' };
			},
		},
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [this.getInputData()];
	}
}

registerCredentialType(new HarnessTokenApi());
registerCredentialType(new HarnessKeyApi());
registerCredentialType(new HarnessDeclarativeKeyApi());
registerCredentialType(new HarnessUntestedApi());
registerCredentialType(new HarnessNodeTestedKeyApi());
registerNodeType('test.requestTestedNode', new HarnessRequestTestedNode());
registerNodeType('test.charge', new HarnessChargeNode());
registerNodeType('test.binaryEcho', new HarnessBinaryEcho());
registerNodeType('test.thrower', new HarnessThrower());
registerNodeType('test.keyNode', new HarnessKeyNode());

const chain = (...names: string[]): HarnessWorkflow['connections'] =>
	Object.fromEntries(
		names.slice(0, -1).map((name, index) => {
			const next = names[index + 1];
			return [name, { main: [[{ node: next, type: NodeConnectionTypes.Main, index: 0 }]] }];
		}),
	);

// ---------------------------------------------------------------------------------------------

describe('runWorkflow', () => {
	it('runs start → noOp and resolves expressions per item', async () => {
		const workflow: HarnessWorkflow = {
			nodes: [
				{
					name: 'Start',
					type: 'harness.start',
					parameters: {
						items: [
							{ amount: 12.5, currency: 'EUR' },
							{ amount: 3, currency: 'USD' },
						],
					},
				},
				{
					name: 'Set Fields',
					type: 'harness.noOp',
					parameters: {
						assign: {
							doubled: '={{ $json.amount * 2 }}',
							label: "={{ $('Start').item.json.currency + '-' + $itemIndex }}",
							zone: '={{ $now.zoneName }}',
							mode: '={{ $execution.mode }}',
						},
					},
				},
			],
			connections: chain('Start', 'Set Fields'),
		};

		const zone = 'Asia/Tokyo';
		const result = await runWorkflow(workflow, { timezone: zone });

		expect(result.error).toBeUndefined();
		expect(result.outputs.Start.map((item) => item.json)).toEqual([
			{ amount: 12.5, currency: 'EUR' },
			{ amount: 3, currency: 'USD' },
		]);
		expect(result.outputs['Set Fields'].map((item) => item.json)).toEqual([
			{ amount: 12.5, currency: 'EUR', doubled: 25, label: 'EUR-0', zone, mode: 'test' },
			{ amount: 3, currency: 'USD', doubled: 6, label: 'USD-1', zone, mode: 'test' },
		]);
		expect(result.allOutputs['Set Fields']).toHaveLength(1);
		expect(result.runData['Set Fields'][0].executionStatus).toBe('success');
		// The caller's workflow is not mutated (it can be run again).
		expect(workflow.nodes[1]).not.toHaveProperty('id');
	});

	it('emits one empty item by default and fills in node defaults', async () => {
		const result = await runWorkflow({
			nodes: [
				{ name: 'Start', type: 'harness.start', parameters: {} },
				{ name: 'Pass', type: 'harness.noOp', parameters: {} },
			],
			connections: chain('Start', 'Pass'),
		});

		expect(result.error).toBeUndefined();
		expect(result.outputs.Pass).toEqual([{ json: {}, pairedItem: { item: 0 } }]);
		expect(result.run?.data.resultData.lastNodeExecuted).toBe('Pass');
	});

	it('carries binary data that downstream nodes and result.binary() can read', async () => {
		const result = await runWorkflow({
			nodes: [
				{
					name: 'Start',
					type: 'harness.start',
					parameters: {
						items: [{ n: 1 }, { n: 2 }],
						binary: [
							{
								property: 'receipt',
								fileName: 'receipt.txt',
								mimeType: 'text/plain',
								base64: Buffer.from('paid in full').toString('base64'),
							},
						],
					},
				},
				{ name: 'Echo', type: 'test.binaryEcho', parameters: { property: 'receipt' } },
			],
			connections: chain('Start', 'Echo'),
		});

		expect(result.error).toBeUndefined();
		expect((await result.binary('Start', 1, 'receipt')).toString()).toBe('paid in full');
		expect(result.outputs.Echo.map((item) => item.json)).toEqual([
			{ text: 'paid in full', fileName: 'receipt.txt', mimeType: 'text/plain' },
			{ text: 'paid in full', fileName: 'receipt.txt', mimeType: 'text/plain' },
		]);
		expect((await result.binary('Echo', 0, 'upper')).toString()).toBe('PAID IN FULL');
		await expect(result.binary('Echo', 0)).rejects.toThrow(/no binary property "data"/);
	});

	it('reports a failing node in result.error instead of throwing', async () => {
		const result = await runWorkflow({
			nodes: [
				{ name: 'Start', type: 'harness.start', parameters: {} },
				{ name: 'Thrower', type: 'test.thrower', parameters: {} },
				{ name: 'After', type: 'harness.noOp', parameters: {} },
			],
			connections: chain('Start', 'Thrower', 'After'),
		});

		expect(result.error).toBeInstanceOf(NodeOperationError);
		expect(result.error?.message).toBe('Card declined');
		expect((result.error as NodeOperationError).description).toBe('do not honour');
		expect(result.runData.Thrower[0].error?.message).toBe('Card declined');
		expect(result.outputs.Start).toHaveLength(1);
		expect(result.outputs.After).toBeUndefined();
		expect(result.run?.status).toBe('error');
	});

	it('returns workflow issues (a missing required parameter) as result.error', async () => {
		const result = await runWorkflow(
			{
				nodes: [
					{ name: 'Start', type: 'harness.start', parameters: {} },
					{
						name: 'Charge',
						type: 'test.charge',
						parameters: {},
						credentials: { harnessTokenApi: {} },
					},
				],
				connections: chain('Start', 'Charge'),
			},
			{ credentials: [{ type: 'harnessTokenApi', data: {} }] },
		);

		expect(result.error?.name).toBe('WorkflowHasIssuesError');
		expect(result.runData).toEqual({});
	});

	it('throws for harness misuse: unknown node types and missing credentials', async () => {
		await expect(
			runWorkflow({ nodes: [{ name: 'X', type: 'nope.nope', parameters: {} }], connections: {} }),
		).rejects.toThrow(/Unknown node type "nope.nope"/);
		await expect(
			runWorkflow({
				nodes: [
					{ name: 'C', type: 'test.charge', parameters: {}, credentials: { harnessTokenApi: {} } },
				],
				connections: {},
			}),
		).rejects.toThrow(/no harness credential of that type/);
	});

	it('discovers every node and credential file of the package', () => {
		const report = discoveryReport();

		expect(PACKAGE_NAME).toBe('n8n-nodes-payment-gateway');
		expect(report.failures).toEqual([]);
		expect(report.nodes.length + report.credentials.length).toBe(report.files);
		for (const name of report.nodes) {
			expect(name.startsWith(`${PACKAGE_NAME}.`)).toBe(true);
			// The bare description.name is accepted too.
			const bare = name.slice(PACKAGE_NAME.length + 1);
			expect(nodeTypes.getByName(bare)).toBe(nodeTypes.getByName(name));
		}
		for (const name of report.credentials) expect(credentialTypes.recognizes(name)).toBe(true);
		expect(Object.keys(nodeTypes.getKnownTypes())).toEqual(
			expect.arrayContaining(['harness.start', 'harness.noOp', 'test.charge']),
		);
	});
});

describe('credentials', () => {
	const chargeWorkflow: HarnessWorkflow = {
		nodes: [
			{
				name: 'Start',
				type: 'harness.start',
				parameters: { items: [{ id: 'ch_1' }, { id: 'ch_2' }] },
			},
			{
				name: 'Charge',
				type: 'test.charge',
				parameters: { chargeId: '={{ $json.id }}' },
				credentials: { harnessTokenApi: { name: 'Token account' } },
			},
		],
		connections: chain('Start', 'Charge'),
	};
	const credential = (data: ICredentialDataDecryptedObject) => ({
		id: 'cred-token',
		name: 'Token account',
		type: 'harnessTokenApi',
		data: { baseUrl: service.baseUrl, merchantKey: 'mk_test', ...data },
	});

	it('fetches a token once through preAuthentication and sends generic auth headers', async () => {
		const tokensBefore = service.tokensIssued;

		const result = await runWorkflow(chargeWorkflow, { credentials: [credential({})] });

		expect(result.error).toBeUndefined();
		expect(result.outputs.Charge.map((item) => item.json)).toEqual([
			{ id: 'ch_1', status: 'captured' },
			{ id: 'ch_2', status: 'captured' },
		]);
		// One token for both items: the first request cached it in the store.
		expect(service.tokensIssued - tokensBefore).toBe(1);
		expect(service.hits('/token')).toBe(1);
		expect(service.hits('/charges/')).toBe(2);
		const charge = service.requests.find((request) => request.path === '/charges/ch_2')!;
		expect(charge.headers).toMatchObject({
			'x-merchant-key': 'mk_test',
			'x-region': 'eu',
			authorization: `Bearer ${service.currentToken}`,
		});
		expect(result.credentials.get('cred-token')).toMatchObject({
			merchantKey: 'mk_test',
			sessionToken: service.currentToken,
		});

		// Seeding the next run with the stored data reuses the cached token.
		const again = await runWorkflow(chargeWorkflow, {
			credentials: [{ ...credential({}), data: result.credentials.get('cred-token')! }],
		});
		expect(again.error).toBeUndefined();
		expect(service.hits('/token')).toBe(1);
		expect(service.hits('/charges/')).toBe(4);
	});

	it('refreshes a stale token once after a 401 and retries the request', async () => {
		// Make sure a current token exists that differs from the stale one below.
		await runWorkflow(chargeWorkflow, { credentials: [credential({})] });
		service.requests = [];
		const tokensBefore = service.tokensIssued;

		const result = await runWorkflow(chargeWorkflow, {
			credentials: [credential({ sessionToken: 'token-stale' })],
		});

		expect(result.error).toBeUndefined();
		expect(result.outputs.Charge).toHaveLength(2);
		expect(service.tokensIssued - tokensBefore).toBe(1);
		// ch_1 with the stale token (401), token refresh, ch_1 again, ch_2 with the new token.
		expect(service.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
			'GET /charges/ch_1',
			'POST /token',
			'GET /charges/ch_1',
			'GET /charges/ch_2',
		]);
		expect(result.credentials.get('cred-token')?.sessionToken).toBe(service.currentToken);
	});

	it('surfaces a failing token request as the node error', async () => {
		const result = await runWorkflow(chargeWorkflow, {
			credentials: [credential({ merchantKey: 'mk_wrong' })],
		});

		expect(result.error).toBeDefined();
		expect(result.error?.name).toBe('NodeApiError');
		expect(service.hits('/charges/')).toBe(0);
	});
});

describe('testCredential', () => {
	beforeEach(() => {
		credentialTestCalls.length = 0;
	});

	it('calls the node method named by testedBy with a CredentialTestContext', async () => {
		const ok = await testCredential('harnessKeyApi', { baseUrl: service.baseUrl, apiKey: 'good' });
		const bad = await testCredential('harnessKeyApi', { baseUrl: service.baseUrl, apiKey: 'nope' });

		expect(ok).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(bad.status).toBe('Error');
		expect(bad.message).toMatch(/^Rejected: /);
		expect(service.hits('/me')).toBe(2);
		expect(credentialTestCalls).toHaveLength(2);
		expect(credentialTestCalls[0].self).toBeInstanceOf(CredentialTestContext);
		expect(credentialTestCalls[0].credential).toMatchObject({
			type: 'harnessKeyApi',
			data: { baseUrl: service.baseUrl, apiKey: 'good', environment: 'sandbox' },
		});
		expect(typeof credentialTestCalls[0].credential.id).toBe('string');
		expect(typeof credentialTestCalls[0].credential.name).toBe('string');
	});

	it('runs a credential type’s declarative test request with its rules', async () => {
		const data = (apiKey: string) => ({ baseUrl: service.baseUrl, apiKey });

		await expect(testCredential('harnessDeclarativeKeyApi', data('good'))).resolves.toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		await expect(testCredential('harnessDeclarativeKeyApi', data('revoked'))).resolves.toEqual({
			status: 'Error',
			message: 'The key was revoked',
		});
		await expect(testCredential('harnessDeclarativeKeyApi', data('other'))).resolves.toEqual({
			status: 'Error',
			message: 'Unauthorized',
		});
		expect(service.requests.every((request) => request.path === '/me')).toBe(true);
		// n8n-core retries once after any 401 (refreshing credentials first), hence 'other' twice.
		expect(service.requests.map((request) => request.headers['x-api-key'])).toEqual([
			'good',
			'revoked',
			'other',
			'other',
		]);
	});

	it('runs the request a node gives in testedBy, with the node’s requestDefaults', async () => {
		const data = (apiKey: string) => ({ baseUrl: service.baseUrl, apiKey });

		await expect(testCredential('harnessNodeTestedKeyApi', data('good'))).resolves.toEqual({
			status: 'OK',
			message: 'Connection successful!',
		});
		await expect(testCredential('harnessNodeTestedKeyApi', data('sandbox-only'))).resolves.toEqual({
			status: 'Error',
			message: 'Sandbox keys cannot be used',
		});
		expect(service.requests.map((request) => request.headers['x-api-key'])).toEqual([
			'good',
			'sandbox-only',
		]);
	});

	it('reports credentials without any test', async () => {
		await expect(testCredential('harnessUntestedApi', { key: 'x' })).resolves.toEqual({
			status: 'Error',
			message: 'No testing function found for this credential.',
		});
	});
});
