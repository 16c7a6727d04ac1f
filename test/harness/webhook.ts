// A workflow's webhook trigger run the way an active workflow's production webhook runs in n8n
// (LiveWebhooks → executeWebhook), in-process or over real HTTP. Which webhook: webhook-trigger.ts;
// static data and executions: webhook-runs.ts; the HTTP server: webhook-server.ts.
import { WebhookContext } from 'n8n-core';
import type {
	IDataObject,
	IHttpRequestMethods,
	IWebhookData,
	IWebhookResponseData,
	IWorkflowExecuteAdditionalData,
	Workflow,
	WorkflowExecuteMode,
} from 'n8n-workflow';

import { nextExecutionId } from './additional-data';
import { ensureEnvironment } from './environment';
import { toError } from './errors';
import { runWebhookMethod } from './hook-methods';
import {
	CapturedResponse,
	fakeRequest,
	parseBody,
	respond,
	type IncomingRequest,
} from './http-fakes';
import type { HarnessWorkflow, RunOptions, RunResult } from './index';
import type { WaitingExecutions } from './waiting';
import { webhookRuns, type WebhookRuns } from './webhook-runs';
import { incomingRequest, startHttpServer, type WebhookRequest } from './webhook-server';
import { registeredWebhook, type RegisteredWebhook } from './webhook-trigger';
import { prepareWorkflow } from './workflow';

export type { WebhookRequest } from './webhook-server';

interface HandledRequest {
	delivery: WebhookDelivery;
	response: CapturedResponse;
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

/** The active workflow's webhook: what handles a request that reached its route. */
interface ActiveWebhook {
	workflow: Workflow;
	webhook: RegisteredWebhook;
	runs: WebhookRuns;
	mode: WorkflowExecuteMode;
}

/**
 * The node's webhook() in a real WebhookContext: what it returned, or the error it threw (the
 * sender answered 500); neither when the body could not be parsed (answered 422, as n8n does).
 */
async function callWebhook(
	active: ActiveWebhook,
	request: IncomingRequest,
	response: CapturedResponse,
): Promise<{ result?: IWebhookResponseData; error?: Error }> {
	const { workflow, webhook, runs, mode } = active;
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
		return {};
	}

	runs.loadStaticData();
	const additionalData = runs.additionalDataFor(nextExecutionId());
	// Structural stand-ins: express's types are not installed, nodes only call these members.
	type AdditionalData = IWorkflowExecuteAdditionalData;
	const httpRequest = fakeRequest(request, body);
	additionalData.httpRequest = httpRequest as unknown as AdditionalData['httpRequest'];
	additionalData.httpResponse = response as unknown as AdditionalData['httpResponse'];
	const webhookData: IWebhookData = {
		httpMethod: webhook.httpMethod as IHttpRequestMethods,
		node: webhook.trigger.name,
		path: webhook.path,
		webhookDescription: webhook.description,
		workflowId: workflow.id,
		workflowExecuteAdditionalData: additionalData,
		webhookId: webhook.trigger.webhookId,
	};
	try {
		const context = new WebhookContext(
			workflow,
			webhook.trigger,
			additionalData,
			mode,
			webhookData,
			[],
			null,
		);
		return { result: (await webhook.nodeType.webhook!.call(context)) as IWebhookResponseData };
	} catch (error) {
		// n8n hides the cause from the sender (it goes to the execution and the logs).
		if (!response.writableEnded) {
			respond(response, 500, {
				code: 0,
				message: 'Workflow Webhook Error: Workflow could not be started!',
			});
		}
		return { error: toError(error) as Error };
	}
}

