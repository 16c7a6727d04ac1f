import { HookContext } from 'n8n-core';
import type {
	IHttpRequestMethods,
	INode,
	INodeType,
	IWebhookData,
	IWebhookDescription,
	IWorkflowExecuteAdditionalData,
	Workflow,
	WorkflowExecuteMode,
} from 'n8n-workflow';

export interface HookTarget {
	nodeType: INodeType;
	description: IWebhookDescription;
	workflow: Workflow;
	trigger: INode;
	path: string;
	httpMethod: string;
	additionalData: IWorkflowExecuteAdditionalData;
}

/**
 * One of a trigger's webhookMethods (checkExists, create, delete) in a HookContext, as n8n's
 * WebhookService.runWebhookMethod runs it on publishing ('trigger'), for the editor's test
 * webhook ('manual', a test URL) and on unpublishing ('internal'). Without the method: true.
 */
export async function runWebhookMethod(
	method: 'checkExists' | 'create' | 'delete',
	mode: WorkflowExecuteMode,
	target: HookTarget,
): Promise<boolean> {
	const { nodeType, description, workflow, trigger, additionalData } = target;
	const fn = nodeType.webhookMethods?.[description.name]?.[method];
	if (!fn) return true;
	const webhookData: IWebhookData = {
		httpMethod: target.httpMethod as IHttpRequestMethods,
		node: trigger.name,
		path: target.path,
		webhookDescription: description,
		workflowId: workflow.id,
		workflowExecuteAdditionalData: additionalData,
		webhookId: trigger.webhookId,
		isTest: mode === 'manual',
	};
	const activation = mode === 'internal' ? 'update' : 'activate';
	const context = new HookContext(workflow, trigger, additionalData, mode, activation, webhookData);
	return await fn.call(context);
}
