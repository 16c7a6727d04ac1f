// The door takes n8n's modules from the running n8n's own install, wherever the package sits. A
// real Node.js process (real module resolution, real require cache) runs the compiled door from a
// package folder that has its own copy of a module above it, as a clone's demo folder or another
// project's node_modules (N8N_CUSTOM_EXTENSIONS) has: inside n8n the door must get n8n's copy;
// where no n8n loader is known it must name the other copy instead of using it.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const DIST_DOOR = resolve(__dirname, '../../../dist/nodes/n8n-internals');

let root: string;

function write(path: string, text: string) {
	mkdirSync(dirname(path), { recursive: true });
	writeFileSync(path, text);
}

/** A module `fake-n8n-di` that says whose copy it is. */
const fakeModule = (folder: string, who: string) =>
	write(join(folder, 'node_modules/fake-n8n-di/index.js'), `module.exports = { who: '${who}' };`);

beforeAll(() => {
	root = mkdtempSync(join(tmpdir(), 'door-layout-'));
	// n8n's install: its CLI's loader file and its own copy of the module.
	fakeModule(join(root, 'n8n-install'), 'n8n');
	// A project with its own copy, and the package (the door's compiled files) inside it.
	fakeModule(join(root, 'project'), 'copy');
	const pkg = join(root, 'project/node_modules/pkg');
	cpSync(DIST_DOOR, join(pkg, 'n8n-internals'), { recursive: true });
	// What the package's literal import() resolves: the nearest node_modules, the project's copy.
	write(
		join(pkg, 'use.js'),
		`const { loadModule } = require('./n8n-internals/load');
module.exports = () => loadModule('fake-n8n-di', async () => require('fake-n8n-di'));`,
	);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Runs `main` (a file of n8n's install that loaded n8n's copy first), printing what the door got. */
function run(mainFile: string): string {
	write(
		join(root, mainFile),
		`require('fake-n8n-di');
require(${JSON.stringify(join(root, 'project/node_modules/pkg/use.js'))})().then(
	(m) => console.log(m.who ?? m.default?.who),
	(e) => console.log('error: ' + e.message),
);`,
	);
	return execFileSync(process.execPath, [join(root, mainFile)], { encoding: 'utf8' }).trim();
}

test("inside n8n (its loader file loaded) the door gets n8n's copy, not the one above the package", () => {
	expect(run('n8n-install/node_modules/n8n/dist/load-nodes-and-credentials.js')).toBe('n8n');
});

test("without n8n's loader, another copy than the one loaded is named, never used", () => {
	const said = run('n8n-install/node_modules/other-host/dist/index.js');
	expect(said).toMatch(
		/^error: module fake-n8n-di is not n8n's own: found at .*project.node_modules.fake-n8n-di/,
	);
	expect(said).toContain(`(${join(root, 'n8n-install/node_modules/fake-n8n-di')}`);
});
