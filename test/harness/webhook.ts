import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse as parseQueryString } from 'node:querystring';

import { ExecutionLifecycleHooks, WebhookContext, WorkflowExecute } from 'n8n-core';
import type {
	ExecutionBaseError,
	IDataObject,
	IHttpRequestMethods,
	INode,
	INodeExecutionData,
	INodeType,
	IRun,
	IWebhookData,
	IWebhookDescription,
	IWebhookResponseData,
	IWorkflowExecuteAdditionalData,
	Workflow,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import {
	NodeHelpers,
	ObservableObject,
	UserError,
	createRunExecutionData,
	deepCopy,
} from 'n8n-workflow';

import { buildAdditionalData, nextExecutionId } from './additional-data';
import { HarnessCredentialsHelper } from './credentials-helper';
import {
	CapturedResponse,
	fakeRequest,
	parseBody,
	respond,
	type IncomingRequest,
} from './http-fakes';
import { ensureEnvironment } from './environment';
import { runWebhookMethod } from './hook-methods';
import { toError } from './errors';
import type { HarnessWorkflow, RunOptions, RunResult } from './index';
import type { WaitingExecutions } from './waiting';
import { prepareWorkflow, toRunResult } from './workflow';

interface HandledRequest {
	delivery: WebhookDelivery;
	response: CapturedResponse;
}

export interface WebhookRequest {
	/** Defaults to the webhook's method (POST for most triggers). */
	method?: string;
	headers?: Record<string, string>;
	/** An object is sent as JSON; a string or Buffer is sent as is (strings as text/plain). */
	body?: unknown;
	query?: Record<string, string>;
}

export interface WebhookDelivery {
	status: number;
	/** The response body as the sender would read it: parsed JSON, else text. */
	body: unknown;
	/** Whether the delivery started an execution. */
	executed: boolean;
	result?: RunResult;
	/** Set when the node's webhook() threw (n8n then answers 500 without the cause). */
	error?: Error;
	via: 'deliver' | 'http';
}

export interface WebhookHarness {
	/** Handles a request in-process, as n8n's production webhook path would; no HTTP involved. */
	deliver(request: WebhookRequest): Promise<WebhookDelivery>;
	/** http://127.0.0.1:<port>/webhook/<path>: the same over real HTTP. */
	url: string;
	/** Every delivery that reached the webhook route, in order (404s for other routes are not). */
	deliveries: WebhookDelivery[];
	/** One per started execution. */
	executions: RunResult[];
	/** What n8n would have saved as the workflow's static data; loaded for every delivery. */
	staticData: IDataObject;
	/** The next `count` HTTP deliveries answer `status` (default 500) without reaching the node. */
	setResponseFailure(count: number, status?: number): void;
	/**
	 * Publishing (n8n's ActiveWorkflowManager → WebhookService.createWebhookIfNotExists): the
	 * trigger's webhookMethods checkExists, then create when it answered false. `unpublish` runs
	 * delete (mode 'internal', as n8n does). `mode: 'manual'` is the editor's test webhook.
	 */
	publish(mode?: 'trigger' | 'manual'): Promise<void>;
	unpublish(): Promise<void>;
	stop(): Promise<void>;
}

export type WebhookOptions = RunOptions & {
	/** The node whose webhook receives deliveries; defaults to the first node with a webhook. */
	triggerNode?: string;
	/** Executions waiting in this n8n: their addresses (/webhook-waiting/<id>) answer as n8n's. */
	waiting?: WaitingExecutions;
};

/** The first usable webhook description of the trigger, as n8n registers it on activation. */
function webhookDescriptionOf(nodeType: INodeType, node: INode): IWebhookDescription {
	const description = (nodeType.description.webhooks ?? []).find(
		(webhook) => webhook.restartWebhook !== true,
	);
	if (!description || typeof nodeType.webhook !== 'function') {
		throw new UserError(`Node "${node.name}" (${node.type}) has no webhook`);
	}
	return description;
}

function findTrigger(workflow: Workflow, requested?: string): INode {
	const candidates = requested
		? [workflow.getNode(requested)]
		: Object.values(workflow.nodes).filter((node) => !node.disabled);
	for (const node of candidates) {
		if (!node) break;
		const nodeType = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
		if (requested || (nodeType.description.webhooks?.length && nodeType.webhook)) return node;
	}
	throw new UserError(
		requested
			? `Trigger node "${requested}" is not in the workflow`
			: 'The workflow has no node with a webhook',
	);
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of request) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks);
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
	return Object.fromEntries(
		Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]),
	);
}

