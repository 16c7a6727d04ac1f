// A credential's data as n8n's CredentialsHelper reads it: the type's properties (with those of the
// types it extends), their defaults applied, expressions resolved, and generic authentication.
import { getAdditionalKeys } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialsExpressionResolveValues,
	IExecuteData,
	IHttpRequestOptions,
	INode,
	INodeParameters,
	INodeProperties,
	IRequestOptionsSimplified,
	IWorkflowExecuteAdditionalData,
	IWorkflowDataProxyAdditionalKeys,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { NodeHelpers, Workflow, deepCopy } from 'n8n-workflow';

import { credentialTypes, nodeTypes } from './registry';

const MOCK_NODE: INode = {
	id: 'harness-credentials-mock',
	name: 'Harness credentials mock',
	type: 'harness.noOp',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

/** A throwaway workflow to resolve expressions in when the caller has none (as n8n does). */
function mockWorkflow(): Workflow {
	return new Workflow({
		nodes: [deepCopy(MOCK_NODE)],
		connections: {},
		active: false,
		nodeTypes,
	});
}

/** Only '='-prefixed strings are expressions; an empty result becomes '' (as in n8n). */
function resolveValue(
	value: unknown,
	additionalKeys: IWorkflowDataProxyAdditionalKeys,
	workflow: Workflow,
	node: INode,
): string {
	if (typeof value !== 'string' || value.charAt(0) !== '=') return value as string;
	const resolved = workflow.expression.getSimpleParameterValue(
		node,
		value,
		'internal',
		additionalKeys,
		undefined,
		'',
	);
	return resolved ? resolved.toString() : '';
}

/** A generic `authenticate` object of the type, resolved as expressions with `$credentials`. */
export function authenticateGeneric(
	credentials: ICredentialDataDecryptedObject,
	typeName: string,
	requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
	workflow?: Workflow,
	node?: INode,
): void {
	const { authenticate } = credentialTypes.getByName(typeName);
	if (typeof authenticate !== 'function' && authenticate?.type === 'generic') {
		const resolveIn = workflow ?? mockWorkflow();
		const resolveFor = node && workflow ? node : MOCK_NODE;
		const target = requestOptions as unknown as Record<string, Record<string, unknown>>;
		target.headers ??= {};
		for (const [outerKey, outerValue] of Object.entries(authenticate.properties)) {
			for (const [key, value] of Object.entries(outerValue as Record<string, unknown>)) {
				const keys = { $credentials: credentials };
				const resolvedKey = resolveValue(key, keys, resolveIn, resolveFor);
				target[outerKey] ??= {};
				target[outerKey][resolvedKey] = resolveValue(value, keys, resolveIn, resolveFor);
			}
		}
	}
}

/** Own properties merged over those of the `extends` parents (parents' come first). */
export function credentialProperties(type: string): INodeProperties[] {
	const credentialType = credentialTypes.getByName(type);
	if (credentialType.extends === undefined) {
		if (['oAuth1Api', 'oAuth2Api'].includes(type)) {
			return [
				...credentialType.properties,
				{
					displayName: 'oauthTokenData',
					name: 'oauthTokenData',
					type: 'json',
					required: false,
					default: {},
				},
			];
		}
		return credentialType.properties;
	}
	const combined: INodeProperties[] = [];
	for (const parent of credentialType.extends) {
		NodeHelpers.mergeNodeProperties(combined, credentialProperties(parent));
	}
	NodeHelpers.mergeNodeProperties(combined, credentialType.properties);
	return combined;
}

/** Defaults of the type's properties, then expressions inside the data (n8n order). */
export function resolveCredentialData(
	additionalData: IWorkflowExecuteAdditionalData,
	data: ICredentialDataDecryptedObject,
	type: string,
	mode: WorkflowExecuteMode,
	executeData?: IExecuteData,
	expressionResolveValues?: ICredentialsExpressionResolveValues,
): ICredentialDataDecryptedObject {
	const properties = credentialProperties(type);
	let decrypted = NodeHelpers.getNodeParameters(
		properties,
		data as INodeParameters,
		true,
		false,
		null,
		null,
	) as ICredentialDataDecryptedObject;
	// Not a declared property, so getNodeParameters dropped it.
	if (data.oauthTokenData !== undefined) decrypted.oauthTokenData = data.oauthTokenData;

	const additionalKeys = getAdditionalKeys(additionalData, mode, null, { isCredential: true });
	if (expressionResolveValues) {
		const { workflow, runExecutionData, runIndex, itemIndex, node, connectionInputData } =
			expressionResolveValues;
		decrypted = workflow.expression.getParameterValue(
			decrypted as INodeParameters,
			runExecutionData,
			runIndex,
			itemIndex,
			node.name,
			connectionInputData,
			mode,
			additionalKeys,
			executeData,
			false,
			decrypted,
		) as ICredentialDataDecryptedObject;
	} else {
		decrypted = mockWorkflow().expression.getComplexParameterValue(
			MOCK_NODE,
			decrypted as INodeParameters,
			mode,
			additionalKeys,
			undefined,
			undefined,
			decrypted,
		) as ICredentialDataDecryptedObject;
	}
	return decrypted;
}
