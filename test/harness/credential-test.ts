import { CredentialTestContext, ExecuteContext, RoutingNode } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialTestFunction,
	ICredentialTestRequestData,
	ICredentialsDecrypted,
	IDataObject,
	IExecuteData,
	INode,
	INodeCredentialTestResult,
	INodeExecutionData,
	INodeType,
	INodeTypes,
	ITaskDataConnections,
	IWorkflowBase,
} from 'n8n-workflow';
import { Workflow, createRunExecutionData } from 'n8n-workflow';

import { buildAdditionalData, nextExecutionId } from './additional-data';
import {
	CREDENTIAL_TEST_NODE_TYPE,
	CredentialStore,
	HarnessCredentialsHelper,
} from './credentials-helper';
import { allVersions, credentialTypes, latestVersion, nodeTypes } from './registry';

const CREDENTIAL_ID = 'harness-credential-test';

/** What n8n's CredentialsTester reads from a failed request. */
interface ErrorCause {
	response?: { status: number; statusText?: string };
	code?: string;
}

const oauth2CredentialTest: ICredentialTestFunction = async (credential) =>
	credential.data?.oauthTokenData
		? { status: 'OK', message: 'Connection successful!' }
		: { status: 'Error', message: 'Please reconnect your credential' };

/**
 * Where n8n's CredentialsTester finds a test: the credential type's own declarative `test`, else
 * the first node listing the credential with `testedBy` (a method name or a request).
 */
function findCredentialTest(
	type: string,
): ICredentialTestFunction | ICredentialTestRequestData | undefined {
	const credentialType = credentialTypes.getByName(type);
	if (credentialType.test) return { testRequest: credentialType.test };

	for (const nodeName of credentialTypes.getSupportedNodes(type)) {
		let node;
		try {
			node = nodeTypes.getByName(nodeName);
		} catch {
			continue;
		}
		for (const nodeType of allVersions(node)) {
			for (const { name, testedBy } of nodeType.description.credentials ?? []) {
				if (name === type && credentialTypes.getParentTypes(name).includes('oAuth2Api')) {
					return oauth2CredentialTest;
				}
				if (name !== type || !testedBy) continue;
				if (typeof testedBy === 'string') return nodeType.methods?.credentialTest?.[testedBy];
				return { nodeType, testRequest: testedBy };
			}
		}
	}
	return undefined;
}

function lookup(data: IDataObject, path: string): unknown {
	return path
		.split('.')
		.reduce<unknown>((value, key) => (value as IDataObject | undefined)?.[key], data);
}

/** Runs a declarative test request through RoutingNode on a stand-in node, as n8n does. */
async function runTestRequest(
	test: ICredentialTestRequestData,
	credentials: ICredentialsDecrypted,
	helper: HarnessCredentialsHelper,
	workflowData: IWorkflowBase,
): Promise<INodeCredentialTestResult> {
	const base = test.nodeType ?? nodeTypes.getByNameAndVersion('harness.noOp');
	const testNodeType: INodeType = {
		description: {
			...base.description,
			name: CREDENTIAL_TEST_NODE_TYPE,
			credentials: [{ name: credentials.type, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					routing: { request: test.testRequest.request },
					default: '',
				},
			],
		},
	};
	const testNodeTypes: INodeTypes = {
		getByName: (name) =>
			name === CREDENTIAL_TEST_NODE_TYPE ? testNodeType : nodeTypes.getByName(name),
		getByNameAndVersion: (name, version) =>
			name === CREDENTIAL_TEST_NODE_TYPE
				? testNodeType
				: nodeTypes.getByNameAndVersion(name, version),
		getKnownTypes: () => nodeTypes.getKnownTypes(),
	};
	const node: INode = {
		id: 'temp',
		name: 'Temp-Node',
		type: CREDENTIAL_TEST_NODE_TYPE,
		typeVersion: latestVersion(base),
		position: [0, 0],
		parameters: {},
		credentials: { [credentials.type]: { id: credentials.id, name: credentials.name } },
	};
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: testNodeTypes,
	});
	const additionalData = buildAdditionalData({
		credentialsHelper: helper,
		mode: 'internal',
		executionId: nextExecutionId(),
		workflowData: { ...workflowData, nodes: [node] },
	});
	const inputData: ITaskDataConnections = { main: [[{ json: {} }]] };
	const executeData: IExecuteData = { node, data: {}, source: null };
	const context = new ExecuteContext(
		workflow,
		node,
		additionalData,
		'internal',
		createRunExecutionData(),
		0,
		inputData.main[0]!,
		inputData,
		executeData,
		[],
	);
	const rules = test.testRequest.rules ?? [];

	let response: INodeExecutionData[][] | undefined;
	try {
		response = await new RoutingNode(context, testNodeType, credentials).runNode();
	} catch (error) {
		const { cause } = error as { cause?: ErrorCause };
		if (cause?.response) {
			const { status, statusText } = cause.response;
			for (const rule of rules) {
				if (rule.type === 'responseCode' && rule.properties.value === status) {
					return { status: 'Error', message: rule.properties.message };
				}
			}
			if (status < 199 || status > 299) {
				return { status: 'Error', message: statusText || `Received HTTP status code: ${status}` };
			}
		} else if (cause?.code) {
			return { status: 'Error', message: cause.code };
		}
		return { status: 'Error', message: String((error as Error).message) };
	}

	for (const rule of rules) {
		if (rule.type !== 'responseSuccessBody') continue;
		const body = response?.[0]?.[0]?.json ?? {};
		if (lookup(body, rule.properties.key) === rule.properties.value) {
			return { status: 'Error', message: rule.properties.message };
		}
	}
	return { status: 'OK', message: 'Connection successful!' };
}

export async function runCredentialTest(
	type: string,
	data: ICredentialDataDecryptedObject,
): Promise<INodeCredentialTestResult> {
	const test = findCredentialTest(type);
	if (test === undefined) {
		return { status: 'Error', message: 'No testing function found for this credential.' };
	}

	const store = new CredentialStore();
	store.add({ id: CREDENTIAL_ID, name: type, type, data });
	const helper = new HarnessCredentialsHelper(store);
	const workflowData: IWorkflowBase = {
		id: 'harness-credential-test',
		name: 'Harness credential test',
		active: false,
		isArchived: false,
		activeVersionId: null,
		createdAt: new Date(),
		updatedAt: new Date(),
		nodes: [],
		connections: {},
	};
	const additionalData = buildAdditionalData({
		credentialsHelper: helper,
		mode: 'internal',
		executionId: nextExecutionId(),
		workflowData,
	});
	const credentials: ICredentialsDecrypted = { id: CREDENTIAL_ID, name: type, type, data };
	try {
		credentials.data = helper.applyDefaultsAndResolve(additionalData, data, type, 'internal');
	} catch (error) {
		return { status: 'Error', message: (error as Error).message };
	}

	if (typeof test === 'function') {
		// testedBy: '<method>' — called like n8n does, with a CredentialTestContext as `this`.
		return await test.call(new CredentialTestContext(additionalData), credentials);
	}
	return await runTestRequest(test, credentials, helper, workflowData);
}
