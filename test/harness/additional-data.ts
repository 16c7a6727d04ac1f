import { ExecutionLifecycleHooks, ExternalSecretsProxy } from 'n8n-core';
import type {
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { UserError } from 'n8n-workflow';

import type { HarnessCredentialsHelper } from './credentials-helper';
import { dataTables } from './data-tables';

const BASE_URL = 'http://localhost:5678';

let executionCounter = 0;

export function nextExecutionId(): string {
	executionCounter += 1;
	return `harness-${executionCounter}`;
}

/** Everything WorkflowExecute and the node contexts read from additionalData, no server behind. */
export function buildAdditionalData(options: {
	credentialsHelper: HarnessCredentialsHelper;
	mode: WorkflowExecuteMode;
	executionId: string;
	workflowData: IWorkflowBase;
}): IWorkflowExecuteAdditionalData {
	const { credentialsHelper, mode, executionId, workflowData } = options;
	const unsupported = (what: string) => async () => {
		throw new UserError(`${what} is not supported by the test harness`);
	};
	return {
		credentialsHelper,
		hooks: new ExecutionLifecycleHooks(mode, executionId, workflowData),
		executeWorkflow: unsupported('Executing sub-workflows'),
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		startRunnerTask: unsupported('Running code in a task runner'),
		logAiEvent: () => {},
		externalSecretsProxy: new ExternalSecretsProxy(),
		executionId,
		workflowId: workflowData.id,
		userId: 'harness-user',
		currentNodeExecutionIndex: 0,
		variables: {},
		restApiUrl: `${BASE_URL}/rest`,
		instanceBaseUrl: `${BASE_URL}/`,
		formBaseUrl: `${BASE_URL}/form`,
		formWaitingBaseUrl: `${BASE_URL}/form-waiting`,
		formTestBaseUrl: `${BASE_URL}/form-test`,
		webhookBaseUrl: `${BASE_URL}/webhook`,
		webhookWaitingBaseUrl: `${BASE_URL}/webhook-waiting`,
		webhookTestBaseUrl: `${BASE_URL}/webhook-test`,
		mcpBaseUrl: `${BASE_URL}/mcp`,
		mcpTestBaseUrl: `${BASE_URL}/mcp-test`,
		// n8n's data table module, as n8n-core's data-table-helper-functions read it; absent when off.
		...(dataTables.enabled
			? {
					'data-table': { dataTableProxyProvider: dataTables.store },
					dataTableProjectId: 'harness-project',
				}
			: {}),
	} as IWorkflowExecuteAdditionalData;
}
