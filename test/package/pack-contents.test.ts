import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

// What `npm publish` would upload, read from npm itself: built nodes, credentials and icons, the
// README and LICENSE, package.json. No sources, tests, scripts, docs, lock file or tool settings.
const root = path.resolve(__dirname, '../..');
const ALLOWED_DIRECTORIES = ['dist/nodes/', 'dist/credentials/', 'dist/icons/'];
const ALLOWED_FILES = ['README.md', 'LICENSE', 'package.json'];

interface PackEntry {
	path: string;
}

let packed: string[];

beforeAll(() => {
	if (!existsSync(path.join(root, 'dist/nodes'))) {
		throw new Error('dist/ is missing: run `npm run build` (npm test builds first)');
	}
	const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
		cwd: root,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'ignore'],
	});
	const [{ files }] = JSON.parse(out) as Array<{ files: PackEntry[] }>;
	packed = files.map((file) => file.path).sort();
}, 120_000);

describe('npm pack contents', () => {
	test('holds only the built package, README, LICENSE and package.json', () => {
		const stray = packed.filter(
			(file) =>
				!ALLOWED_FILES.includes(file) && !ALLOWED_DIRECTORIES.some((dir) => file.startsWith(dir)),
		);
		expect(stray).toEqual([]);
		for (const file of ALLOWED_FILES) expect(packed).toContain(file);
	});

	test('ships no TypeScript sources, source maps of tests or sandbox code', () => {
		expect(packed.filter((file) => /\.ts$/.test(file) && !file.endsWith('.d.ts'))).toEqual([]);
		expect(packed.filter((file) => /(^|\/)(test|sandbox)\//.test(file))).toEqual([]);
	});

	test('holds every node and credential package.json registers, with codex and icons', () => {
		const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
			n8n: { nodes: string[]; credentials: string[] };
		};
		for (const file of [...pkg.n8n.nodes, ...pkg.n8n.credentials]) expect(packed).toContain(file);
		for (const node of pkg.n8n.nodes) expect(packed).toContain(node.replace(/\.js$/, '.json'));
		expect(
			packed.filter((file) => file.startsWith('dist/icons/') && file.endsWith('.svg')).length,
		).toBeGreaterThan(0);
	});
});
