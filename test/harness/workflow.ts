import { Container } from '@n8n/di';
import { BinaryDataService } from 'n8n-core';
import type {
	ExecutionBaseError,
	INode,
	INodeCredentials,
	IRun,
	IRunData,
	IWorkflowBase,
	IWorkflowSettings,
} from 'n8n-workflow';
import { UserError, Workflow, deepCopy } from 'n8n-workflow';

import { CredentialStore } from './credentials-helper';
import type {
	HarnessCredential,
	HarnessNode,
	HarnessWorkflow,
	RunOptions,
	RunResult,
} from './index';
import { latestVersion, nodeTypes } from './registry';

/** What runWorkflow and startWebhookWorkflow both build from a test's workflow definition. */
export interface PreparedWorkflow {
	store: CredentialStore;
	nodes: INode[];
	settings: IWorkflowSettings;
	workflowData: IWorkflowBase;
	workflow: Workflow;
}

function credentialStore(credentials: HarnessCredential[]): CredentialStore {
	const store = new CredentialStore();
	credentials.forEach((credential, index) => {
		store.add({
			id: credential.id ?? `harness-credential-${index + 1}`,
			name: credential.name ?? credential.type,
			type: credential.type,
			data: credential.data,
		});
	});
	return store;
}

/** Fills in what the editor would have set and points credential references at the store. */
function normaliseNode(node: HarnessNode, index: number, store: CredentialStore): INode {
	const type = nodeTypes.getByName(node.type);
	let credentials: INodeCredentials | undefined;
	for (const [credentialType, ref] of Object.entries(node.credentials ?? {})) {
		const stored = store.find(ref ?? {}, credentialType);
		if (!ref?.id && !stored) {
			throw new UserError(
				`Node "${node.name}" uses credential type "${credentialType}" ` +
					'but no harness credential of that type was given',
			);
		}
		credentials ??= {};
		credentials[credentialType] = {
			id: ref?.id ?? stored!.id,
			name: ref?.name ?? stored?.name ?? credentialType,
		};
	}
	return {
		...deepCopy(node as INode),
		id: node.id ?? `harness-node-${index + 1}`,
		typeVersion: node.typeVersion ?? latestVersion(type),
		position: node.position ?? [index * 220, 0],
		parameters: deepCopy(node.parameters),
		credentials,
	};
}

export function prepareWorkflow(
	definition: HarnessWorkflow,
	options: RunOptions,
	active = false,
): PreparedWorkflow {
	const store = credentialStore(options.credentials ?? []);
	const nodes = definition.nodes.map((node, index) => normaliseNode(node, index, store));
	// UTC unless asked otherwise: n8n's own default (America/New_York) would make dates surprising.
	const settings: IWorkflowSettings = {
		executionOrder: 'v1',
		timezone: 'UTC',
		...definition.settings,
	};
	if (options.timezone) settings.timezone = options.timezone;
	const workflowData: IWorkflowBase = {
		id: definition.id ?? 'harness-workflow',
		name: 'Harness workflow',
		active,
		isArchived: false,
		activeVersionId: active ? 'harness-version' : null,
		createdAt: new Date(),
		updatedAt: new Date(),
		nodes,
		connections: definition.connections,
		settings,
		staticData: definition.staticData,
	};
	const workflow = new Workflow({
		id: workflowData.id,
		name: workflowData.name,
		nodes,
		connections: deepCopy(definition.connections),
		active,
		nodeTypes,
		staticData: deepCopy(definition.staticData ?? {}),
		settings,
	});
	return { store, nodes, settings, workflowData, workflow };
}

/** The start node: the one without incoming main connections (preferring input-less types). */
export function findStartNode(workflow: Workflow, requested?: string): INode {
	if (requested) {
		const node = workflow.getNode(requested);
		if (!node) throw new UserError(`Start node "${requested}" is not in the workflow`);
		return node;
	}
	const roots = Object.values(workflow.nodes).filter(
		(node) =>
			!node.disabled &&
			!(workflow.connectionsByDestinationNode[node.name]?.main ?? []).some(
				(connections) => (connections ?? []).length > 0,
			),
	);
	const withoutInputs = roots.filter((node) => {
		const { inputs } = workflow.nodeTypes.getByNameAndVersion(
			node.type,
			node.typeVersion,
		).description;
		return Array.isArray(inputs) && inputs.length === 0;
	});
	const start = withoutInputs[0] ?? roots[0];
	if (!start) throw new UserError('The workflow has no node without incoming connections');
	return start;
}

function collectOutputs(runData: IRunData) {
	const outputs: RunResult['outputs'] = {};
	const allOutputs: RunResult['allOutputs'] = {};
	for (const [nodeName, tasks] of Object.entries(runData)) {
		const main = tasks[0]?.data?.main ?? [];
		allOutputs[nodeName] = main.map((items) => items ?? []);
		outputs[nodeName] = allOutputs[nodeName][0] ?? [];
	}
	return { outputs, allOutputs };
}

/** The RunResult for what WorkflowExecute resolved with (or the error it refused with). */
export function toRunResult(
	run: IRun | undefined,
	error: ExecutionBaseError | Error | undefined,
	store: CredentialStore,
): Omit<RunResult, 'staticData'> {
	const runData = run?.data.resultData.runData ?? {};
	const { outputs, allOutputs } = collectOutputs(runData);
	return {
		outputs,
		allOutputs,
		runData,
		error,
		credentials: store.snapshot(),
		run,
		async binary(nodeName, itemIndex, property = 'data') {
			const item = outputs[nodeName]?.[itemIndex];
			const binaryData = item?.binary?.[property];
			if (!binaryData) {
				throw new UserError(
					`Node "${nodeName}" item ${itemIndex} has no binary property "${property}"`,
				);
			}
			return await Container.get(BinaryDataService).getAsBuffer(binaryData);
		},
	};
}
