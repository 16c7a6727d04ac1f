import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

// The release workflow cannot run here; this keeps it valid and keeps the steps n8n's verification
// depends on: a version tag trigger, Node 24, install, tests, the scan, a provenance publish.
const root = path.resolve(__dirname, '../..');
const file = path.join(root, '.github/workflows/publish.yml');

interface Step {
	name?: string;
	uses?: string;
	run?: string;
	with?: Record<string, unknown>;
	env?: Record<string, string>;
}
interface Workflow {
	on: { push: { tags: string[] } };
	jobs: Record<string, { 'runs-on': string; permissions: Record<string, string>; steps: Step[] }>;
}

const workflow = parse(readFileSync(file, 'utf8')) as Workflow;
const [job] = Object.values(workflow.jobs);
const steps = job.steps;
const indexOf = (match: (step: Step) => boolean) => steps.findIndex(match);
const runs = (pattern: RegExp) => (step: Step) => pattern.test(step.run ?? '');

describe('.github/workflows/publish.yml', () => {
	test('runs on version tags only', () => {
		expect(Object.keys(workflow.on)).toEqual(['push']);
		expect(workflow.on.push.tags).toEqual(['*.*.*']);
	});

	test('may mint an OIDC token for provenance and only read the repository', () => {
		expect(job.permissions).toEqual({ 'id-token': 'write', contents: 'read' });
	});

	test('checks out, sets up Node 24 against the npm registry', () => {
		expect(steps[0].uses).toMatch(/^actions\/checkout@v\d+$/);
		const node = steps.find((step) => step.uses?.startsWith('actions/setup-node@'));
		expect(node?.with?.['node-version']).toBe('24');
		expect(node?.with?.['registry-url']).toBe('https://registry.npmjs.org');
	});

	test('installs, tests and scans before it publishes with provenance', () => {
		const install = indexOf(runs(/ensure-deps\.sh|npm ci/));
		const test = indexOf(runs(/^npm test$/));
		const scan = indexOf(runs(/^npm run scan$/));
		const publish = indexOf(runs(/^npm publish --provenance --access public$/));
		expect([install, test, scan, publish].every((i) => i >= 0)).toBe(true);
		expect(install).toBeLessThan(test);
		expect(test).toBeLessThan(scan);
		expect(scan).toBeLessThan(publish);
		expect(publish).toBe(steps.length - 1);
	});

	test('the scan script and the test script it calls exist in package.json', () => {
		const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
			scripts: Record<string, string>;
		};
		expect(pkg.scripts.test).toBeDefined();
		expect(pkg.scripts.scan).toContain('scripts/scan-package.mjs');
	});

	test('refuses a tag that differs from the package version', () => {
		const check = steps.find(runs(/GITHUB_REF_NAME/));
		expect(check?.run).toContain('require("./package.json").version');
		expect(indexOf(runs(/GITHUB_REF_NAME/))).toBeLessThan(indexOf(runs(/^npm publish/)));
	});
});
