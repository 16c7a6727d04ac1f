import { WorkflowExecute } from 'n8n-core';
import type {
	ExecutionBaseError,
	ICredentialDataDecryptedObject,
	IConnections,
	IDataObject,
	INode,
	INodeCredentialTestResult,
	INodeCredentialsDetails,
	INodeExecutionData,
	INodeParameters,
	IRun,
	IRunData,
	IWorkflowSettings,
	WorkflowExecuteMode,
} from 'n8n-workflow';

import { buildAdditionalData, nextExecutionId } from './additional-data';
import { runCredentialTest } from './credential-test';
import { HarnessCredentialsHelper } from './credentials-helper';
import { ensureEnvironment } from './environment';
import { toError } from './errors';
import { findStartNode, prepareWorkflow, toRunResult } from './workflow';

export {
	credentialTypes,
	discoveryReport,
	nodeTypes,
	registerCredentialType,
	registerNodeType,
	PACKAGE_NAME,
} from './registry';
export type { HarnessBinaryInput } from './nodes';
export { startWebhookWorkflow } from './webhook';
export { WaitingExecutions } from './waiting';
export type { WaitingExecution, WaitingState } from './waiting';
export { ensureProcessedData, processedData } from './processed-data';
export { dataTables, MemoryDataTables } from './data-tables';
export { startPollWorkflow } from './poll';
export type { PollHarness, PollRound } from './poll';
export type { WebhookDelivery, WebhookHarness, WebhookOptions, WebhookRequest } from './webhook';

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
	/** Defaults to 'harness-workflow'; what n8n's processed-data store keys a node's memory by. */
	id?: string;
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
	/** The workflow's static data after the run (n8n saves it after production runs only). */
	staticData: IDataObject;
}

/** Runs a workflow through n8n-core's WorkflowExecute with this package's node types. */
export async function runWorkflow(
	workflow: HarnessWorkflow,
	options: RunOptions = {},
): Promise<RunResult> {
	await ensureEnvironment();
	const { store, workflowData, workflow: instance } = prepareWorkflow(workflow, options);
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

	return { ...toRunResult(run, error, store), staticData: instance.staticData };
}

/**
 * Runs a waiting execution on as n8n does when its wait limit passes: n8n's WaitTracker loads it
 * from the database (here: a JSON copy of `waiting.run.data`) and hands it to a new
 * WorkflowExecute's processRunExecutionData, whose handleWaitingState ends the wait.
 */
export async function runAfterWaitLimit(
	workflow: HarnessWorkflow,
	waiting: RunResult,
	options: RunOptions = {},
): Promise<RunResult> {
	await ensureEnvironment();
	if (!waiting.run?.waitTill) throw new Error('runAfterWaitLimit: the run given does not wait');
	const { store, workflowData, workflow: instance } = prepareWorkflow(workflow, options);
	const mode = options.mode ?? 'manual';
	const additionalData = buildAdditionalData({
		credentialsHelper: new HarnessCredentialsHelper(store),
		mode,
		executionId: nextExecutionId(),
		workflowData,
	});
	const stored = JSON.parse(JSON.stringify(waiting.run.data)) as IRun['data'];
	let run: IRun | undefined;
	let error: ExecutionBaseError | Error | undefined;
	try {
		run = await new WorkflowExecute(additionalData, mode, stored).processRunExecutionData(instance);
		if (run.data.resultData.error) error = toError(run.data.resultData.error);
	} catch (thrown) {
		error = toError(thrown);
	}
	return { ...toRunResult(run, error, store), staticData: instance.staticData };
}

/** Tests credential data the way n8n's CredentialsTester does (see credential-test.ts). */
export async function testCredential(
	type: string,
	data: ICredentialDataDecryptedObject,
): Promise<INodeCredentialTestResult> {
	await ensureEnvironment();
	return await runCredentialTest(type, data);
}
