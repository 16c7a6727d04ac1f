import { Credentials, getAdditionalKeys } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialsExpressionResolveValues,
	IExecuteData,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeParameters,
	INodeProperties,
	IRequestOptionsSimplified,
	IWorkflowExecuteAdditionalData,
	IWorkflowDataProxyAdditionalKeys,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { ICredentialsHelper, NodeHelpers, UserError, Workflow, deepCopy } from 'n8n-workflow';

import { credentialTypes, nodeTypes } from './registry';

/** Node type of the stand-in node testCredential() runs declarative tests with. */
export const CREDENTIAL_TEST_NODE_TYPE = 'harness.credentialTest';

export interface StoredCredential {
	id: string;
	name: string;
	type: string;
	data: ICredentialDataDecryptedObject;
}

/** In-memory stand-in for n8n's credentials table, keyed by credential id. */
export class CredentialStore {
	private readonly entries = new Map<string, StoredCredential>();

	add(credential: StoredCredential): void {
		if (this.entries.has(credential.id)) {
			throw new UserError(`Two harness credentials share the id "${credential.id}"`);
		}
		this.entries.set(credential.id, { ...credential, data: deepCopy(credential.data) });
	}

	get(id: string): StoredCredential | undefined {
		return this.entries.get(id);
	}

	/** The credential a node reference points at: by id, else by name and type, else by type. */
	find(ref: Partial<INodeCredentialsDetails>, type: string): StoredCredential | undefined {
		if (ref.id) return this.entries.get(ref.id);
		const ofType = [...this.entries.values()].filter((entry) => entry.type === type);
		return ofType.find((entry) => entry.name === ref.name) ?? ofType[0];
	}

	update(id: string, data: ICredentialDataDecryptedObject): void {
		const entry = this.entries.get(id);
		if (!entry) throw new UserError(`Credential with ID "${id}" does not exist`);
		entry.data = deepCopy(data);
	}

	snapshot(): Map<string, ICredentialDataDecryptedObject> {
		return new Map([...this.entries].map(([id, entry]) => [id, deepCopy(entry.data)]));
	}
}

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

/**
 * Follows the behaviour of n8n's cli CredentialsHelper over the in-memory store: defaults of the
 * credential type are applied on read, generic `authenticate` objects are resolved as
 * expressions with `$credentials`, and `preAuthentication` results are written back.
 */
export class HarnessCredentialsHelper extends ICredentialsHelper {
	constructor(readonly store: CredentialStore) {
		super();
	}

	getParentTypes(name: string): string[] {
		return credentialTypes.getParentTypes(name);
	}

	isCredentialUsableByNode(credentialType: string, nodeType: string): boolean {
		if (!credentialTypes.recognizes(credentialType)) return true;
		if (credentialTypes.getByName(credentialType).restrictToSupportedNodes !== true) return true;
		const supported = credentialTypes.getSupportedNodes(credentialType);
		const bare = nodeType.slice(nodeType.lastIndexOf('.') + 1);
		return supported.includes(nodeType) || supported.includes(bare);
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const { authenticate } = credentialTypes.getByName(typeName);
		if (typeof authenticate === 'function') {
			return await authenticate(credentials, requestOptions as IHttpRequestOptions);
		}
		if (authenticate?.type === 'generic') {
			const resolveIn = workflow ?? mockWorkflow();
			const resolveFor = node && workflow ? node : MOCK_NODE;
			const target = requestOptions as unknown as Record<string, Record<string, unknown>>;
			target.headers ??= {};
			for (const [outerKey, outerValue] of Object.entries(authenticate.properties)) {
				for (const [key, value] of Object.entries(outerValue as Record<string, unknown>)) {
					const keys = { $credentials: credentials };
					const resolvedKey = this.resolveValue(key, keys, resolveIn, resolveFor);
					target[outerKey] ??= {};
					target[outerKey][resolvedKey] = this.resolveValue(value, keys, resolveIn, resolveFor);
				}
			}
		}
		return requestOptions as IHttpRequestOptions;
	}

