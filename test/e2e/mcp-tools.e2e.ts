// The node as an AI agent's tool: real n8n exposes its tool variant through the MCP Server Trigger
// (examples/payment-tools-mcp.json), and the official MCP client lists and calls the tools, as an
// agent would.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { startSandbox, type Sandbox, type TransactionRecord } from '../sandbox';
import type { CredentialEntry, WorkflowJson } from './n8n';
import { N8n, PACKAGE } from './n8n';

// The example as users import it (examples/payment-tools-mcp.json), with the examples' credentials.
const EXAMPLE = JSON.parse(
	readFileSync(resolve(__dirname, '../../examples/payment-tools-mcp.json'), 'utf8'),
) as WorkflowJson;
const { fillCredentials } = require('../../examples/fill-credentials.js') as {
	fillCredentials: (values: unknown) => CredentialEntry[];
};
const TOOL_NAMES = EXAMPLE.nodes
	.filter((n) => n.type === `${PACKAGE}.paymentGatewayTool`)
	.map((n) => n.name);
const MCP_PATH = 'payments';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let sandbox: Sandbox;
let n8n: N8n;
let client: Client;
const outcomes: Array<{ tool: string; args: string; outcome: string; requests: number }> = [];

beforeAll(async () => {
	sandbox = await startSandbox({ seed: 31, transactionCount: 40 });
	n8n = await N8n.create();
	await n8n.importCredentials(fillCredentials(sandbox));
	await n8n.importWorkflow(EXAMPLE);
	await n8n.publish(EXAMPLE.id);
	await n8n.start();
	const url = new URL(`${n8n.baseUrl}/mcp/${MCP_PATH}`);
	// Readiness comes before the published workflow's endpoint is registered: retry connecting.
	const deadline = Date.now() + 60_000;
	for (;;) {
		client = new Client({ name: 'payment-gateway-e2e', version: '1.0.0' });
		try {
			await client.connect(new StreamableHTTPClientTransport(url));
			break;
		} catch (error) {
			if (Date.now() > deadline)
				throw new Error(`MCP endpoint never answered: ${String(error)}\n${n8n.log().slice(-4000)}`);
			await sleep(500);
		}
	}
}, 900_000);

afterAll(async () => {
	console.log(
		[
			'MCP tool calls:',
			...outcomes.map(
				(o) => `${o.tool}(${o.args}) → ${o.outcome}; sandbox requests: ${o.requests}`,
			),
		].join('\n'),
	);
	await client?.close().catch(() => undefined);
	await n8n?.dispose();
	await sandbox?.stop();
});

interface ToolAnswer {
	isError: boolean;
	text: string;
	requests: number;
}

/** Calls one tool as a model would; what came back, and how many requests reached the sandbox. */
async function call(tool: string, args: Record<string, unknown>): Promise<ToolAnswer> {
	sandbox.clearRequests();
	const result = (await client.callTool({ name: tool, arguments: args })) as {
		isError?: boolean;
		content: Array<{ type: string; text?: string }>;
	};
	const text = result.content.map((c) => c.text ?? '').join('\n');
	const requests = sandbox.requests.length;
	const answer = { isError: result.isError === true, text, requests };
	outcomes.push({
		tool,
		args: JSON.stringify(args),
		outcome: `${answer.isError ? 'tool error' : 'ok'}: ${text.slice(0, 140)}`,
		requests,
	});
	return answer;
}

const noSecrets = (text: string) => {
	for (const secret of [
		sandbox.keys.hosted.merchantSecret,
		sandbox.keys.pos.apiSecret,
		sandbox.keys.invoice.merchantSecret,
	]) {
		expect(text).not.toContain(secret);
	}
};

