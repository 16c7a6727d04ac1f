// n8n's credentials helper for the harness, over the in-memory credential store (credential-store.ts)
// with the credential data read as n8n reads it (credential-data.ts).
import { Credentials } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialsExpressionResolveValues,
	IExecuteData,
	IHttpRequestHelper,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeProperties,
	IRequestOptionsSimplified,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
	Workflow,
} from 'n8n-workflow';
import { ICredentialsHelper, UserError, deepCopy } from 'n8n-workflow';

import {
	authenticateGeneric,
	credentialProperties,
	resolveCredentialData,
} from './credential-data';
import type { CredentialStore, StoredCredential } from './credential-store';
import { credentialTypes } from './registry';

export { CredentialStore, type StoredCredential } from './credential-store';

/** Node type of the stand-in node testCredential() runs declarative tests with. */
export const CREDENTIAL_TEST_NODE_TYPE = 'harness.credentialTest';

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
		authenticateGeneric(credentials, typeName, requestOptions, workflow, node);
		return requestOptions as IHttpRequestOptions;
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
		const resolveValues = expressionResolveValues;
		return resolveCredentialData(additionalData, data, type, mode, executeData, resolveValues);
	}

	/** Defaults of the type's properties, then expressions inside the data (n8n order). */
	readonly applyDefaultsAndResolve = resolveCredentialData;

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
		return credentialProperties(type);
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
