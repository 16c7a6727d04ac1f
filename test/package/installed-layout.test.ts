import { execFileSync } from 'node:child_process';
import {
	existsSync,
	lstatSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	realpathSync,
	rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// The real-n8n suites load the package as n8n's Community Nodes installer lays it out
// (CommunityPackagesService.downloadPackage in n8n 2.41): the packed tarball extracted, dev, peer
// and optional dependencies removed, then `npm install` with n8n's flags. Checked here on what
// `scripts/n8n.sh link` leaves in a user folder.
const root = path.resolve(__dirname, '../..');
const PACKAGE = 'n8n-nodes-payment-gateway';

let user: string;
let installed: string;

beforeAll(() => {
	if (!existsSync(path.join(root, 'dist/nodes')))
		throw new Error('dist/ is missing: run `npm run build` (npm test builds first)');
	user = mkdtempSync(path.join(tmpdir(), 'installed-layout-'));
	execFileSync('bash', [path.join(root, 'scripts/n8n.sh'), 'link', user], {
		cwd: root,
		stdio: ['ignore', 'ignore', 'pipe'],
	});
	installed = path.join(user, '.n8n/nodes/node_modules', PACKAGE);
}, 300_000);
afterAll(() => user && rmSync(user, { recursive: true, force: true }));

describe('the package as n8n installs it', () => {
	test("its package.json without dev, peer or optional dependencies; recorded in n8n's", () => {
		const json = JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8'));
		const ours = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
		expect(json).not.toHaveProperty('devDependencies');
		expect(json).not.toHaveProperty('peerDependencies');
		expect(json).not.toHaveProperty('optionalDependencies');
		expect(json.dependencies).toEqual(ours.dependencies);
		const nodes = JSON.parse(readFileSync(path.join(user, '.n8n/nodes/package.json'), 'utf8'));
		expect(nodes.dependencies).toEqual({ [PACKAGE]: ours.version });
	});

	test('only what npm packs, plus its own node_modules installed shallow', () => {
		expect(readdirSync(installed).sort()).toEqual([
			'LICENSE',
			'README.md',
			'dist',
			'node_modules',
			'package.json',
		]);
		expect(readdirSync(path.join(installed, 'dist')).sort()).toEqual([
			'credentials',
			'icons',
			'nodes',
		]);
		// Shallow: the direct dependency at the top (beside npm's hidden lockfile), its own
		// dependencies beneath it.
		const top = readdirSync(path.join(installed, 'node_modules'));
		expect(top.filter((name) => !name.startsWith('.'))).toEqual(['exceljs']);
		expect(readdirSync(path.join(installed, 'node_modules/exceljs/node_modules'))).toContain(
			'archiver',
		);
	});

	test("runtime dependencies are installed copies, never links into this repository's install", () => {
		const exceljs = path.join(installed, 'node_modules/exceljs');
		expect(lstatSync(exceljs).isSymbolicLink()).toBe(false);
		expect(realpathSync(exceljs).startsWith(path.join(root, 'node_modules'))).toBe(false);
		const loaded = execFileSync(
			process.execPath,
			[
				'-e',
				`process.stdout.write(require.resolve('exceljs', { paths: [${JSON.stringify(installed)}] }))`,
			],
			{ encoding: 'utf8' },
		);
		expect(loaded.startsWith(installed)).toBe(true);
	});
});
