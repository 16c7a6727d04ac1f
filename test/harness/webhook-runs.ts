// What n8n does around a production webhook's node: the workflow's static data saved and loaded
// as n8n does it, and the execution a delivery starts (WorkflowRunner's part: from the trigger,
// with the items its webhook() returned, through WorkflowExecute).
import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import type {
	ExecutionBaseError,
	IDataObject,
	INode,
	INodeExecutionData,
	IRun,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { ObservableObject, createRunExecutionData, deepCopy } from 'n8n-workflow';

import { buildAdditionalData, nextExecutionId } from './additional-data';
import { HarnessCredentialsHelper } from './credentials-helper';
import { toError } from './errors';
import type { RunResult } from './index';
import { type PreparedWorkflow, toRunResult } from './workflow';

export interface WebhookRuns {
	/** What n8n would have saved as the workflow's static data. */
	staticData: IDataObject;
	/** n8n builds the Workflow per request from the saved static data; loaded the same way. */
	loadStaticData(): void;
	/** LiveWebhooks saves static data changed by webhook() once the response is settled. */
	saveChangedStaticData(): void;
	/** n8n's additional data for one execution (or one webhook() call). */
	additionalDataFor(executionId: string): IWorkflowExecuteAdditionalData;
	/** The execution started with the trigger's items. */
	execute(items: INodeExecutionData[][]): Promise<RunResult>;
	/** http://127.0.0.1:<port>/webhook, once the harness listens. */
	webhookBaseUrl: string;
}

export function webhookRuns(
	prepared: Pick<PreparedWorkflow, 'store' | 'workflowData' | 'workflow'>,
	trigger: INode,
	mode: WorkflowExecuteMode,
	initialStaticData: IDataObject,
): WebhookRuns {
	const { store, workflowData, workflow } = prepared;
	const credentialsHelper = new HarnessCredentialsHelper(store);
	const staticData: IDataObject = deepCopy(initialStaticData);

	/** Like WorkflowStaticDataService.saveStaticDataById: the data replaces what was saved. */
	const saveStaticData = (data: IDataObject) => {
		const copy = deepCopy(data);
		for (const key of Object.keys(staticData)) delete staticData[key];
		Object.assign(staticData, copy);
	};
	const runs: WebhookRuns = {
		staticData,
		webhookBaseUrl: '',
		loadStaticData() {
			workflow.staticData = ObservableObject.create(deepCopy(staticData), undefined, {
				ignoreEmptyOnFirstChild: true,
			});
		},
		saveChangedStaticData() {
			if (workflow.staticData.__dataChanged !== true) return;
			saveStaticData(workflow.staticData);
			workflow.staticData.__dataChanged = false;
		},
		additionalDataFor(executionId) {
			const additionalData = buildAdditionalData({
				credentialsHelper,
				mode,
				executionId,
				workflowData,
			});
			additionalData.webhookBaseUrl = runs.webhookBaseUrl;
			return additionalData;
		},
		async execute(items) {
			// The runner's fresh Workflow sees what webhook() changed, with the change flag reset.
			runs.loadStaticData();
			const executionId = nextExecutionId();
			const additionalData = runs.additionalDataFor(executionId);
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
		},
	};
	return runs;
}
