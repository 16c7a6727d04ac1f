// Which n8n release the real-n8n suites run on: test/compat/versions.txt's pin, or N8N_E2E_VERSION
// (npm run test:compat sets it per release). Tests ask here what that release has.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const N8N_SH = resolve(__dirname, '../../scripts/n8n.sh');

function n8nSh(command: string): string {
	const result = spawnSync('bash', [N8N_SH, command], { encoding: 'utf8', env: process.env });
	if (result.status !== 0) throw new Error(`n8n.sh ${command}: ${result.stderr}`);
	return result.stdout.trim();
}

/** The release under test, e.g. "1.123.81". */
export const N8N_VERSION = n8nSh('version');
/** The Node.js major n8n runs on (N8N_E2E_NODE, default 24). */
export const N8N_NODE = process.env.N8N_E2E_NODE || '24';
/** The compatibility run's name for this run: the release, and its Node.js when not 24. */
export const N8N_LABEL = N8N_NODE === '24' ? N8N_VERSION : `${N8N_VERSION}@node${N8N_NODE}`;
/** Its install folder (the cache scripts/n8n.sh fills). */
export const N8N_DIR = n8nSh('dir');

const parts = (version: string) => version.split('.').map(Number);

/** True when the release under test is `version` or newer. */
export function n8nAtLeast(version: string): boolean {
	const [a, b] = [parts(N8N_VERSION), parts(version)];
	for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
	return true;
}

/** True when the installed n8n holds this file (under its node_modules): a feature it ships. */
export function n8nHas(path: string): boolean {
	return existsSync(join(N8N_DIR, 'node_modules', path));
}

/** True when that file of the installed n8n contains `text`: how this release does something. */
export function n8nFileIncludes(path: string, text: string): boolean {
	return n8nHas(path) && readFileSync(join(N8N_DIR, 'node_modules', path), 'utf8').includes(text);
}

/**
 * n8n signs `$execution.resumeUrl` (a `signature` query parameter): later 2.x releases (2.20 here),
 * not 1.x nor 2.0, although both ship signature helpers (for the Wait node's own URLs only).
 */
export const SIGNED_RESUME_URLS = n8nFileIncludes(
	'n8n-core/dist/execution-engine/node-execution-context/utils/get-additional-keys.js',
	'resumeToken',
);

/**
 * n8n passes on every output of a node its webhook resumes (Wait for Payment's Paid and Failed);
 * before that, only the first (n8n 1.x, 2.0, 2.20): the node then refuses to wait and says why.
 */
export const RESUMES_ON_EVERY_OUTPUT = n8nFileIncludes(
	'n8n-core/dist/execution-engine/workflow-execute.js',
	'forwardAllOutputs',
);
