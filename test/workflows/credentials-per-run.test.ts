import type { INodeParameters } from 'n8n-workflow';

import { HarnessCredentialsHelper } from '../harness/credentials-helper';
import type { Sandbox, TransactionRecord } from '../sandbox';
import { startSandbox } from '../sandbox';
import { runGateway } from './support';

/** n8n reads and decrypts credentials from its database on every call: the node does it once a run. */
let sandbox: Sandbox;

beforeAll(async () => {
	sandbox = await startSandbox({ seed: 5, transactionCount: 40 });
});
afterAll(async () => await sandbox.stop());

const lookups = (ids: string[], parallelRequests: number) =>
	runGateway(sandbox, {
		items: ids.map((id) => ({ id })),
		parameters: {
			resource: 'transaction',
			operation: 'getMany',
			limit: 1,
			filters: { transactionId: '={{ $json.id }}' },
			requestOptions: { parallelRequests },
		} as INodeParameters,
	});

describe('credentials per run', () => {
	it.each([1, 5])(
		'decrypts the channel credentials once for 20 requests (Parallel Requests %i)',
		async (parallel) => {
			const ids = (sandbox.state.transactions as TransactionRecord[])
				.slice(0, 20)
				.map((r) => r.transaction_id);
			const decrypt = jest.spyOn(HarnessCredentialsHelper.prototype, 'getDecrypted');
			try {
				sandbox.clearRequests();
				const result = await lookups(ids, parallel);
				expect(result.error).toBeUndefined();
				expect(result.outputs.Gateway.map((item) => item.json.transaction_id)).toEqual(ids);
				// Every request still carried the key pair (the sandbox answers 401 without it).
				expect(sandbox.requests).toHaveLength(20);
				expect(decrypt).toHaveBeenCalledTimes(1);
			} finally {
				decrypt.mockRestore();
			}
		},
	);
});
