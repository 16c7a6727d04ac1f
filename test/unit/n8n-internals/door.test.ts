// One door to n8n's internals: nothing outside nodes/n8n-internals/ imports n8n's own modules or
// reaches into n8n's private fields and engine methods, and the package scanner's declared
// exceptions (scripts/scan-package.mjs) name exactly what the door imports.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import * as ts from 'typescript';

const ROOT = resolve(__dirname, '../../..');
const DOOR = 'nodes/n8n-internals';

/** n8n's own modules: only the door may load them. */
const N8N_MODULE = /^(@n8n\/|n8n-core(\/|$)|n8n(\/|$)|ioredis(\/|$))/;
/** Private fields and methods of n8n's objects. */
const PRIVATE_REACH =
	/\b(additionalData|credentialsHelper|getDecrypted|handleDisabledNode|handleWaitingState|WorkflowExecute|DataDeduplicationService|Container|dataTableProxyProvider|makeAggregateOperations|makeDataTableOperations)\b/;

function sources(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		if (entry.isDirectory()) return sources(path);
		return path.endsWith('.ts') ? [path] : [];
	});
}

/** Every module a source names: import/export from, import(), require(), declare module. */
export function modulesOf(path: string, text: string): string[] {
	const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
	const found: string[] = [];
	const visit = (node: ts.Node) => {
		if (
			(ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
			node.moduleSpecifier &&
			ts.isStringLiteral(node.moduleSpecifier)
		)
			found.push(node.moduleSpecifier.text);
		if (ts.isModuleDeclaration(node) && ts.isStringLiteral(node.name)) found.push(node.name.text);
		if (
			ts.isCallExpression(node) &&
			(node.expression.kind === ts.SyntaxKind.ImportKeyword ||
				(ts.isIdentifier(node.expression) && node.expression.text === 'require')) &&
			node.arguments[0] &&
			ts.isStringLiteralLike(node.arguments[0])
		)
			found.push(node.arguments[0].text);
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

/** n8n's knowledge that only the door holds: its settings, its table layouts, its answer texts. */
const KNOWLEDGE: Array<[RegExp, string]> = [
	[/\benv\s*(?:\.|\[\s*['"`])N8N_[A-Z0-9_]+/, 'reads an n8n setting'],
	[/['"`]n:(?:\$\{|['"`])/, "writes n8n's processed_data layout"],
	[
		// A waiting execution's answers (n8n's WaitingWebhooks): its texts, or words matched in them.
		/running already|has finished|matching path\/method|Invalid token|\/[^/\n]*\b(?:running|finished)\b[^/\n]*\/[a-z]*\s*\.\s*(?:test|exec)\b|\b(?:includes|match|startsWith|endsWith|indexOf)\(\s*['"`][^'"`]*\b(?:running|finished)\b/i,
		"reads n8n's answers of a waiting execution",
	],
];

/** What a product file outside the door must not do, as "file: what". */
export function breaches(path: string, text: string): string[] {
	const file = relative(ROOT, path);
	const imports = modulesOf(path, text)
		.filter((name) => N8N_MODULE.test(name))
		.map((name) => `${file}: imports ${name}`);
	const code = ts
		.createSourceFile(path, text, ts.ScriptTarget.Latest, true)
		.getChildren()
		.map((node) => node.getText())
		.join('\n')
		.replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, '');
	const reach = PRIVATE_REACH.exec(code);
	const knows = KNOWLEDGE.filter(([pattern]) => pattern.test(code)).map(
		([, what]) => `${file}: ${what}`,
	);
	return [...imports, ...(reach ? [`${file}: reaches ${reach[1]}`] : []), ...knows];
}

const product = [...sources(join(ROOT, 'nodes')), ...sources(join(ROOT, 'credentials'))];
const outside = product.filter((path) => !relative(ROOT, path).startsWith(`${DOOR}/`));
const door = product.filter((path) => relative(ROOT, path).startsWith(`${DOOR}/`));

describe('one door to n8n internals', () => {
	test('the check itself finds an import, a dynamic import and a private reach', () => {
		const sample = [
			"import { Container } from '@n8n/di';",
			"const core = await import('n8n-core');",
			"const redis = require('ioredis');",
			'const helper = (ctx as any).additionalData.credentialsHelper;',
			'// additionalData in a comment is not a reach',
			'const on = process.env.N8N_SSRF_PROTECTION_ENABLED;',
			'const context = `n:${nodeId}:delivery:`;',
			"if (response.statusCode === 409 && /running/i.test(message)) return 'running';",
		].join('\n');
		expect(breaches(join(ROOT, 'nodes/x.ts'), sample)).toEqual([
			'nodes/x.ts: imports @n8n/di',
			'nodes/x.ts: imports n8n-core',
			'nodes/x.ts: imports ioredis',
			'nodes/x.ts: reaches Container',
			'nodes/x.ts: reads an n8n setting',
			"nodes/x.ts: writes n8n's processed_data layout",
			"nodes/x.ts: reads n8n's answers of a waiting execution",
		]);
		for (const line of [
			"if (message.includes('finished')) return 'ended';",
			"const ended = text === 'The execution \"41 has finished already.';",
			'if (/Finished/.exec(body.message)) return;',
		])
			expect(breaches(join(ROOT, 'nodes/z.ts'), line)).toEqual([
				"nodes/z.ts: reads n8n's answers of a waiting execution",
			]);
		expect(
			breaches(join(ROOT, 'nodes/y.ts'), "import type { INode } from 'n8n-workflow';"),
		).toEqual([]);
	});

	test("no product file outside nodes/n8n-internals/ imports n8n modules, reaches private fields, reads n8n settings, writes its table layouts or reads its answers' texts", () => {
		expect(outside.length).toBeGreaterThan(50);
		const found = outside.flatMap((path) => breaches(path, readFileSync(path, 'utf8')));
		expect(found).toEqual([]);
	});

	test("the scanner's declared exceptions for n8n modules are exactly the door's imports", () => {
		const script = `import(${JSON.stringify(join(ROOT, 'scripts/scan-package.mjs'))}).then((m) =>
			console.log(JSON.stringify(m.DECLARED_EXCEPTIONS)))`;
		const declared = JSON.parse(
			execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }),
		) as Array<{ file: string; name: string }>;
		const forN8n = declared
			.filter((exception) => N8N_MODULE.test(exception.name))
			.map((exception) => `${exception.file} ${exception.name}`)
			.sort();
		const imported = door
			.filter((path) => !path.endsWith('.d.ts'))
			.flatMap((path) =>
				modulesOf(path, readFileSync(path, 'utf8'))
					.filter((name) => N8N_MODULE.test(name))
					.map((name) => `dist/${relative(ROOT, path).replace(/\.ts$/, '.js')} ${name}`),
			);
		expect(forN8n).toEqual([...new Set(imported)].sort());
		expect(forN8n.length).toBeGreaterThanOrEqual(8);
	});
});
