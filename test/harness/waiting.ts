import { randomBytes } from 'node:crypto';

import { WebhookContext, WorkflowExecute } from 'n8n-core';
import type {
	ExecutionBaseError,
	IHttpRequestMethods,
	IRun,
	IWebhookData,
	IWebhookResponseData,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

import { buildAdditionalData, nextExecutionId } from './additional-data';
import { HarnessCredentialsHelper } from './credentials-helper';
import { toError } from './errors';
import type { HarnessWorkflow, RunOptions, RunResult } from './index';
import type { IncomingRequest } from './http-fakes';
import { CapturedResponse, fakeRequest, parseBody, respond } from './http-fakes';
import { prepareWorkflow, toRunResult } from './workflow';

/** Where a kept execution stands, as n8n's database would say. */
export type WaitingState = 'waiting' | 'running' | 'ended';

export interface WaitingExecution {
	id: string;
	state: WaitingState;
	/** Its resume URL's token (`?signature=`), checked as n8n 2.x checks it. */
	token: string;
	/** Requests that reached its address. */
	requests: number;
	/** The run on from the wait, once a webhook call resumed it (resolves when that run ends). */
	resumed?: Promise<RunResult>;
}

interface Kept extends WaitingExecution {
	definition: HarnessWorkflow;
	options: RunOptions;
	data: IRun['data'];
}

const MODE = 'webhook';

/**
 * Executions waiting in a webhook node (a run of runWorkflow that ended `waiting`), kept as n8n's
 * database keeps them, and their addresses answered as n8n's WaitingWebhooks.executeWebhook answers
 * (n8n 2.41.1: the token first, then 404 / 409 response errors as `{ code, message }`, then the
 * waiting node's webhook; one that returns workflowData runs the execution on, as n8n resumes it).
 */
export class WaitingExecutions {
	private readonly kept = new Map<string, Kept>();

	/** Keeps `waiting` (its workflow `definition`, run with `options`). */
	add(definition: HarnessWorkflow, waiting: RunResult, options: RunOptions = {}): WaitingExecution {
		if (!waiting.run?.waitTill) throw new Error('WaitingExecutions: the run given does not wait');
		const execution: Kept = {
			id: nextExecutionId(),
			state: 'waiting',
			token: randomBytes(16).toString('hex'),
			requests: 0,
			definition,
			options,
			data: JSON.parse(JSON.stringify(waiting.run.data)) as IRun['data'],
		};
		this.kept.set(execution.id, execution);
		return execution;
	}

	/** Its resume URL on the n8n at `origin` (`$execution.resumeUrl`). */
	resumeUrl(execution: WaitingExecution, origin: string): string {
		return `${origin}/webhook-waiting/${execution.id}?signature=${execution.token}`;
	}

	/** n8n's answer to a request at /webhook-waiting/<id>. */
	async answer(request: IncomingRequest): Promise<CapturedResponse> {
		const response = new CapturedResponse();
		const [path, search = ''] = request.url.split('?');
		const id = decodeURIComponent(path.replace(/^\/webhook-waiting\//, '').split('/')[0]);
		const execution = this.kept.get(id);
		if (execution) execution.requests += 1;
		if (execution && new URLSearchParams(search).get('signature') !== execution.token) {
			respond(response, 401, { error: 'Invalid token' });
			return response;
		}
		if (!execution)
			respond(response, 404, responseError(404, `The execution "${id}" does not exist.`));
		else if (execution.state === 'running')
			respond(response, 409, responseError(409, `The execution "${id}" is running already.`));
		else if (execution.state === 'ended')
			// n8n's own text, its missing quote included.
			respond(response, 409, responseError(409, `The execution "${id} has finished already.`));
		else await this.resume(execution, request, response);
		return response;
	}

	/** The waiting node's webhook() in n8n's WebhookContext; workflowData runs the execution on. */
	private async resume(execution: Kept, request: IncomingRequest, response: CapturedResponse) {
		const { store, workflowData, workflow } = prepareWorkflow(
			execution.definition,
			execution.options,
			true,
		);
		const data = JSON.parse(JSON.stringify(execution.data)) as IRun['data'];
		const node = workflow.getNode(String(data.resultData.lastNodeExecuted))!;
		const nodeType = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
		const description = nodeType.description.webhooks?.find((hook) => hook.restartWebhook);
		if (!description || !nodeType.webhook) {
			const message = `The workflow for execution "${execution.id}" does not contain a waiting webhook with a matching path/method.`;
			respond(response, 404, responseError(404, message));
			return;
		}
		const additionalData = buildAdditionalData({
			credentialsHelper: new HarnessCredentialsHelper(store),
			mode: MODE,
			executionId: execution.id,
			workflowData,
		});
		type AdditionalData = IWorkflowExecuteAdditionalData;
		additionalData.httpRequest = fakeRequest(
			request,
			parseBody(request),
		) as unknown as AdditionalData['httpRequest'];
		additionalData.httpResponse = response as unknown as AdditionalData['httpResponse'];
		const webhookData: IWebhookData = {
			httpMethod: request.method as IHttpRequestMethods,
			node: node.name,
			path: '',
			webhookDescription: description,
			workflowId: workflow.id,
			workflowExecuteAdditionalData: additionalData,
		};
		const context = new WebhookContext(workflow, node, additionalData, MODE, webhookData, [], data);
		const result = (await nodeType.webhook.call(context)) as IWebhookResponseData;
		if (result.noWebhookResponse !== true && !response.writableEnded)
			respond(response, 200, result.webhookResponse ?? { message: 'Workflow was started' });
		if (!result.workflowData) return;
		// As n8n's WaitingWebhooks and prepareExecutionData: the node, passed over, hands on its
		// webhook's items on every output.
		execution.state = 'running';
		const [resuming] = data.executionData!.nodeExecutionStack;
		resuming.node.disabled = true;
		resuming.data.main = result.workflowData;
		resuming.metadata = { ...resuming.metadata, forwardAllOutputs: true };
		data.waitTill = undefined;
		execution.resumed = (async () => {
			let run: IRun | undefined;
			let error: ExecutionBaseError | Error | undefined;
			try {
				run = await new WorkflowExecute(additionalData, MODE, data).processRunExecutionData(
					workflow,
				);
				if (run.data.resultData.error) error = toError(run.data.resultData.error);
			} catch (thrown) {
				error = toError(thrown);
			}
			execution.state = run?.waitTill ? 'waiting' : 'ended';
			return { ...toRunResult(run, error, store), staticData: workflow.staticData };
		})();
	}
}

/** n8n's serialised response error (ResponseHelper.sendErrorResponse). */
const responseError = (code: number, message: string) => ({ code, message });
