import { appendFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import * as ts from 'typescript';

/**
 * docs/development.md's recipe "A new operation", followed on a copy of the package: one new
 * `<operation>.operation.ts` file and one line in its resource's `*.resource.ts`, nothing else.
 * The copy type-checks, and its node, router and tool texts offer the operation. The copy lives in
 * a folder of its own under .tools/ (git ignores it; no other test reads it), so jest workers
 * running at the same time never see it; it is removed afterwards.
 */
const ROOT = resolve(__dirname, '../../../..');
const RESOURCE_DIR = 'nodes/PaymentGateway/actions/payment';
const OPERATION_FILE = `${RESOURCE_DIR}/hold.operation.ts`;
const RESOURCE_FILE = `${RESOURCE_DIR}/Payment.resource.ts`;
const ONE_LINE = "export * as hold from './hold.operation';\n";

const OPERATION = `import { tableOperation } from '../operation';

/** A throw-away operation: what the recipe in docs/development.md writes. */
export const { option, table, facts, toolDescription, description, execute } = tableOperation({
	resource: 'payment',
	option: {
		name: 'Hold',
		value: 'hold',
		description: 'Hold a payment for a while',
		action: 'Hold a payment',
	},
	table: [
		{ name: 'holdNote', displayName: 'Hold Note', type: 'text', required: true, description: 'Why' },
	],
	facts: { kind: 'read' },
	tool: 'Holds a payment. Needs a note.',
	run: async (ctx, itemIndex) => [
		{ json: { held: ctx.getNodeParameter('holdNote', itemIndex) }, pairedItem: { item: itemIndex } },
	],
});
`;

function files(dir: string): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		return entry.isDirectory() ? files(path) : [path];
	});
}

/** What the copy changed against the package: files added, and lines added or removed per file. */
function changes(copy: string): { added: string[]; changed: Record<string, string[]> } {
	const added: string[] = [];
	const changed: Record<string, string[]> = {};
	for (const path of files(join(copy, 'nodes'))) {
		const name = relative(copy, path);
		let before: string;
		try {
			before = readFileSync(join(ROOT, name), 'utf8');
		} catch {
			added.push(name);
			continue;
		}
		const after = readFileSync(path, 'utf8');
		if (after === before) continue;
		const old = before.split('\n');
		const now = after.split('\n');
		changed[name] = [
			...now.filter((line) => !old.includes(line)).map((line) => `+${line}`),
			...old.filter((line) => !now.includes(line)).map((line) => `-${line}`),
		];
	}
	return { added, changed };
}

/** tsc over the copied node, with the package's compiler options. */
function typeErrors(copy: string): string[] {
	const config = ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile).config as object;
	const { options } = ts.parseJsonConfigFileContent(config, ts.sys, copy);
	const entry = join(copy, 'nodes/PaymentGateway/PaymentGateway.node.ts');
	// The package's declarations of modules it loads from n8n's install, as tsconfig includes them.
	const declarations = files(join(copy, 'nodes')).filter((path) => path.endsWith('.d.ts'));
	const program = ts.createProgram([entry, ...declarations], {
		...options,
		noEmit: true,
		types: ['node'],
	});
	return ts
		.getPreEmitDiagnostics(program)
		.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

/** Just enough of n8n's execute context for the router to run one item. */
function context(parameters: Record<string, unknown>): IExecuteFunctions {
	const node = { name: 'Payment Gateway', typeVersion: 3, parameters };
	return {
		getNodeParameter: (name: string, _item: number, fallback?: unknown) =>
			parameters[name] ?? fallback,
		getInputData: () => [{ json: {} }],
		getNode: () => node,
		continueOnFail: () => false,
	} as unknown as IExecuteFunctions;
}

describe('a new operation is one file and one line', () => {
	let copy: string;

	beforeAll(() => {
		copy = mkdtempSync(join(ROOT, '.tools', 'new-operation-'));
		cpSync(join(ROOT, 'nodes'), join(copy, 'nodes'), { recursive: true });
		cpSync(join(ROOT, 'credentials'), join(copy, 'credentials'), { recursive: true });
		writeFileSync(join(copy, OPERATION_FILE), OPERATION);
		appendFileSync(join(copy, RESOURCE_FILE), ONE_LINE);
	});

	afterAll(() => rmSync(copy, { recursive: true, force: true }));

	it('touches nothing else', () => {
		expect(changes(copy)).toEqual({
			added: [OPERATION_FILE],
			changed: { [RESOURCE_FILE]: [`+${ONE_LINE.trim()}`] },
		});
	});

	it('type-checks', () => {
		expect(typeErrors(copy)).toEqual([]);
	}, 120_000);

	describe('is offered by the node, the router and the tool texts', () => {
		type NodeModule = typeof import('../../../../nodes/PaymentGateway/PaymentGateway.node');
		type RouterModule = typeof import('../../../../nodes/PaymentGateway/actions/router');
		type ToolModule = typeof import('../../../../nodes/PaymentGateway/actions/tool.descriptions');
		let properties: INodeProperties[];
		let router: RouterModule['router'];
		let tools: ToolModule['TOOL_DESCRIPTIONS'];
		let subtitle: string;

		beforeAll(() => {
			jest.isolateModules(() => {
				const at = (path: string) => join(copy, 'nodes/PaymentGateway', path);
				const node = new (require(at('PaymentGateway.node')) as NodeModule).PaymentGateway();
				properties = node.description.properties;
				subtitle = String(node.description.subtitle);
				router = (require(at('actions/router')) as RouterModule).router;
				tools = (require(at('actions/tool.descriptions')) as ToolModule).TOOL_DESCRIPTIONS;
			});
		});

		const shownFor = (p: INodeProperties) =>
			p.displayOptions?.show?.resource?.[0] === 'payment' &&
			p.displayOptions?.show?.operation?.[0] === 'hold';

		it('in the Operation list, its parameters and the subtitle', () => {
			const selector = properties.find(
				(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes('payment'),
			);
			const options = (selector?.options ?? []) as INodePropertyOptions[];
			expect(options.map((o) => o.value)).toEqual(['capture', 'hold', 'refund', 'void']);
			expect(properties.filter(shownFor).map((p) => p.name)).toEqual([
				'holdNote',
				'toolDescription',
			]);
			expect(subtitle).toContain('"payment.hold":"Hold: Payment"');
		});

		it('in the tool texts, of every node version', () => {
			const text =
				'Holds a payment. Needs a note. Read-only; retried automatically when the service is busy.';
			expect((tools as Record<string, Record<string, string>>).payment.hold).toBe(text);
			const tool = properties.find((p) => p.name === 'toolDescription' && shownFor(p));
			expect(tool?.default).toBe(text);
			expect(tool?.displayOptions?.show?.['@version']).toBeUndefined();
		});

		it('in the router', async () => {
			const ctx = context({ resource: 'payment', operation: 'hold', holdNote: 'a note' });
			const output: INodeExecutionData[][] = await router.call(ctx);
			expect(output).toEqual([[{ json: { held: 'a note' }, pairedItem: { item: 0 } }]]);
		});
	});
});
