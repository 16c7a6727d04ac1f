import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

/**
 * `npm test -- --help` (and the real-n8n suites' --help): the project's own test commands, what
 * each runs and how long it takes, at once, without building or starting jest.
 */
const ROOT = resolve(__dirname, '../../..');

describe.each(['scripts/test.sh', 'scripts/test-e2e.sh', 'scripts/test-queue.sh'])(
	'bash %s --help',
	(script) => {
		it('prints the suite commands with what they run and their durations, building nothing', () => {
			const started = Date.now();
			const result = spawnSync('bash', [script, '--help'], { cwd: ROOT, encoding: 'utf8' });
			expect(Date.now() - started).toBeLessThan(3_000);
			expect(result.status).toBe(0);
			const help = result.stdout;
			expect(help).not.toMatch(/Usage: jest|Building the package/);
			for (const command of [
				'npm test',
				'npm run test:e2e',
				'npm run test:queue',
				'npm run test:compat',
				'npm run bench -- --quick',
				'bash .ci/run',
			])
				expect(help).toContain(command);
			// Every command with its time, none left as a placeholder.
			expect(help).not.toMatch(/__[A-Z]+__/);
			expect(help.match(/about \d[\d–.]* (s|min)/g)?.length).toBeGreaterThanOrEqual(8);
		});
	},
);
