#!/usr/bin/env node
// n8n's community package scanner, run offline on the package as npm would publish it.
//
// `npx @n8n/scan-community-package <name>` downloads a published version, checks its npm
// provenance, fetches the attested source and lints both with one ESLint config. Here nothing is
// published yet, so this script packs the working tree with `npm pack`, unpacks the tarball and
// lints it exactly as the scanner lints a downloaded tarball: the scanner's own exported config
// (buildScanConfig), inline eslint comments ignored, compiled `.js` files and package.json.
// Provenance only exists once the release workflow publishes (.github/workflows/publish.yml).
//
// The package is self-hosted only (docs/compatibility.md). Its exceptions to the Cloud rules are
// declared below, each by file, rule and module or global: exceljs as the only runtime dependency,
// Node.js's http(s) agents for connections kept alive across requests (n8n's helper builds a new
// connection per request), and n8n's own modules behind the one door to n8n's internals
// (nodes/n8n-internals/). Any other finding fails. Usage: node scripts/scan-package.mjs [--keep]
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { ESLint } from 'eslint';
import glob from 'fast-glob';
import { buildScanConfig } from '@n8n/scan-community-package/scanner/scanner.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ALLOWED_RUNTIME_DEPENDENCIES = ['exceljs'];
const POOL_FILES = ['dist/nodes/PaymentGateway/transport/pool.js', 'dist/nodes/PaymentGateway/transport/pooled.js'];
/**
 * The door's files and the n8n modules each loads: n8n's version, queue Redis settings and client,
 * repositories (executions, processed rows), n8n-core's processed-data list and resume engine.
 * (The scanner does not report n8n-core: it is a devDependency of the package.)
 */
export const N8N_DOOR_IMPORTS = [
	['load.js', ['n8n/package.json', 'n8n-core/package.json']],
	['queue-redis.js', ['@n8n/di', '@n8n/config', 'ioredis']],
	['repositories.js', ['@n8n/di', '@n8n/db']],
	['processed-list.js', ['n8n-core']],
	['resume-engine.js', ['n8n-core']],
	['time-out-look.js', ['n8n-core']],
];
/** Node.js built-ins used where n8n's helpers cannot serve; see docs/compatibility.md. */
export const DECLARED_EXCEPTIONS = [
	// Keep-alive agents: the only way to reuse a connection across requests (http: loopback only).
	...POOL_FILES.map((file) => ({ file, rule: 'no-restricted-imports', name: 'node:https' })),
	...POOL_FILES.map((file) => ({ file, rule: 'no-restricted-imports', name: 'node:http' })),
	// The proxy variables (HTTPS_PROXY…: n8n's helper sends then).
	{ file: 'dist/nodes/PaymentGateway/transport/pooled.js', rule: 'no-restricted-globals', name: 'process' },
	// Wait for Results' test setting (PAYMENT_GATEWAY_RESULTS_CHECK_SCALE: shorter checks, floored).
	{ file: 'dist/nodes/PaymentGateway/actions/payout/waitForResults.scale.js', rule: 'no-restricted-globals', name: 'process' },
	// n8n's SSRF switch as n8n's environment gives it, where no n8n parsed it (outside n8n).
	{ file: 'dist/nodes/n8n-internals/ssrf-setting.js', rule: 'no-restricted-globals', name: 'process' },
	// n8n's own modules, loaded from n8n's install, only behind the one door to n8n's internals
	// (nodes/n8n-internals/; test/unit/n8n-internals/door.test.ts checks this list against that folder).
	...N8N_DOOR_IMPORTS.flatMap(([file, names]) =>
		names.map((name) => ({ file: `dist/nodes/n8n-internals/${file}`, rule: 'no-restricted-imports', name })),
	),
];
const TARBALL_PATTERNS = ['**/*.js', 'package.json'];

export function packInto(dir) {
	const out = execFileSync('npm', ['pack', '--json', '--pack-destination', dir], {
		cwd: root,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	const [{ filename }] = JSON.parse(out);
	const unpacked = path.join(dir, 'package');
	mkdirSync(unpacked);
	execFileSync('tar', ['-xzf', path.join(dir, filename), '-C', unpacked, '--strip-components=1']);
	return { tarball: path.join(dir, filename), unpacked };
}

/** Lints the unpacked package the way the scanner's tarball leg does; returns every message. */
export async function scan(packageDir) {
	const eslint = new ESLint({
		cwd: packageDir,
		allowInlineConfig: false,
		overrideConfigFile: true,
		overrideConfig: await buildScanConfig(),
	});
	const files = glob.sync(TARBALL_PATTERNS, {
		cwd: packageDir,
		absolute: true,
		ignore: ['node_modules/**', '**/package-lock.json'],
	});
	const results = await eslint.lintFiles(files);
	const findings = results.flatMap((result) =>
		result.messages.map((m) => ({
			file: path.relative(packageDir, result.filePath),
			line: m.line,
			rule: m.ruleId,
			severity: m.severity === 2 ? 'error' : 'warning',
			message: m.message,
		})),
	);
	return { files: files.length, findings };
}

/**
 * The documented exception: exceljs, and nothing else, at runtime. The scanner reports it twice:
 * the dependency in package.json and the (lazy) require of it in the compiled spreadsheet module.
 */
export function isAllowed(finding, packageJson) {
	if (isDeclaredException(finding)) return true;
	const dependencies = Object.keys(packageJson.dependencies ?? {});
	const onlyAllowed =
		dependencies.length > 0 && dependencies.every((name) => ALLOWED_RUNTIME_DEPENDENCIES.includes(name));
	if (!onlyAllowed) return false;
	if (finding.rule === '@n8n/community-nodes/no-runtime-dependencies') return finding.file === 'package.json';
	if (finding.rule === '@n8n/community-nodes/no-restricted-imports') {
		const module = /'([^']+)'/.exec(finding.message)?.[1];
		return module !== undefined && ALLOWED_RUNTIME_DEPENDENCIES.includes(module);
	}
	return false;
}

/** A finding of one declared exception: its file, its rule and the module or global it names. */
export function isDeclaredException(finding) {
	const name = /'([^']+)'/.exec(finding.message)?.[1];
	return DECLARED_EXCEPTIONS.some(
		(e) => finding.file === e.file && finding.rule === `@n8n/community-nodes/${e.rule}` && name === e.name,
	);
}

async function main() {
	const keep = process.argv.includes('--keep');
	if (!existsSync(path.join(root, 'dist/nodes'))) {
		console.error('dist/ is missing: run `npm run build` first (npm test builds).');
		process.exit(1);
	}
	const work = mkdtempSync(path.join(tmpdir(), 'scan-package-'));
	try {
		const { tarball, unpacked } = packInto(work);
		const packageJson = JSON.parse(readFileSync(path.join(unpacked, 'package.json'), 'utf8'));
		const { files, findings } = await scan(unpacked);
		const unexpected = findings.filter((f) => !isAllowed(f, packageJson));
		for (const f of findings) {
			const tag = unexpected.includes(f) ? f.severity : 'allowed';
			console.log(`${tag.padEnd(7)} ${f.file}:${f.line ?? 0} ${f.rule ?? ''} ${f.message}`);
		}
		console.log(
			`Scanned ${path.basename(tarball)}: ${files} files, ${findings.length} finding(s), ` +
				`${unexpected.length} not allowed${keep ? ` (kept in ${unpacked})` : ''}`,
		);
		process.exitCode = unexpected.length === 0 ? 0 : 1;
	} finally {
		if (!keep) rmSync(work, { recursive: true, force: true });
	}
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	await main();
}
