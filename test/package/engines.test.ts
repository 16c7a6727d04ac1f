import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

// semver comes with npm's tooling (jest, eslint); only its range check is used.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { satisfies } = require('semver') as { satisfies(version: string, range: string): boolean };

/**
 * Which Node.js: said once, in the README's table (n8n release → Node.js proven with this package),
 * and package.json's `engines` allows exactly the Node.js lines proven there, from the lowest
 * proven release of each, and nothing outside them.
 */
const ROOT = resolve(__dirname, '../..');
const readme = readFileSync(resolve(ROOT, 'README.md'), 'utf8');
const engines: string = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')).engines
	.node;

/** The README table's rows: n8n release → the Node.js versions proven for it. */
function provenTable(): Array<[n8n: string, node: string[]]> {
	const start = readme.indexOf('| n8n | Node.js it runs on, proven with this package |');
	expect(start).toBeGreaterThan(0);
	const rows = readme.slice(start).split('\n').slice(2);
	return rows
		.filter((row) => row.startsWith('| '))
		.map((row) => {
			const [n8n, node] = row.split('|').slice(1, 3);
			return [n8n.trim(), [...node.matchAll(/\b(2\d)\.(\d+)\b/g)].map((m) => `${m[1]}.${m[2]}.0`)];
		})
		.filter(([, node]) => node.length > 0) as Array<[string, string[]]>;
}

describe('Node.js', () => {
	it('the README says which n8n release runs on which Node.js in one table, nowhere else', () => {
		expect(provenTable().map(([n8n]) => n8n)).toEqual(['2.41.1', '2.20.12', '2.0.3', '1.123.81']);
		// No second, looser statement (it once said "Node.js 22 or 24" and "2.41 needs 24" apart).
		expect(readme).not.toMatch(/Node\.js:? \**22 or 24/);
	});

	it('engines.node allows every proven Node.js and nothing older or newer than the proven lines', () => {
		const proven = provenTable().flatMap(([, node]) => node);
		for (const version of proven)
			expect({ version, ok: satisfies(version, engines) }).toEqual({ version, ok: true });
		const majors = new Set(proven.map((v) => v.split('.')[0]));
		const lowest = (major: string) =>
			proven
				.filter((v) => v.startsWith(`${major}.`))
				.sort((a, b) => Number(a.split('.')[1]) - Number(b.split('.')[1]))[0];
		for (const major of majors) {
			const [, minor] = lowest(major).split('.');
			expect(satisfies(`${major}.${Number(minor) - 1}.0`, engines)).toBe(false);
		}
		for (const unproven of ['20.19.0', '21.0.0', '23.0.0', '25.0.0', '26.0.0'])
			expect({ unproven, ok: satisfies(unproven, engines) }).toEqual({ unproven, ok: false });
		expect(readme).toContain(`\`${engines.replace(/\|/g, '|')}\``);
	});

	it('the lockfile records the same engines (npm copies them from package.json only on install)', () => {
		const lock = JSON.parse(readFileSync(resolve(ROOT, 'package-lock.json'), 'utf8'));
		expect(lock.packages[''].engines).toEqual({ node: engines });
	});
});
