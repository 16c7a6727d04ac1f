// The trigger's webhook as n8n registers it when the workflow is activated: which node, its
// path, method and response settings.
import { randomUUID } from 'node:crypto';

import type { INode, INodeType, IWebhookDescription, Workflow } from 'n8n-workflow';
import { NodeHelpers, UserError } from 'n8n-workflow';

export interface RegisteredWebhook {
	trigger: INode;
	nodeType: INodeType;
	description: IWebhookDescription;
	/** Below /webhook/, without slashes at either end. */
	path: string;
	/** Upper case. */
	httpMethod: string;
	responseCode: number;
	/** A parameter of the webhook description, evaluated for the trigger as n8n does. */
	evaluate<T>(value: unknown, fallback?: T): T;
}

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

/**
 * The webhook of `triggerNode` (default: the first node with a webhook). Only the response mode
 * `onReceived` is supported by the harness.
 */
export function registeredWebhook(workflow: Workflow, triggerNode?: string): RegisteredWebhook {
	const trigger = findTrigger(workflow, triggerNode);
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
	return { trigger, nodeType, description, path, httpMethod, responseCode, evaluate };
}
