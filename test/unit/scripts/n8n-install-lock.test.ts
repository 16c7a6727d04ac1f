import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * `npm start` and the e2e suites install n8n through scripts/n8n.sh, one installer per release at a
 * time (a lock beside the shared cache). A caller that finds the lock taken must say at once that
 * it waits, for whom and since when, instead of a silence of minutes that looks like a hang.
 */

const ROOT = resolve(__dirname, '../../..');
const started: ChildProcess[] = [];
let folder: string;

beforeEach(() => {
	folder = mkdtempSync(join(tmpdir(), 'n8n-lock-'));
});

afterEach(() => {
	for (const child of started.splice(0)) if (child.pid) process.kill(-child.pid, 'SIGKILL');
	rmSync(folder, { recursive: true, force: true });
});

const run = (command: string, args: string[], env: NodeJS.ProcessEnv = {}) => {
	const child = spawn(command, args, {
		cwd: ROOT,
		detached: true,
		env: { ...process.env, ...env },
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	started.push(child);
	return child;
};

/** What the child printed on stderr once `text` appeared, or everything after `ms`. */
const stderrUntil = (child: ChildProcess, text: RegExp, ms: number) =>
	new Promise<string>((done) => {
		let out = '';
		const timer = setTimeout(() => done(out), ms);
		child.stderr?.on('data', (chunk: Buffer) => {
			out += chunk.toString();
			if (text.test(out)) {
				clearTimeout(timer);
				done(out);
			}
		});
	});

describe('n8n.sh install while another install holds the lock', () => {
	it('says within 5 s that it waits, for which process and since when', async () => {
		const cache = join(folder, 'n8n-cache');
		// Another clone's installer: holds the lock from its own folder.
		const holder = run('flock', [`${cache}.lock`, 'sleep', '60']);
		await new Promise((done) => setTimeout(done, 300));
		const since = Date.now();

		const installer = run('bash', ['scripts/n8n.sh', 'install'], { N8N_CACHE_DIR: cache });
		const said = await stderrUntil(installer, /waiting for another install.*\n/, 5_000);

		expect(Date.now() - since).toBeLessThan(5_000);
		expect(said).toMatch(/waiting for another install of it into .*n8n-cache/);
		expect(said).toContain(`pid ${holder.pid}`);
		expect(said).toMatch(/since .*\d\d:\d\d:\d\d.* UTC/);
	}, 20_000);
});
