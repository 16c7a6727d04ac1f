import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import type { HarnessWorkflow, WebhookHarness } from './index';
import { registerNodeType, startWebhookWorkflow } from './index';

/** A webhook node whose answer is chosen by the delivery's `mode` field. */
class HarnessHook implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Harness Hook',
		name: 'harnessHook',
		group: ['trigger'],
		version: 1,
		description: 'Answers deliveries as the body says',
		defaults: { name: 'Hook' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'hook' }],
		properties: [],
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const body = this.getBodyData();
		const item = {
			body,
			query: this.getQueryData() as IDataObject,
			url: this.getNodeWebhookUrl('default') ?? null,
		};
		const workflowData = [[{ json: item }]];
		switch (body.mode) {
			case 'throw':
				throw new Error('webhook() failed');
			case 'silent':
				return {};
			case 'count': {
				const data = this.getWorkflowStaticData('node');
				data.count = ((data.count as number | undefined) ?? 0) + 1;
				return { workflowData };
			}
			case 'answer':
				this.getResponseObject().status(202).json({ answered: 'by the node' });
				return { noWebhookResponse: true, workflowData };
			case 'respond':
				return { webhookResponse: { custom: true }, workflowData };
			default:
				return { workflowData };
		}
	}
}

/** Counts its runs in the workflow's global static data. */
class HarnessRunCounter implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Harness Run Counter',
		name: 'harnessRunCounter',
		group: ['transform'],
		version: 1,
		description: 'Counts runs in static data',
		defaults: { name: 'Counter' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const data = this.getWorkflowStaticData('global');
		data.runs = ((data.runs as number | undefined) ?? 0) + 1;
		return [this.getInputData()];
	}
}

registerNodeType('test.hook', new HarnessHook());
registerNodeType('test.runCounter', new HarnessRunCounter());

const WORKFLOW: HarnessWorkflow = {
	nodes: [
		{ name: 'Hook', type: 'test.hook', parameters: {}, webhookId: 'fixed-id' },
		{ name: 'Counter', type: 'test.runCounter', parameters: {} },
	],
	connections: { Hook: { main: [[{ node: 'Counter', type: 'main', index: 0 }]] } },
};

let harness: WebhookHarness;

beforeEach(async () => {
	harness = await startWebhookWorkflow(WORKFLOW);
});

afterEach(async () => {
	await harness.stop();
});

describe('startWebhookWorkflow', () => {
	test('runs the workflow from the trigger with the items webhook() returned', async () => {
		const delivery = await harness.deliver({ body: { a: 1 }, query: { q: 'x' } });

		expect(delivery).toMatchObject({ status: 200, body: { message: 'Workflow was started' } });
		expect(delivery.executed).toBe(true);
		expect(harness.executions).toEqual([delivery.result]);
		const item = { body: { a: 1 }, query: { q: 'x' }, url: harness.url };
		expect(delivery.result?.outputs.Hook.map(({ json }) => json)).toEqual([item]);
		expect(delivery.result?.outputs.Counter.map(({ json }) => json)).toEqual([item]);
		expect(harness.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhook\/fixed-id\/hook$/);
	});

	test('answers with webhookResponse when the node gives one', async () => {
		expect(await harness.deliver({ body: { mode: 'respond' } })).toMatchObject({
			status: 200,
			body: { custom: true },
			executed: true,
		});
	});

	test('no workflowData: 200 with the default message and no execution', async () => {
		expect(await harness.deliver({ body: { mode: 'silent' } })).toMatchObject({
			status: 200,
			body: { message: 'Webhook call received' },
			executed: false,
		});
		expect(harness.executions).toHaveLength(0);
	});

	test('noWebhookResponse: the node answered itself, the workflow still runs', async () => {
		const delivery = await harness.deliver({ body: { mode: 'answer' } });
		expect(delivery).toMatchObject({
			status: 202,
			body: { answered: 'by the node' },
			executed: true,
		});
	});

	test('a throwing webhook() answers 500 without the cause and starts nothing', async () => {
		const delivery = await harness.deliver({ body: { mode: 'throw' } });
		expect(delivery).toMatchObject({
			status: 500,
			body: { message: 'Workflow Webhook Error: Workflow could not be started!' },
			executed: false,
		});
		expect(delivery.error?.message).toBe('webhook() failed');
		expect(harness.executions).toHaveLength(0);
	});

	test('saves static data changed by webhook() and by nodes of the execution', async () => {
		await harness.deliver({ body: { mode: 'count' } });
		await harness.deliver({ body: { mode: 'count' } });
		await harness.deliver({ body: { mode: 'silent' } });

		expect(harness.staticData).toEqual({ 'node:Hook': { count: 2 }, global: { runs: 2 } });
	});

	test('loads the saved static data for every delivery, as n8n does', async () => {
		harness.staticData['node:Hook'] = { count: 40 };
		await harness.deliver({ body: { mode: 'count' } });
		expect(harness.staticData['node:Hook']).toEqual({ count: 41 });
	});

	test('over HTTP: JSON parsed, other bodies as n8n leaves them', async () => {
		const post = async (body: string, contentType?: string) =>
			await fetch(`${harness.url}?q=1`, {
				method: 'POST',
				headers: contentType ? { 'content-type': contentType } : {},
				body,
			});

		expect((await post('{"a":1}', 'application/json; charset=utf-8')).status).toBe(200);
		expect((await post('a=1&b=2', 'application/x-www-form-urlencoded')).status).toBe(200);
		expect((await post('plain', 'text/plain')).status).toBe(200);
		expect((await post('\u0000\u0001', 'application/octet-stream')).status).toBe(200);
		const broken = await post('{"a":', 'application/json');
		expect(broken.status).toBe(422);

		expect(harness.executions.map(({ outputs }) => outputs.Hook[0].json.body)).toEqual([
			{ a: 1 },
			{ a: '1', b: '2' },
			'plain',
			{},
		]);
		expect(harness.executions[0].outputs.Hook[0].json.query).toEqual({ q: '1' });
		expect(harness.deliveries.map(({ status, via }) => [status, via])).toEqual([
			[200, 'http'],
			[200, 'http'],
			[200, 'http'],
			[200, 'http'],
			[422, 'http'],
		]);
	});

	test('setResponseFailure fails only the next HTTP deliveries', async () => {
		harness.setResponseFailure(2, 503);
		const post = async () =>
			(
				await fetch(harness.url, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: '{}',
				})
			).status;

		expect((await harness.deliver({ body: {} })).status).toBe(200);
		expect([await post(), await post(), await post()]).toEqual([503, 503, 200]);
		expect(harness.executions).toHaveLength(2);
	});
});
