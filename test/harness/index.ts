import { Container } from '@n8n/di';
import { BinaryDataService, WorkflowExecute } from 'n8n-core';
import type {
	ExecutionBaseError,
	ICredentialDataDecryptedObject,
	IConnections,
	IDataObject,
	INode,
	INodeCredentialTestResult,
	INodeCredentials,
	INodeCredentialsDetails,
	INodeExecutionData,
	INodeParameters,
	IRun,
	IRunData,
	IWorkflowBase,
	IWorkflowSettings,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { UserError, Workflow, deepCopy } from 'n8n-workflow';

import { buildAdditionalData, nextExecutionId } from './additional-data';
import { runCredentialTest } from './credential-test';
import { CredentialStore, HarnessCredentialsHelper } from './credentials-helper';
import { ensureEnvironment } from './environment';
import { toError } from './errors';
import { latestVersion, nodeTypes } from './registry';

export {
	credentialTypes,
	discoveryReport,
	nodeTypes,
	registerCredentialType,
	registerNodeType,
	PACKAGE_NAME,
} from './registry';
export type { HarnessBinaryInput } from './nodes';

export interface HarnessCredential {
	id?: string;
	name?: string;
	type: string;
	data: ICredentialDataDecryptedObject;
}

/** A workflow node as written in tests; everything but name/type/parameters gets a default. */
export type HarnessNode = Omit<Partial<INode>, 'credentials'> & {
	name: string;
	type: string;
	parameters: INodeParameters;
	/** `{ <credentialType>: { id?, name? } }`; without an id the harness credential of that type. */
	credentials?: Record<string, Partial<INodeCredentialsDetails>>;
};

export interface HarnessWorkflow {
	nodes: HarnessNode[];
	connections: IConnections;
	staticData?: IDataObject;
	/** Defaults to `{ executionOrder: 'v1', timezone: 'UTC' }` (v1 is what the editor saves). */
	settings?: IWorkflowSettings;
}

export interface RunOptions {
	credentials?: HarnessCredential[];
	/** Workflow timezone (`$now`, `getTimezone()`); defaults to settings.timezone, else 'UTC'. */
	timezone?: string;
	/** Node to start from; defaults to the one without incoming connections. */
	startNode?: string;
	/** Defaults to 'manual' (an editor test run). */
	mode?: WorkflowExecuteMode;
}

export interface RunResult {
	/** Per node name: the items of run 0, main output 0. */
	outputs: Record<string, INodeExecutionData[]>;
	/** Per node name: every main output of run 0. */
	allOutputs: Record<string, INodeExecutionData[][]>;
	runData: IRunData;
	/** The execution error if the workflow failed (never thrown). */
	error?: ExecutionBaseError | Error;
	/** Current credential data by id, after updates (e.g. a token cached by preAuthentication). */
	credentials: Map<string, ICredentialDataDecryptedObject>;
	/** Reads a binary property (default 'data') of an output item of run 0, output 0. */
	binary(nodeName: string, itemIndex: number, property?: string): Promise<Buffer>;
	/** The full IRun WorkflowExecute resolved with (undefined if it refused to start). */
	run?: IRun;
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

/** The start node: the one without incoming main connections (preferring input-less types). */
function findStartNode(workflow: Workflow, requested?: string): INode {
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
		const { inputs } = workflow.nodeTypes.getByNameAndVersion(node.type, node.typeVersion)
			.description;
		return Array.isArray(inputs) && inputs.length === 0;
	});
	const start = withoutInputs[0] ?? roots[0];
	if (!start) throw new UserError('The workflow has no node without incoming connections');
	return start;
}

function collectOutputs(runData: IRunData) {
	const outputs: Record<string, INodeExecutionData[]> = {};
	const allOutputs: Record<string, INodeExecutionData[][]> = {};
	for (const [nodeName, tasks] of Object.entries(runData)) {
		const main = tasks[0]?.data?.main ?? [];
		allOutputs[nodeName] = main.map((items) => items ?? []);
		outputs[nodeName] = allOutputs[nodeName][0] ?? [];
	}
	return { outputs, allOutputs };
}

/** Runs a workflow through n8n-core's WorkflowExecute with this package's node types. */
export async function runWorkflow(
	workflow: HarnessWorkflow,
	options: RunOptions = {},
): Promise<RunResult> {
	await ensureEnvironment();
	const store = credentialStore(options.credentials ?? []);
	const nodes = workflow.nodes.map((node, index) => normaliseNode(node, index, store));
	// UTC unless asked otherwise: n8n's own default (America/New_York) would make dates surprising.
	const settings: IWorkflowSettings = {
		executionOrder: 'v1',
		timezone: 'UTC',
		...workflow.settings,
	};
	if (options.timezone) settings.timezone = options.timezone;
	const workflowData: IWorkflowBase = {
		id: 'harness-workflow',
		name: 'Harness workflow',
		active: false,
		isArchived: false,
		activeVersionId: null,
		createdAt: new Date(),
		updatedAt: new Date(),
		nodes,
		connections: workflow.connections,
		settings,
		staticData: workflow.staticData,
	};
	const instance = new Workflow({
		id: workflowData.id,
		name: workflowData.name,
		nodes,
		connections: deepCopy(workflow.connections),
		active: false,
		nodeTypes,
		staticData: deepCopy(workflow.staticData ?? {}),
		settings,
	});
	const startNode = findStartNode(instance, options.startNode);
	const mode = options.mode ?? 'manual';
	const additionalData = buildAdditionalData({
		credentialsHelper: new HarnessCredentialsHelper(store),
		mode,
		executionId: nextExecutionId(),
		workflowData,
	});

	let run: IRun | undefined;
	let error: ExecutionBaseError | Error | undefined;
	try {
		run = await new WorkflowExecute(additionalData, mode).run({ workflow: instance, startNode });
		if (run.data.resultData.error) error = toError(run.data.resultData.error);
	} catch (thrown) {
		// e.g. WorkflowHasIssuesError: n8n refuses to start before any node runs.
		error = toError(thrown);
	}

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

/** Tests credential data the way n8n's CredentialsTester does (see credential-test.ts). */
export async function testCredential(
	type: string,
	data: ICredentialDataDecryptedObject,
): Promise<INodeCredentialTestResult> {
	await ensureEnvironment();
	return await runCredentialTest(type, data);
}
