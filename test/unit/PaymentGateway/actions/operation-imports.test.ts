import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';

/**
 * An operation file is reached only through its resource's map: its own folder's `*.resource.ts`
 * lists it, and nothing else imports it. What two operations (or an operation and the credential
 * test, or the poll trigger) share lives in a module of its own: a list client, a filter table,
 * a path.
 */
const ROOT = resolve(__dirname, '../../../..');
const NODES = join(ROOT, 'nodes');

function sources(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return sources(path);
		return entry.name.endsWith('.ts') ? [path] : [];
	});
}

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)['"]([^'"]+)['"]/g;

/** `file → operation file` for every import or re-export of an `*.operation` module. */
function operationImports(): string[] {
	const found: string[] = [];
	for (const file of sources(NODES)) {
		for (const [, specifier] of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
			if (!/\.operation$/.test(specifier)) continue;
			const target = resolve(dirname(file), `${specifier}.ts`);
			found.push(`${relative(ROOT, file)} → ${relative(ROOT, target)}`);
		}
	}
	return found;
}

const isResourceMapLine = (line: string) => {
	const [file, target] = line.split(' → ');
	return file.endsWith('.resource.ts') && dirname(file) === dirname(target);
};

describe('operation files', () => {
	const imports = operationImports();

	it('are each listed once by their resource', () => {
		const operations = sources(NODES).filter((file) => file.endsWith('.operation.ts'));
		expect(operations.length).toBeGreaterThan(20);
		for (const operation of operations) {
			const listed = imports.filter((line) => line.endsWith(relative(ROOT, operation)));
			expect([basename(operation), listed.filter(isResourceMapLine).length]).toEqual([
				basename(operation),
				1,
			]);
		}
	});

	it('are imported by no other file', () => {
		expect(imports.filter((line) => !isResourceMapLine(line))).toEqual([]);
	});
});
