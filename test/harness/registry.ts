import { readdirSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';

import { DirectoryLoader } from 'n8n-core';
// Not re-exported from the package root; n8n-core has no exports map, so deep paths resolve.
import {
	commonCORSParameters,
	commonPollingParameters,
} from 'n8n-core/dist/nodes-loader/constants';
import { validateNodeDescription } from 'n8n-core/dist/nodes-loader/validate-node-description';
import type {
	ICredentialType,
	ICredentialTypes,
	IDataObject,
	INodeType,
	INodeTypes,
	IVersionedNodeType,
} from 'n8n-workflow';
import { NodeHelpers, UserError } from 'n8n-workflow';

import { harnessNodeTypes } from './nodes';

export const ROOT_DIR = resolve(__dirname, '../..');
export const PACKAGE_NAME = (
	JSON.parse(readFileSync(join(ROOT_DIR, 'package.json'), 'utf8')) as { name: string }
).name;

type AnyNodeType = INodeType | IVersionedNodeType;

interface NodeEntry {
	type: AnyNodeType;
	sourcePath: string;
}

interface CredentialEntry {
	type: ICredentialType;
	sourcePath: string;
}

const nodes = new Map<string, NodeEntry>();
const credentials = new Map<string, CredentialEntry>();
/** What discovery found in this package, for reporting. */
const packageTypes = { nodes: [] as string[], credentials: [] as string[], files: 0 };
/** Files that exist but could not be loaded; reported when a type is then missing. */
const loadFailures: string[] = [];
let discovered = false;

function isVersioned(type: AnyNodeType): type is IVersionedNodeType {
	return 'nodeVersions' in type;
}

/** Every concrete INodeType behind a (possibly versioned) node type. */
export function allVersions(type: AnyNodeType): INodeType[] {
	return isVersioned(type) ? Object.values(type.nodeVersions) : [type];
}

/** Highest version a node type offers: what the editor puts on a freshly added node. */
export function latestVersion(type: AnyNodeType): number {
	if (isVersioned(type)) return Math.max(...Object.keys(type.nodeVersions).map(Number));
	const { version } = type.description;
	return Array.isArray(version) ? Math.max(...version) : version;
}

const prepared = new WeakSet<object>();

/** What n8n-core's DirectoryLoader does to a node type after loading it (only once per type). */
function prepareNodeType(type: AnyNodeType): void {
	if (prepared.has(type)) return;
	prepared.add(type);
	for (const version of allVersions(type)) {
		if (isVersioned(type)) version.description.name = type.description.name;
		if (version.methods?.loadOptions) {
			version.description.__loadOptionsMethods = Object.keys(version.methods.loadOptions);
		}
		const { properties, polling, supportsCORS } = version.description;
		if (polling) properties.unshift(...commonPollingParameters);
		if (version.webhook && supportsCORS) {
			const options = properties.find(({ name }) => name === 'options');
			if (options) options.options = [...commonCORSParameters, ...(options.options ?? [])];
			else properties.push(...commonCORSParameters);
		}
		DirectoryLoader.applyDeclarativeNodeOptionParameters(version);
		validateNodeDescription(version.description);
	}
}

/** The exported classes of a module, instantiated; the harness expects one per file. */
function instantiateExports(file: string): unknown[] {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const exported = require(file) as Record<string, unknown>;
	const instances: unknown[] = [];
	let firstError: unknown;
	for (const value of Object.values(exported)) {
		const isClass =
			typeof value === 'function' && /^class[\s{]/.test(Function.prototype.toString.call(value));
		if (!isClass) continue;
		try {
			instances.push(new (value as new () => unknown)());
		} catch (error) {
			// A helper class that needs constructor arguments is not a type; keep looking.
			firstError ??= error;
		}
	}
	if (instances.length === 0 && firstError) throw firstError;
	return instances;
}

function isCredentialType(value: unknown): value is ICredentialType {
	const candidate = value as Partial<ICredentialType> | null;
	return typeof candidate?.name === 'string' && Array.isArray(candidate.properties);
}

function isNodeType(value: unknown): value is AnyNodeType {
	const candidate = value as Partial<INodeType> | null;
	return typeof candidate?.description?.name === 'string';
}

function listFiles(dir: string, suffix: string, depth: 0 | 1): string[] {
	let entries;
	try {
		entries = readdirSync(dir, { withFileTypes: true });
	} catch {
		return [];
	}
	const files: string[] = [];
	for (const entry of entries) {
		const full = join(dir, entry.name);
		if (depth === 0 && entry.isFile() && entry.name.endsWith(suffix)) files.push(full);
		if (depth === 1 && entry.isDirectory()) files.push(...listFiles(full, suffix, 0));
	}
	return files.sort();
}

function loadFile<T>(file: string, accept: (value: unknown) => value is T): T | undefined {
	try {
		const found = instantiateExports(file).filter(accept);
		if (found.length === 0) throw new Error('no exported class of the expected kind');
		return found[0];
	} catch (error) {
		loadFailures.push(`${file}: ${(error as Error).message}`);
		return undefined;
	}
}

/** Loads this package's credentials/*.credentials.ts and nodes/*\/*.node.ts once. */
function discover(): void {
	if (discovered) return;
	discovered = true;
	for (const [name, type] of Object.entries(harnessNodeTypes)) {
		addNodeType(name, type, 'harness');
	}
	for (const file of listFiles(join(ROOT_DIR, 'credentials'), '.credentials.ts', 0)) {
		packageTypes.files += 1;
		const type = loadFile(file, isCredentialType);
		if (!type) continue;
		credentials.set(type.name, { type, sourcePath: file });
		packageTypes.credentials.push(type.name);
	}
	for (const file of listFiles(join(ROOT_DIR, 'nodes'), '.node.ts', 1)) {
		packageTypes.files += 1;
		const type = loadFile(file, isNodeType);
		if (!type) continue;
		try {
			prepareNodeType(type);
		} catch (error) {
			loadFailures.push(`${file}: ${(error as Error).message}`);
			continue;
		}
		const entry = { type, sourcePath: file };
		nodes.set(`${PACKAGE_NAME}.${type.description.name}`, entry);
		packageTypes.nodes.push(`${PACKAGE_NAME}.${type.description.name}`);
		if (!nodes.has(type.description.name)) nodes.set(type.description.name, entry);
	}
}

/** The package's discovered node/credential type names, file count and load failures. */
export function discoveryReport() {
	discover();
	return {
		nodes: [...packageTypes.nodes],
		credentials: [...packageTypes.credentials],
		files: packageTypes.files,
		failures: [...loadFailures],
	};
}

function failureHint(): string {
	return loadFailures.length ? ` (files that failed to load: ${loadFailures.join('; ')})` : '';
}

function addNodeType(name: string, type: AnyNodeType, sourcePath: string): void {
	prepareNodeType(type);
	nodes.set(name, { type, sourcePath });
}

/** Registers an extra node type (e.g. a test-only node) under the given type name. */
export function registerNodeType(name: string, type: AnyNodeType): void {
	// Discover first so a registration may replace a package type instead of being replaced.
	discover();
	addNodeType(name, type, 'registered');
}

/** Registers an extra credential type under `type.name`. */
export function registerCredentialType(type: ICredentialType): void {
	discover();
	credentials.set(type.name, { type, sourcePath: 'registered' });
}

export function getNodeTypeOrFail(name: string): AnyNodeType {
	discover();
	const entry = nodes.get(name);
	if (!entry) throw new UserError(`Unknown node type "${name}"${failureHint()}`);
	return entry.type;
}

export function getCredentialTypeOrFail(name: string): ICredentialType {
	discover();
	const entry = credentials.get(name);
	if (!entry) throw new UserError(`Unknown credential type "${name}"${failureHint()}`);
	return entry.type;
}

/** Node type names that list the credential, the way n8n's `supportedNodes` is inferred. */
export function nodesUsingCredential(credentialType: string): string[] {
	discover();
	const names: string[] = [];
	for (const [name, { type }] of nodes) {
		const uses = allVersions(type).some(({ description }) =>
			(description.credentials ?? []).some((credential) => credential.name === credentialType),
		);
		// The bare alias would list package nodes twice.
		if (uses && !names.some((known) => nodes.get(known)?.type === type)) names.push(name);
	}
	return names;
}

export class HarnessNodeTypes implements INodeTypes {
	getByName(nodeType: string): AnyNodeType {
		return getNodeTypeOrFail(nodeType);
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(getNodeTypeOrFail(nodeType), version);
	}

	getKnownTypes(): IDataObject {
		discover();
		const known: IDataObject = {};
		for (const [name, { type, sourcePath }] of nodes) {
			known[name] = { className: type.constructor.name, sourcePath: basename(sourcePath) };
		}
		return known;
	}
}

export class HarnessCredentialTypes implements ICredentialTypes {
	recognizes(credentialType: string): boolean {
		discover();
		return credentials.has(credentialType);
	}

	getByName(credentialType: string): ICredentialType {
		return getCredentialTypeOrFail(credentialType);
	}

	getSupportedNodes(type: string): string[] {
		const declared = this.recognizes(type) ? (this.getByName(type).supportedNodes ?? []) : [];
		return [...new Set([...declared, ...nodesUsingCredential(type)])];
	}

	/** The `extends` chain, nearest parent first (parents need not be registered). */
	getParentTypes(typeName: string): string[] {
		if (!this.recognizes(typeName)) return [];
		const parents: string[] = [];
		for (const parent of this.getByName(typeName).extends ?? []) {
			parents.push(parent, ...this.getParentTypes(parent));
		}
		return parents;
	}
}

export const nodeTypes = new HarnessNodeTypes();
export const credentialTypes = new HarnessCredentialTypes();