describe('the node as MCP tools in real n8n', () => {
	it('lists every tool with an input schema a model can fill', async () => {
		const { tools } = await client.listTools();
		console.log(
			[
				'MCP tools:',
				...tools.map(
					(t) => `${t.name}: ${t.description ?? ''}\n  ${JSON.stringify(t.inputSchema)}`,
				),
			].join('\n'),
		);
		expect(TOOL_NAMES).toHaveLength(5);
		expect(tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
		const schema = (name: string) =>
			tools.find((t) => t.name === name)?.inputSchema as {
				properties?: Record<string, { type?: string }>;
			};
		expect(Object.keys(schema('refund_payment').properties ?? {}).sort()).toEqual([
			'amount',
			'currency',
			'transaction_id',
		]);
		expect(schema('list_transactions').properties?.limit?.type).toBe('number');
		const described = (name: string) => tools.find((t) => t.name === name)?.description ?? '';
		expect(described('refund_payment')).toMatch(/MOVES MONEY.*not retried automatically/);
		expect(described('refund_payment')).toContain('transaction_id');
		expect(described('list_transactions')).toMatch(/Read-only/);
	});

	it('answers good arguments with the service answer, without secrets', async () => {
		const list = await call('list_transactions', { limit: 2, currency: 'AED' });
		expect(list.isError).toBe(false);
		expect(list.requests).toBe(1);
		noSecrets(list.text);

		const posOrder = (sandbox.state.transactions as TransactionRecord[])[0];
		const pos = await call('get_pos_order', { order_id: String(posOrder.p_order_id) });
		expect(pos.requests).toBe(1);
		noSecrets(pos.text);

		const items = await call('list_invoice_items', { status: 'active' });
		expect(items.isError).toBe(false);
		noSecrets(items.text);

		const created = await call('create_payment', {
			amount: '25.50',
			currency: 'aed',
			merchant_order_id: `MCP-${randomUUID().slice(0, 8)}`,
		});
		expect(created.isError).toBe(false);
		expect(created.text).toContain('p_order_id');
		noSecrets(created.text);
	});

	it.each<[string, Record<string, unknown>, string]>([
		[
			'create_payment',
			{ amount: 'AED 10', currency: 'AED', merchant_order_id: 'MCP-BAD-1' },
			'Invalid Amount: order_details.amount must be a plain number (no currency symbol, commas or spaces) (received "AED 10")',
		],
		[
			'create_payment',
			{ amount: '10', currency: 'dollars', merchant_order_id: 'MCP-BAD-2' },
			'Invalid Currency: order_details.currency must be one of',
		],
		[
			'refund_payment',
			{ transaction_id: '', amount: '5', currency: 'AED' },
			'Invalid Transaction ID: transaction_id is required (received "")',
		],
		[
			'refund_payment',
			{ transaction_id: '123', amount: '0.5', currency: 'AED' },
			'Invalid Amount: amount.value must be at least 1 (received "0.5")',
		],
		[
			'list_invoice_items',
			{ status: 'archived' },
			'Invalid Filters > Status must be one of Active, Deactivated (received "archived")',
		],
		// n8n checks the arguments against the schema before the node runs.
		[
			'refund_payment',
			{ transaction_id: { id: 7 }, amount: '5', currency: 'AED' },
			'Expected string, received object',
		],
	])(
		'%s refuses %j naming the field, the rule and the value; nothing reaches the service',
		async (tool, args, said) => {
			const answer = await call(tool, args);
			expect(answer.isError).toBe(true);
			expect(answer.text).toContain(said);
			expect(answer.requests).toBe(0);
		},
	);

	it('a refund whose answer is lost is not sent again; the node reads the transaction and never calls it safe to repeat', async () => {
		const captured = (sandbox.state.transactions as TransactionRecord[]).find(
			(r) => r.status === 'CAPTURED',
		)!;
		// The refund reads the transaction list first (its path starts with the manage path).
		sandbox.faults.inject({
			kind: 'status500',
			path: '/orders/v1/transaction',
			count: 1,
			after: 1,
		});
		const answer = await call('refund_payment', {
			transaction_id: captured.transaction_id,
			amount: '1',
			currency: captured.currency,
		});
		sandbox.faults.clear();
		expect(answer.isError).toBe(true);
		// The read before, the refund once, the read after.
		expect(answer.requests).toBe(3);
		expect(sandbox.requests.filter((r) => r.path === '/orders/v1/transaction')).toHaveLength(1);
		expect(captured.status).toBe('CAPTURED');
		// Nothing seen yet is not proof: the service may still apply it, and a second refund stacks.
		expect(answer.text).toContain(
			"The refund's answer was lost and the node cannot tell whether it went through",
		);
		expect(answer.text).toContain('it is not safe to send it again yet');
		expect(answer.text).not.toMatch(/safe to run the refund again/);
	});
});
