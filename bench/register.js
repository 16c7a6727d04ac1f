// Lets the benchmark load the project's TypeScript (sandbox, e2e driver) without a build step:
// each .ts file is transpiled on require, types are not checked here (tsc does that).
const { readFileSync } = require('node:fs');
const ts = require('typescript');

const compilerOptions = {
	module: ts.ModuleKind.CommonJS,
	target: ts.ScriptTarget.ES2023,
	esModuleInterop: true,
	sourceMap: false,
};

require.extensions['.ts'] = (module, filename) => {
	const source = readFileSync(filename, 'utf8');
	const { outputText } = ts.transpileModule(source, { compilerOptions, fileName: filename });
	module._compile(outputText, filename);
};
