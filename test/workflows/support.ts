import type { IDataObject, INodeParameters } from 'n8n-workflow';

import type { HarnessBinaryInput, HarnessCredential, RunResult } from '../harness';
import { ensureProcessedData, runWorkflow } from '../harness';
import type { Sandbox } from '../sandbox';
import { startSandbox } from '../sandbox';

export const GATEWAY = 'n8n-nodes-payment-gateway.paymentGateway';

/** Harness credentials of every channel pointing at the sandbox, id = credential type. */
export function sandboxCredentials(sandbox: Sandbox): HarnessCredential[] {
	const merchant = (type: string, pair: { merchantKey: string; merchantSecret: string }) => ({
		id: type,
		name: type,
		type,
		data: { baseUrl: sandbox.baseUrl, ...pair },
	});
	const { keys } = sandbox;
	return [
		merchant('paymentGatewayHostedApi', keys.hosted),
		merchant('paymentGatewayS2sApi', keys.s2s),
		merchant('paymentGatewaySdkApi', keys.sdk),
		merchant('paymentGatewayInvoiceApi', keys.invoice),
		merchant('paymentGatewayPaymentLinkApi', keys.paymentLink),
		merchant('paymentGatewaySubscriptionApi', keys.subscription),
		merchant('paymentGatewayPosApi', {
			merchantKey: keys.pos.apiKey,
			merchantSecret: keys.pos.apiSecret,
		}),
		{
			id: 'paymentGatewayPayoutApi',
			name: 'paymentGatewayPayoutApi',
			type: 'paymentGatewayPayoutApi',
			data: { payoutUrl: sandbox.payoutUrl, obtainBy: 'request', ...keys.payout },
		},
	];
}

export interface GatewayRun {
	parameters: INodeParameters;
	items?: object[];
	credentialType?: string;
	continueOnFail?: boolean;
	credentials?: HarnessCredential[];
	nodeType?: string;
	/** Binary files attached to every input item. */
	binary?: HarnessBinaryInput[];
	/** The node version; the newest when not given. */
	typeVersion?: number;
	/**
	 * The workflow's ID, which keys a node's memory in n8n's processed-data store: the same ID is
	 * the same workflow run again. Each run gets a new one when not given.
	 */
	workflowId?: string;
}

let runs = 0;
/** Each workflow's static data, kept between its runs as n8n keeps it for production runs. */
const staticData = new Map<string, IDataObject>();

/** Runs Start → Payment Gateway (or another node type) and returns the harness result. */
export async function runGateway(sandbox: Sandbox, run: GatewayRun): Promise<RunResult> {
	const credentialType = run.credentialType ?? 'paymentGatewayHostedApi';
	const credentials = run.credentials ?? sandboxCredentials(sandbox);
	const credential = credentials.find((c) => c.type === credentialType)!;
	// Payouts remember their references there; the trigger's tests choose for themselves.
	if (run.parameters.resource === 'payout') await ensureProcessedData();
	const id = run.workflowId ?? `harness-workflow-${++runs}`;
	if (!staticData.has(id)) staticData.set(id, {});
	const result = await runWorkflow(
		{
			id,
			staticData: staticData.get(id),
			nodes: [
				{
					name: 'Start',
					type: 'harness.start',
					parameters: {
						items: (run.items ?? [{}]) as INodeParameters[],
						binary: (run.binary ?? []) as unknown as INodeParameters[],
					},
				},
				{
					name: 'Gateway',
					type: run.nodeType ?? GATEWAY,
					...(run.typeVersion !== undefined ? { typeVersion: run.typeVersion } : {}),
					parameters: run.parameters,
					credentials: {
						[credentialType]: { id: credential.id ?? null, name: credential.name ?? '' },
					},
					...(run.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
				},
			],
			connections: { Start: { main: [[{ node: 'Gateway', type: 'main', index: 0 }]] } },
		},
		{ credentials },
	);
	staticData.set(id, result.staticData);
	return result;
}

export const requestsTo = (sandbox: Sandbox, path: string) =>
	sandbox.requests.filter((r) => r.path === path);

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Letters in either case, without the `(?i:)` group Node.js 20 does not know. */
const anyCase = (text: string) =>
	escapeRegExp(text).replace(/[a-z]/gi, (c) => `[${c.toLowerCase()}${c.toUpperCase()}]`);

/**
 * The message of a refused value: "Invalid <panel name>: <service name> <rule> (received <value>)",
 * the panel name left out where it is the service name.
 */
export function refusal(field: string, rule: string, value: unknown): RegExp {
	const received = JSON.stringify(value) ?? String(value);
	// The panel path alone where it ends with the service name ("Additional Fields > Note").
	const name = `(?:[^:]+: ${escapeRegExp(field)}|${escapeRegExp(field)}|.+ > ${anyCase(field)})`;
	return new RegExp(`^Invalid ${name} ${escapeRegExp(`${rule} (received ${received})`)}$`);
}

/**
 * Starts a sandbox for the test file and clears its faults and requests before each test (then
 * runs `beforeEachTest`); returns the sandbox of the file.
 */
export function useFileSandbox(beforeEachTest?: (sandbox: Sandbox) => void): () => Sandbox {
	let sandbox: Sandbox;
	beforeAll(async () => {
		sandbox = await startSandbox();
	});
	afterAll(async () => await sandbox.stop());
	beforeEach(() => {
		sandbox.faults.clear();
		sandbox.clearRequests();
		beforeEachTest?.(sandbox);
	});
	return () => sandbox;
}
