// The Payout Results Trigger's workflow-harness set-up, shared by results.test.ts (what a post
// does) and results-address.test.ts (the results address): a sandbox, a results workflow in the
// webhook harness (the harness's in-memory n8n data tables), the account's token.
import type { IDataObject } from 'n8n-workflow';

import { payoutAccount } from '../../../nodes/PaymentGateway/actions/payout/ledger/account';
import type { Sandbox } from '../../sandbox';
import { startSandbox } from '../../sandbox';
import type { HarnessCredential, RunResult, WebhookHarness } from '../../harness';
import { dataTables, startWebhookWorkflow } from '../../harness';
import { runGateway, sandboxCredentials } from '../support';

const TRIGGER = 'n8n-nodes-payment-gateway.paymentGatewayPayoutTrigger';
export const RESULTS_WORKFLOW = 'results-wf';

/** Set in beforeAll by useResultsWorkflow(). */
export const env = {} as {
	sandbox: Sandbox;
	hook: WebhookHarness;
	credentials: HarnessCredential[];
	ledgerName: string;
	resultsName: string;
	token: string;
};
let runs = 0;

/** Registers the file's hooks: the sandbox and the results workflow, its token made. */
export function useResultsWorkflow(): void {
	beforeAll(async () => {
		env.sandbox = await startSandbox();
		env.credentials = [
			...sandboxCredentials(env.sandbox),
			{
				id: 'webhook',
				name: 'webhook',
				type: 'paymentGatewayWebhookApi',
				data: { notificationSecret: env.sandbox.keys.webhook.notificationSecret },
			},
		];
		const account = payoutAccount(
			env.credentials.find((c) => c.type === 'paymentGatewayPayoutApi')!.data,
		);
		env.ledgerName = account.tableName;
		env.resultsName = account.resultsTableName;
		env.hook = await startWebhookWorkflow(
			{
				id: RESULTS_WORKFLOW,
				nodes: [
					{
						name: 'Results',
						type: TRIGGER,
						parameters: { path: 'payout-results' },
						credentials: {
							paymentGatewayPayoutApi: { id: 'paymentGatewayPayoutApi' },
							paymentGatewayWebhookApi: { id: 'webhook' },
						},
					},
					{ name: 'After', type: 'harness.noOp', parameters: {} },
				],
				connections: { Results: { main: [[{ node: 'After', type: 'main', index: 0 }]] } },
			},
			{ credentials: env.credentials, mode: 'webhook' },
		);
		// The editor's test URL: the account's token is made, no address is recorded.
		await env.hook.publish('manual');
		env.token = String(dataTables.store.rowsOf(env.resultsName).find((row) => row.token)?.token);
	});
	afterAll(async () => {
		await env.hook.stop();
		await env.sandbox.stop();
	});
	afterEach(() => {
		env.sandbox.faults.clear();
		dataTables.enabled = true;
	});
}

export const tagOf = () => `R${process.pid % 10000}N${++runs}`;

export function rows(tag: string, count: number): IDataObject[] {
	return Array.from({ length: count }, (_, i) => ({
		'Reference No': `${tag}-${i}`,
		'Payment Mode': 'NEFT',
		Amount: 300 + i,
		Remark: 'Salary',
		'Beneficiary Name': 'Meera Iyer',
		'Beneficiary Account Number': '123456789012',
		'Beneficiary IFSC': 'HDFC0001234',
	}));
}

/** Bulk Create v3 of `count` rows of `tag` (Callback URL empty). */
export const payroll = (count: number, tag = tagOf()) =>
	runGateway(env.sandbox, {
		items: rows(tag, count),
		workflowId: `${tag}-payroll`,
		credentialType: 'paymentGatewayPayoutApi',
		credentials: env.credentials,
		parameters: { resource: 'payout', operation: 'bulkCreate', currency: 'INR' } as never,
	});

/** Bulk Create v3 of `count` rows that must succeed; its batch item. */
export async function pay(
	tag: string,
	count: number,
): Promise<{ result: RunResult; batch: IDataObject }> {
	const result = await payroll(count, tag);
	expect(result.error).toBeUndefined();
	return { result, batch: result.outputs.Gateway[0].json };
}

/** Bulk Create v3 of `count` rows of a new tag that must succeed; the tag, its batch and request_id. */
export async function payNew(count: number) {
	const tag = tagOf();
	const { result, batch } = await pay(tag, count);
	return { tag, result, batch, requestId: String(batch.request_id) };
}

export const ledger = (tag: string) =>
	dataTables.store
		.rowsOf(env.ledgerName)
		.filter((row) => String(row.reference_no).startsWith(`${tag}-`))
		.map((row) => ({ ...row }));

export const states = (tag: string): Record<string, unknown[]> =>
	Object.fromEntries(
		ledger(tag).map((row) => [String(row.reference_no), [row.state, row.utr, row.reason]]),
	);

export const body = (requestId: string, results: IDataObject[]) => ({
	event: 'payout.results',
	request_id: requestId,
	sent_at: new Date().toISOString(),
	results: results.map((r) => ({ amount: '300.00', currency: 'INR', ...r })),
});

/** A JSON post with the account's token (or `t` as given; undefined: none). */
export async function post(
	payload: object,
	extra: { t?: string; headers?: Record<string, string> } = {},
) {
	const t = 't' in extra ? extra.t : env.token;
	return await env.hook.deliver({
		body: payload,
		query: t === undefined ? {} : { t },
		headers: extra.headers,
	});
}

export const itemsOf = (delivery: { result?: RunResult }) =>
	(delivery.result?.outputs.Results ?? []).map((item) => item.json);