	/** Only '='-prefixed strings are expressions; an empty result becomes '' (as in n8n). */
	private resolveValue(
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

	private expirablePropertyName(typeName: string): string | undefined {
		return credentialTypes
			.getByName(typeName)
			.properties.find(
				(property) => property.type === 'hidden' && property.typeOptions?.expirable === true,
			)?.name;
	}

	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const credentialType = credentialTypes.getByName(typeName);
		const expirable = this.expirablePropertyName(typeName);
		if (expirable === undefined || typeof credentialType.preAuthentication !== 'function') {
			return undefined;
		}
		// A credential test always fetches a fresh token (n8n does the same for its test node).
		const isTestingCredentials = node?.type === CREDENTIAL_TEST_NODE_TYPE;
		const current = credentials[expirable];
		const isEmpty = current === undefined || current === null || current === '';
		if (!isEmpty && !credentialsExpired && !isTestingCredentials) return undefined;

		const output = await credentialType.preAuthentication.call(helpers, credentials);
		// Only an answer that carries the expirable property counts as a refresh.
		if (output?.[expirable] === undefined) return undefined;
		const updated = Object.assign(credentials, output as ICredentialDataDecryptedObject);
		const ref = node?.credentials?.[typeName];
		const stored = ref ? this.store.find(ref, typeName) : undefined;
		if (stored) {
			await this.updateCredentials({ id: stored.id, name: stored.name }, typeName, updated);
		}
		return updated;
	}

	async runPreAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const credentialType = credentialTypes.getByName(typeName);
		const expirable = this.expirablePropertyName(typeName);
		if (expirable === undefined || typeof credentialType.preAuthentication !== 'function') {
			return undefined;
		}
		const output = await credentialType.preAuthentication.call(helpers, credentials);
		if (output?.[expirable] === undefined) return undefined;
		return output as ICredentialDataDecryptedObject;
	}

	async getCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentials> {
		const stored = this.getStoredOrFail(nodeCredentials, type);
		const credentials = new Credentials({ id: stored.id, name: stored.name }, type);
		await credentials.setData(deepCopy(stored.data));
		return credentials;
	}

	async getDecrypted(
		additionalData: IWorkflowExecuteAdditionalData,
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		raw?: boolean,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): Promise<ICredentialDataDecryptedObject> {
		const data = deepCopy(this.getStoredOrFail(nodeCredentials, type).data);
		if (raw) return data;
		return this.applyDefaultsAndResolve(
			additionalData,
			data,
			type,
			mode,
			executeData,
			expressionResolveValues,
		);
	}

	/** Defaults of the type's properties, then expressions inside the data (n8n order). */
	applyDefaultsAndResolve(
		additionalData: IWorkflowExecuteAdditionalData,
		data: ICredentialDataDecryptedObject,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): ICredentialDataDecryptedObject {
		const properties = this.getCredentialsProperties(type);
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

	async updateCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.store.update(this.getStoredOrFail(nodeCredentials, type).id, data);
	}

	async updateCredentialsOauthTokenData(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		const stored = this.getStoredOrFail(nodeCredentials, type);
		this.store.update(stored.id, { ...stored.data, oauthTokenData: data.oauthTokenData });
	}

	/** Own properties merged over those of the `extends` parents (parents' come first). */
	getCredentialsProperties(type: string): INodeProperties[] {
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
			NodeHelpers.mergeNodeProperties(combined, this.getCredentialsProperties(parent));
		}
		NodeHelpers.mergeNodeProperties(combined, credentialType.properties);
		return combined;
	}

	private getStoredOrFail(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): StoredCredential {
		const stored = this.store.find(nodeCredentials, type);
		if (!stored) {
			throw new UserError(
				`Credential with ID "${nodeCredentials.id}" does not exist for type "${type}".`,
			);
		}
		if (stored.type !== type) {
			throw new UserError(
				`Credential with ID "${stored.id}" is of type "${stored.type}", not "${type}".`,
			);
		}
		return stored;
	}
}