/**
 * Starts a workflow's webhook trigger the way an active workflow's production webhook runs in
 * n8n (LiveWebhooks → executeWebhook): the node's webhook() runs in a real WebhookContext, its
 * workflowData starts an execution from the trigger through WorkflowExecute, and static data is
 * saved when n8n would save it.
 */
export async function startWebhookWorkflow(
	definition: HarnessWorkflow,
	options: WebhookOptions = {},
): Promise<WebhookHarness> {
	await ensureEnvironment();
	const mode: WorkflowExecuteMode = options.mode ?? 'webhook';
	const { store, workflowData, workflow } = prepareWorkflow(definition, options, true);
	const credentialsHelper = new HarnessCredentialsHelper(store);
	const trigger = findTrigger(workflow, options.triggerNode);
	const nodeType = workflow.nodeTypes.getByNameAndVersion(trigger.type, trigger.typeVersion);
	const description = webhookDescriptionOf(nodeType, trigger);
	// The editor gives every webhook node an id; production URLs are built from it.
	trigger.webhookId ??= randomUUID();

	const evaluate = <T>(value: unknown, fallback?: T): T =>
		workflow.expression.getSimpleParameterValue(
			trigger,
			value as string,
			'internal',
			{},
			undefined,
			fallback as string,
		) as T;
	const nodePath = String(evaluate<string>(description.path)).replace(/^\/+|\/+$/g, '');
	const path = NodeHelpers.getNodeWebhookPath(
		workflow.id,
		trigger,
		nodePath,
		evaluate<boolean>(description.isFullPath, false),
		false,
	);
	const httpMethod = String(evaluate<string>(description.httpMethod, 'GET')).toUpperCase();
	const responseMode = evaluate<string>(description.responseMode, 'onReceived');
	const responseCode = Number(evaluate<number>(description.responseCode, 200));
	if (responseMode !== 'onReceived') {
		throw new UserError(`Response mode "${responseMode}" is not supported by the test harness`);
	}

	const staticData: IDataObject = deepCopy(definition.staticData ?? {});
	const deliveries: WebhookDelivery[] = [];
	const executions: RunResult[] = [];
	let failures = { left: 0, status: 500 };
	let webhookBaseUrl = '';

	/** Like WorkflowStaticDataService.saveStaticDataById: the data replaces what was saved. */
	const saveStaticData = (data: IDataObject) => {
		const copy = deepCopy(data);
		for (const key of Object.keys(staticData)) delete staticData[key];
		Object.assign(staticData, copy);
	};
	/** n8n builds the Workflow per request from the saved static data; load it the same way. */
	const loadStaticData = () => {
		workflow.staticData = ObservableObject.create(deepCopy(staticData), undefined, {
			ignoreEmptyOnFirstChild: true,
		});
	};
	const additionalDataFor = (executionId: string) => {
		const additionalData = buildAdditionalData({
			credentialsHelper,
			mode,
			executionId,
			workflowData,
		});
		additionalData.webhookBaseUrl = webhookBaseUrl;
		return additionalData;
	};

	/** WorkflowRunner's part: run from the trigger with the items its webhook() returned. */
	const execute = async (items: INodeExecutionData[][]): Promise<RunResult> => {
		// The runner's fresh Workflow sees what webhook() changed, with the change flag reset.
		loadStaticData();
		const executionId = nextExecutionId();
		const additionalData = additionalDataFor(executionId);
		const hooks = new ExecutionLifecycleHooks(mode, executionId, workflowData);
		// n8n's lifecycle hooks save static data a node changed during the run (not in manual runs).
		hooks.addHandler('workflowExecuteAfter', (_run, newStaticData) => {
			if (newStaticData && mode !== 'manual') saveStaticData(newStaticData);
		});
		additionalData.hooks = hooks;
		const runExecutionData = createRunExecutionData({
			executionData: {
				nodeExecutionStack: [{ node: trigger, data: { main: items }, source: null }],
			},
		});
		let run: IRun | undefined;
		let error: ExecutionBaseError | Error | undefined;
		try {
			run = await new WorkflowExecute(
				additionalData,
				mode,
				runExecutionData,
			).processRunExecutionData(workflow);
			if (run.data.resultData.error) error = toError(run.data.resultData.error);
		} catch (thrown) {
			error = toError(thrown);
		}
		return { ...toRunResult(run, error, store), staticData: workflow.staticData };
	};

	/** executeWebhook for one request that reached the webhook's route. */
	const handle = async (request: IncomingRequest, via: WebhookDelivery['via']) => {
		const response = new CapturedResponse();
		const finish = (extra: Partial<WebhookDelivery> = {}): HandledRequest => {
			const delivery: WebhookDelivery = {
				status: response.statusCode,
				body: response.body,
				executed: false,
				via,
				...extra,
			};
			deliveries.push(delivery);
			return { delivery, response };
		};

		let body: unknown;
		try {
			body = parseBody(request);
		} catch (error) {
			// n8n: UnprocessableRequestError('Failed to parse request body', <cause>) → 422.
			respond(response, 422, {
				code: 422,
				message: 'Failed to parse request body',
				hint: (error as Error).message,
			});
			return finish();
		}

		loadStaticData();
		const additionalData = additionalDataFor(nextExecutionId());
		const httpRequest = fakeRequest(request, body);
		// Structural stand-ins: express's types are not installed, nodes only call these members.
		type AdditionalData = IWorkflowExecuteAdditionalData;
		additionalData.httpRequest = httpRequest as unknown as AdditionalData['httpRequest'];
		additionalData.httpResponse = response as unknown as AdditionalData['httpResponse'];
		const webhookData: IWebhookData = {
			httpMethod: httpMethod as IHttpRequestMethods,
			node: trigger.name,
			path,
			webhookDescription: description,
			workflowId: workflow.id,
			workflowExecuteAdditionalData: additionalData,
			webhookId: trigger.webhookId,
		};

		let result: IWebhookResponseData;
		try {
			const context = new WebhookContext(
				workflow,
				trigger,
				additionalData,
				mode,
				webhookData,
				[],
				null,
			);
			result = (await nodeType.webhook!.call(context)) as IWebhookResponseData;
		} catch (error) {
			// n8n hides the cause from the sender (it goes to the execution and the logs).
			if (!response.writableEnded) {
				respond(response, 500, {
					code: 0,
					message: 'Workflow Webhook Error: Workflow could not be started!',
				});
			}
			return finish({ error: toError(error) as Error });
		}
		// LiveWebhooks saves static data changed by webhook() once the response is settled.
		if (workflow.staticData.__dataChanged === true) {
			saveStaticData(workflow.staticData);
			workflow.staticData.__dataChanged = false;
		}

		if (result.workflowData === undefined) {
			if (result.noWebhookResponse !== true && !response.writableEnded) {
				const body = result.webhookResponse ?? { message: 'Webhook call received' };
				respond(response, responseCode, body);
			}
			return finish();
		}

		const execution = await execute(result.workflowData);
		executions.push(execution);
		if (result.noWebhookResponse !== true && !response.writableEnded) {
			// extractWebhookOnReceivedResponse: responseData, else webhookResponse, else the default.
			const responseData = evaluate<string | undefined>(description.responseData);
			if (responseData === 'noData') response.status(responseCode).end();
			else {
				respond(
					response,
					responseCode,
					responseData || (result.webhookResponse ?? { message: 'Workflow was started' }),
				);
			}
		}
		return finish({ executed: true, result: execution });
	};

	// n8n handles requests concurrently; one at a time keeps the static data reads deterministic.
	let queue: Promise<unknown> = Promise.resolve();
	const enqueue = <T>(task: () => Promise<T>): Promise<T> => {
		const next = queue.then(task, task);
		queue = next.catch(() => undefined);
		return next;
	};

	/** One of the trigger's webhookMethods, as WebhookService.runWebhookMethod (hook-methods.ts). */
	const runHookMethod = async (
		method: 'checkExists' | 'create' | 'delete',
		mode: WorkflowExecuteMode,
	) =>
		await runWebhookMethod(method, mode, {
			nodeType,
			description,
			workflow,
			trigger,
			path,
			httpMethod,
			additionalData: additionalDataFor(nextExecutionId()),
		});

	/** A 404 like n8n's for requests that do not match the webhook; not a delivery. */
	const notFound = (method: string, requestPath: string): HandledRequest => {
		const response = new CapturedResponse();
		const message =
			requestPath === path
				? `This webhook is not registered for ${method} requests. ` +
					`Did you mean to make a ${httpMethod} request?`
				: `The requested webhook "${method} ${requestPath}" is not registered.`;
		respond(response, 404, { code: 404, message });
		const delivery: WebhookDelivery = {
			status: 404,
			body: response.body,
			executed: false,
			via: 'deliver',
		};
		return { delivery, response };
	};

	const route = async (request: IncomingRequest, via: WebhookDelivery['via']) => {
		const requestPath = decodeURIComponent(request.url.split('?')[0])
			.replace(/^\/webhook\//, '')
			.replace(/\/+$/, '');
		if (requestPath !== path || request.method !== httpMethod) {
			const handled = notFound(request.method, requestPath);
			handled.delivery.via = via;
			return handled;
		}
		if (via === 'http' && failures.left > 0) {
			failures = { ...failures, left: failures.left - 1 };
			const response = new CapturedResponse();
			respond(response, failures.status, { message: 'Simulated failure (test harness)' });
			const delivery: WebhookDelivery = {
				status: failures.status,
				body: response.body,
				executed: false,
				via,
			};
			deliveries.push(delivery);
			return { delivery, response };
		}
		return await enqueue(async () => await handle(request, via));
	};

	const onHttpRequest = async (req: IncomingMessage, res: ServerResponse) => {
		try {
			const rawBody = await readBody(req);
			const url = req.url ?? '/';
			const search = url.includes('?') ? url.slice(url.indexOf('?') + 1) : '';
			const request: IncomingRequest = {
				method: (req.method ?? 'GET').toUpperCase(),
				url,
				headers: { ...req.headers },
				query: { ...parseQueryString(search) },
				rawBody,
			};
			// Not queued: the trigger's own webhook() calls a waiting execution while it runs.
			const response =
				options.waiting && url.startsWith('/webhook-waiting/')
					? await options.waiting.answer(request)
					: (await route(request, 'http')).response;
			res.writeHead(response.statusCode, response.headers);
			res.end(response.payload);
		} catch (error) {
			res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
			res.end(JSON.stringify({ code: 0, message: (error as Error).message }));
		}
	};

	const server: Server = createServer((req, res) => void onHttpRequest(req, res));
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	webhookBaseUrl = `http://127.0.0.1:${port}/webhook`;

	return {
		url: `${webhookBaseUrl}/${path}`,
		deliveries,
		executions,
		staticData,
		async deliver(request) {
			const headers = lowerCaseKeys(request.headers ?? {});
			let rawBody: Buffer = Buffer.alloc(0);
			if (Buffer.isBuffer(request.body)) rawBody = request.body;
			else if (typeof request.body === 'string') {
				rawBody = Buffer.from(request.body);
				headers['content-type'] ??= 'text/plain;charset=UTF-8';
			} else if (request.body !== undefined) {
				rawBody = Buffer.from(JSON.stringify(request.body));
				headers['content-type'] ??= 'application/json';
			}
			const query = new URLSearchParams(request.query ?? {}).toString();
			const { delivery } = await route(
				{
					method: (request.method ?? httpMethod).toUpperCase(),
					url: `/webhook/${path}${query ? `?${query}` : ''}`,
					headers,
					query: { ...(request.query ?? {}) },
					rawBody,
				},
				'deliver',
			);
			return delivery;
		},
		setResponseFailure(count, status = 500) {
			failures = { left: count, status };
		},
		async publish(publishMode = 'trigger') {
			if (!(await runHookMethod('checkExists', publishMode)))
				await runHookMethod('create', publishMode);
		},
		async unpublish() {
			await runHookMethod('delete', 'internal');
		},
		async stop() {
			server.closeAllConnections();
			await new Promise<void>((resolve) => server.close(() => resolve()));
			await queue;
		},
	};
}
