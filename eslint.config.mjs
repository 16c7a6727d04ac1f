import { n8nCommunityNodesPlugin } from '@n8n/eslint-plugin-community-nodes';
import tseslint from 'typescript-eslint';

// package.json may depend at runtime on exceljs and nothing else: exceljs builds and reads the .xlsx
// files the service's bulk endpoints take, cannot be bundled away, and is loaded lazily.
const onlyExceljsAtRuntime = {
	meta: { type: 'problem', schema: [], messages: { other: 'Runtime dependency "{{name}}" is not allowed; only exceljs is.' } },
	create(context) {
		if (!context.filename.endsWith('package.json')) return {};
		return {
			Property(node) {
				const key = node.key.value ?? node.key.name;
				const parentKey = node.parent?.parent?.key;
				if ((parentKey?.value ?? parentKey?.name) !== 'dependencies') return;
				if (key !== 'exceljs') context.report({ node, messageId: 'other', data: { name: key } });
			},
		};
	},
};

export default [
	{ ignores: ['dist/**', 'node_modules/**', '.tools/**', 'test/**', 'bench/**', 'gulpfile.js', 'jest.config.js'] },
	{
		files: ['**/*.ts'],
		languageOptions: { parser: tseslint.parser },
	},
	{
		files: ['package.json'],
		languageOptions: { parser: tseslint.parser, parserOptions: { extraFileExtensions: ['.json'] } },
	},
	n8nCommunityNodesPlugin.configs.recommended,
	{
		files: ['package.json'],
		plugins: { local: { rules: { 'only-exceljs-at-runtime': onlyExceljsAtRuntime } } },
		rules: {
			// Replaced by local/only-exceljs-at-runtime, which allows exceljs alone (see above).
			'@n8n/community-nodes/no-runtime-dependencies': 'off',
			'local/only-exceljs-at-runtime': 'error',
			// The overrides pin transitive versions (under exceljs and jest) that some registries lack;
			// npm applies overrides only to this repository's own installs, never to users'.
			'@n8n/community-nodes/no-overrides-field': 'off',
		},
	},
];
