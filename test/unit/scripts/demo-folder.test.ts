// The demo's n8n folder (scripts/demo/folder.js): outside the clone, and `npm start -- --reset`
// empties it also when the clone was made again at the same path (the link is new, the folder
// outside it is the earlier clone's, with its workflows and executions).
import { existsSync, mkdirSync, mkdtempSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let cache: string;
let demo: { DEMO_HOME: string; prepareFolder: (folder: string, o: { reset: boolean }) => void };
let clone: string;

beforeEach(() => {
	cache = mkdtempSync(join(tmpdir(), 'demo-cache-'));
	clone = mkdtempSync(join(tmpdir(), 'demo-clone-'));
	jest.isolateModules(() => {
		process.env.XDG_CACHE_HOME = cache;
		demo = require('../../../scripts/demo/folder');
	});
	delete process.env.XDG_CACHE_HOME;
});

afterEach(() => {
	rmSync(cache, { recursive: true, force: true });
	rmSync(clone, { recursive: true, force: true });
});

/** What an earlier clone at the same path left outside: an n8n database. */
function earlierDemo(): string {
	const database = join(demo.DEMO_HOME, '.n8n', 'database.sqlite');
	mkdirSync(join(demo.DEMO_HOME, '.n8n'), { recursive: true });
	writeFileSync(database, 'earlier executions');
	return database;
}

describe('the demo folder', () => {
	it('--reset in a fresh clone empties the folder an earlier clone at the same path left', () => {
		const database = earlierDemo();
		const folder = join(clone, '.tools', 'demo-n8n');
		demo.prepareFolder(folder, { reset: true });
		expect(readlinkSync(folder)).toBe(demo.DEMO_HOME);
		expect(existsSync(database)).toBe(false);
		expect(existsSync(folder)).toBe(true);
	});

	it('without --reset the earlier folder is kept (workflows and executions stay)', () => {
		const database = earlierDemo();
		demo.prepareFolder(join(clone, '.tools', 'demo-n8n'), { reset: false });
		expect(existsSync(database)).toBe(true);
	});
});
