import { configWithoutCloudSupport } from '@n8n/node-cli/eslint';

// n8n's own rule set, as `n8n-node lint` runs it for packages that are not offered on n8n Cloud.
// This package is self-hosted only: it depends at runtime on exceljs, which builds and reads the
// .xlsx files the service's bulk endpoints take, cannot be bundled away, and is loaded lazily.
// That is the one exception: any other runtime dependency is still refused.
const onlyExceljsAtRuntime = {
	meta: {
		type: 'problem',
		schema: [],
		messages: { other: 'Runtime dependency "{{name}}" is not allowed; only exceljs is.' },
	},
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

export const exceljsException = {
	files: ['package.json'],
	plugins: { local: { rules: { 'only-exceljs-at-runtime': onlyExceljsAtRuntime } } },
	rules: {
		'@n8n/community-nodes/no-runtime-dependencies': 'off',
		'local/only-exceljs-at-runtime': 'error',
	},
};

export default [
	// What the package ships is linted; tests and tooling are checked by tsc and jest.
	{ ignores: ['dist/**', 'node_modules/**', '.tools/**', 'test/**', 'scripts/**', 'examples/**', 'bench/**', 'docs/**', '*.js', '*.mjs'] },
	...configWithoutCloudSupport,
	exceljsException,
	{
		// Field tables (fields/types.ts) are not node parameters: tableProperties() turns them into
		// parameters, defaults included, and test/unit/parameter-contract.test.ts pins the result.
		// These two rules spot parameters by their keys (displayName + name + type, or + group) and
		// misread table entries wherever operations (and the poll trigger's fields.ts) declare them.
		// Nothing is lost: tsc already requires a default on every INodeProperties, and node class
		// descriptions live only in *.node.ts files, which keep the filename rule. Every other rule
		// applies to these files.
		files: [
			'nodes/PaymentGateway/actions/**/*.ts',
			'nodes/PaymentGateway/fields/**/*.ts',
			'nodes/PaymentGatewayTrigger/options.ts',
			'nodes/PaymentGatewayPollTrigger/fields.ts',
		],
		ignores: ['**/*.node.ts'],
		rules: {
			'n8n-nodes-base/node-param-default-missing': 'off',
			'n8n-nodes-base/node-filename-against-convention': 'off',
		},
	},
];
