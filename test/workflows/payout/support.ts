// What the payout workflow tests share: one sandbox per file, NEFT payout rows with references
// unique to a test, and what the sandbox queued of them.
import type { IDataObject } from 'n8n-workflow';

import type { RunResult } from '../../harness';
import { dataTables } from '../../harness';
import type { Sandbox } from '../../sandbox';
import type { GatewayRun } from '../support';
import { runGateway, useFileSandbox } from '../support';

export const UPLOAD = '/payout/v1/bulk/payouts';

/** The columns of the payout file the service reads, spelt out by the sandbox's payout tests. */
export { HEADERS } from '../../sandbox/areas/payouts/fixtures';

/**
 * Starts a sandbox for the test file, clears its faults and requests before each test and puts
 * the harness's data tables back as n8n starts them after each; returns the sandbox of the file.
 */
export function useSandbox(): () => Sandbox {
	const sandbox = useFileSandbox();
	afterEach(() => {
		dataTables.enabled = true;
		dataTables.store.delayMs = 0;
		dataTables.store.onlyN8nNodes = false;
		dataTables.store.gatherInserts = 0;
	});
	return sandbox;
}

/** References unique to each test of a file: `<prefix><pid>R<n>`. */
export function tagger(prefix: string): () => string {
	let runs = 0;
	return () => `${prefix}${process.pid % 10000}R${++runs}`;
}

/** Valid NEFT rows `<tag>-<from>` … `<tag>-<to - 1>`, as a sheet would give them. */
export function neftRows(
	tag: string,
	count: number,
	{ from = 0, remark }: { from?: number; remark?: string } = {},
): IDataObject[] {
	return Array.from({ length: count }, (_, i) => ({
		'Reference No': `${tag}-${from + i}`,
		'Payment Mode': 'NEFT',
		Amount: 300 + from + i,
		Remark: remark ?? `Salary ${from + i}`,
		'Beneficiary Name': 'Meera Iyer',
		'Beneficiary Account Number': '123456789012',
		'Beneficiary IFSC': 'HDFC0001234',
	}));
}

/** Payout → Bulk Create with these rows and parameters (currency INR), in the newest node version unless `run` says otherwise. */
export const bulkCreate = (
	sandbox: Sandbox,
	items: IDataObject[],
	parameters: IDataObject = {},
	run: Omit<GatewayRun, 'parameters' | 'items'> = {},
) =>
	runGateway(sandbox, {
		items,
		credentialType: 'paymentGatewayPayoutApi',
		...run,
		parameters: {
			resource: 'payout',
			operation: 'bulkCreate',
			currency: 'INR',
			...parameters,
		} as never,
	});

/** How many times each reference of this test was queued, over every batch the sandbox holds. */
export function queuedCounts(sandbox: Sandbox, tag: string): Map<string, number> {
	const counts = new Map<string, number>();
	for (const batch of sandbox.state.payoutBatches.values())
		for (const row of batch.rows) {
			const reference = row['Reference No'];
			if (reference.startsWith(`${tag}-`)) counts.set(reference, (counts.get(reference) ?? 0) + 1);
		}
	return counts;
}

/**
 * What a Bulk Create test file starts with: its sandbox (useSandbox), references unique to each
 * test (`prefix`), Bulk Create v3 run as workflow `tag` and how often each reference was queued.
 */
export function usePayoutFile(prefix: string) {
	const sandbox = useSandbox();
	return {
		sandbox,
		tagOf: tagger(prefix),
		payout: (tag: string, items: IDataObject[], options: IDataObject = {}) =>
			bulkCreate(sandbox(), items, { options }, { workflowId: tag }),
		queued: (tag: string) => [...queuedCounts(sandbox(), tag).values()],
	};
}

/** The Payment Gateway node's output items, as JSON. */
export const outputJson = (result: RunResult) => result.outputs.Gateway.map((item) => item.json);

/** The run's error description ('undefined' when there is none). */
export const errorDescription = (result: RunResult) =>
	String((result.error as { description?: string } | undefined)?.description);