/** executeWebhook for one request that reached the webhook's route. */
async function handle(
	active: ActiveWebhook,
	request: IncomingRequest,
	via: WebhookDelivery['via'],
): Promise<HandledRequest> {
	const { webhook, runs } = active;
	const response = new CapturedResponse();
	const finish = (extra: Partial<WebhookDelivery> = {}): HandledRequest => ({
		delivery: { status: response.statusCode, body: response.body, executed: false, via, ...extra },
		response,
	});
	const { result, error } = await callWebhook(active, request, response);
	if (!result) return finish(error && { error });
	// LiveWebhooks saves static data changed by webhook() once the response is settled.
	runs.saveChangedStaticData();

	if (result.workflowData === undefined) {
		if (result.noWebhookResponse !== true && !response.writableEnded) {
			const body = result.webhookResponse ?? { message: 'Webhook call received' };
			respond(response, webhook.responseCode, body);
		}
		return finish();
	}

	const execution = await runs.execute(result.workflowData);
	if (result.noWebhookResponse !== true && !response.writableEnded) {
		// extractWebhookOnReceivedResponse: responseData, else webhookResponse, else the default.
		const responseData = webhook.evaluate<string | undefined>(webhook.description.responseData);
		if (responseData === 'noData') response.status(webhook.responseCode).end();
		else {
			respond(
				response,
				webhook.responseCode,
				responseData || (result.webhookResponse ?? { message: 'Workflow was started' }),
			);
		}
	}
	return finish({ executed: true, result: execution });
}

/** A 404 like n8n's for requests that do not match the webhook; not a delivery. */
function notFound(webhook: RegisteredWebhook, method: string, requestPath: string): HandledRequest {
	const response = new CapturedResponse();
	const message =
		requestPath === webhook.path
			? `This webhook is not registered for ${method} requests. ` +
				`Did you mean to make a ${webhook.httpMethod} request?`
			: `The requested webhook "${method} ${requestPath}" is not registered.`;
	respond(response, 404, { code: 404, message });
	const delivery: WebhookDelivery = {
		status: 404,
		body: response.body,
		executed: false,
		via: 'deliver',
	};
	return { delivery, response };
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
	const prepared = prepareWorkflow(definition, options, true);
	const webhook = registeredWebhook(prepared.workflow, options.triggerNode);
	const runs = webhookRuns(prepared, webhook.trigger, mode, definition.staticData ?? {});
	const active: ActiveWebhook = { workflow: prepared.workflow, webhook, runs, mode };
	const deliveries: WebhookDelivery[] = [];
	const executions: RunResult[] = [];
	let failures = { left: 0, status: 500 };

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
		hookMode: WorkflowExecuteMode,
	) =>
		await runWebhookMethod(method, hookMode, {
			nodeType: webhook.nodeType,
			description: webhook.description,
			workflow: prepared.workflow,
			trigger: webhook.trigger,
			path: webhook.path,
			httpMethod: webhook.httpMethod,
			additionalData: runs.additionalDataFor(nextExecutionId()),
		});

	/** A delivery that reached the webhook's route, answered and recorded. */
	const delivered = async (request: IncomingRequest, via: WebhookDelivery['via']) => {
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
		return await enqueue(async () => {
			const handled = await handle(active, request, via);
			if (handled.delivery.result) executions.push(handled.delivery.result);
			deliveries.push(handled.delivery);
			return handled;
		});
	};

	const route = async (request: IncomingRequest, via: WebhookDelivery['via']) => {
		const requestPath = decodeURIComponent(request.url.split('?')[0])
			.replace(/^\/webhook\//, '')
			.replace(/\/+$/, '');
		if (requestPath !== webhook.path || request.method !== webhook.httpMethod) {
			const handled = notFound(webhook, request.method, requestPath);
			handled.delivery.via = via;
			return handled;
		}
		return await delivered(request, via);
	};

	const server = await startHttpServer(async (request) =>
		// Not queued: the trigger's own webhook() calls a waiting execution while it runs.
		options.waiting && request.url.startsWith('/webhook-waiting/')
			? await options.waiting.answer(request)
			: (await route(request, 'http')).response,
	);
	runs.webhookBaseUrl = `http://127.0.0.1:${server.port}/webhook`;

	return {
		url: `${runs.webhookBaseUrl}/${webhook.path}`,
		deliveries,
		executions,
		staticData: runs.staticData,
		async deliver(request) {
			const incoming = incomingRequest(request, webhook.path, webhook.httpMethod);
			return (await route(incoming, 'deliver')).delivery;
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
			await server.stop();
			await queue;
		},
	};
}
