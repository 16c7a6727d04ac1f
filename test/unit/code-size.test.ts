import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import * as ts from 'typescript';

/** The product code stays readable: no file over ~300 lines, no function over ~60. */
const ROOT = resolve(__dirname, '../..');
const MAX_FILE_LINES = 300;
const MAX_FUNCTION_LINES = 60;

function sources(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return sources(path);
		return path.endsWith('.ts') ? [path] : [];
	});
}

const files = [...sources(join(ROOT, 'nodes')), ...sources(join(ROOT, 'credentials'))];

function longFunctions(path: string, text: string): string[] {
	const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
	const found: string[] = [];
	const visit = (node: ts.Node) => {
		if (ts.isFunctionLike(node) && 'body' in node && node.body) {
			const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
			const last = source.getLineAndCharacterOfPosition(node.end).line;
			if (last - first + 1 > MAX_FUNCTION_LINES)
				found.push(`${relative(ROOT, path)}:${first + 1} (${last - first + 1} lines)`);
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

describe('code size', () => {
	it('finds the product sources', () => {
		expect(files.length).toBeGreaterThan(50);
	});

	it(`keeps every product file within ${MAX_FILE_LINES} lines`, () => {
		const long = files
			.map((path) => ({ path, lines: readFileSync(path, 'utf8').split('\n').length }))
			.filter(({ lines }) => lines > MAX_FILE_LINES)
			.map(({ path, lines }) => `${relative(ROOT, path)} (${lines} lines)`);
		expect(long).toEqual([]);
	});

	it(`keeps every function within ${MAX_FUNCTION_LINES} lines`, () => {
		expect(files.flatMap((path) => longFunctions(path, readFileSync(path, 'utf8')))).toEqual([]);
	});
});
