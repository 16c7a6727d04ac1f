import { PollContext } from 'n8n-core';
import type {
	IDataObject,
	INode,
	INodeExecutionData,
	WorkflowActivateMode,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { ObservableObject, UserError, deepCopy } from 'n8n-workflow';

import { buildAdditionalData, nextExecutionId } from './additional-data';
import { HarnessCredentialsHelper } from './credentials-helper';
import { ensureEnvironment } from './environment';
import type { HarnessWorkflow, RunOptions } from './index';
import { prepareWorkflow } from './workflow';

/** What one poll did: the executions it started (each its items) and what poll() returned. */
export interface PollRound {
	executions: INodeExecutionData[][];
	returned: INodeExecutionData[][] | null;
}

export interface PollHarness {
	/** Publishing the workflow, or n8n starting with it active: one poll, then static data saved. */
	activate(): Promise<PollRound>;
	/** A scheduled poll of the active workflow. */
	poll(): Promise<PollRound>;
	/** The editor's test run (mode manual): what poll() returns; static data is neither read back nor saved. */
	testRun(): Promise<INodeExecutionData[][] | null>;
	/** n8n stops and starts: the workflow comes back with the static data saved in the database only. */
	restart(): void;
	/** The static data as saved in n8n's database. */
	saved: IDataObject;
	/** Every execution started, in order (each its items). */
	executions: INodeExecutionData[][];
}

/**
 * Runs a polling trigger the way n8n 2.41 runs an active workflow's poller (ActiveWorkflowTriggers
 * and PollTriggerExecutor, durable cursors off): a real PollContext; a poll that returns items, or
 * a node that calls __emit, starts an execution and saves changed static data (fire and forget in
 * n8n, at once here); a poll returning null saves nothing; activation saves after its first poll.
 */
export async function startPollWorkflow(
	definition: HarnessWorkflow,
	options: RunOptions = {},
): Promise<PollHarness> {
	await ensureEnvironment();
	const { store, workflowData, workflow } = prepareWorkflow(definition, options, true);
	const credentialsHelper = new HarnessCredentialsHelper(store);
	const trigger = findPoller(workflow.nodes);
	const nodeType = workflow.nodeTypes.getByNameAndVersion(trigger.type, trigger.typeVersion);
	const saved: IDataObject = deepCopy(definition.staticData ?? {});
	const executions: INodeExecutionData[][] = [];

	/** WorkflowStaticDataService.saveStaticData: only when the change mark is set. */
	const saveStaticData = () => {
		if (workflow.staticData.__dataChanged !== true) return;
		const copy = deepCopy(workflow.staticData) as IDataObject;
		delete copy.__dataChanged;
		for (const key of Object.keys(saved)) delete saved[key];
		Object.assign(saved, copy);
		workflow.staticData.__dataChanged = false;
	};

	const run = async (
		mode: WorkflowExecuteMode,
		activation: WorkflowActivateMode,
		testing: boolean,
	): Promise<PollRound> => {
		const round: PollRound = { executions: [], returned: null };
		const additionalData = buildAdditionalData({
			credentialsHelper,
			mode,
			executionId: nextExecutionId(),
			workflowData,
		});
		const emit = (data: INodeExecutionData[][]) => {
			saveStaticData();
			round.executions.push(data[0] ?? []);
			executions.push(data[0] ?? []);
		};
		const context = new PollContext(
			workflow,
			trigger,
			additionalData,
			mode,
			activation,
			emit,
			(error: Error) => {
				throw error;
			},
		);
		round.returned = (await nodeType.poll!.call(context)) ?? null;
		if (round.returned !== null && !(testing && mode === 'manual')) emit(round.returned);
		return round;
	};

	return {
		saved,
		executions,
		async activate() {
			const round = await run('trigger', 'activate', true);
			saveStaticData();
			return round;
		},
		poll: async () => await run('trigger', 'activate', false),
		testRun: async () => (await run('manual', 'manual', true)).returned,
		restart() {
			workflow.staticData = ObservableObject.create(deepCopy(saved), undefined, {
				ignoreEmptyOnFirstChild: true,
			});
		},
	};
}

function findPoller(nodes: Record<string, INode>): INode {
	for (const node of Object.values(nodes)) {
		if (node.type.endsWith('PollTrigger')) return node;
	}
	throw new UserError('The workflow has no polling trigger');
}
