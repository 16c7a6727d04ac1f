// CPU profile of one operation in n8n-core (the test harness), answered at once by the sandbox:
//   node --cpu-prof --cpu-prof-dir=.tools/profiles bench/profile.js create|refund|getMany|returnAll|payoutRead [items] [runs]
// (returnAll: one input item, Transaction Return All over `items` seeded transactions; payoutRead:
// the bench's 500-row payout .xlsx as binary input, Validate Only, `items` ignored)
// Prints the time per item of each run; open the .cpuprofile in Chrome DevTools or speedscope.
import { runGateway } from '../test/workflows/support';
import { startSandbox } from '../test/sandbox';
import { CREATE_PAYMENT_PARAMETERS, resetRefundPool } from './payments';
import { payoutFile } from './sheets';

const MAPPED: Record<string, Record<string, unknown>> = {
	create: CREATE_PAYMENT_PARAMETERS,
	getMany: {
		resource: 'transaction',
		operation: 'getMany',
		limit: 1,
		filters: { transactionId: '={{ $json.id }}' },
	},
	returnAll: { resource: 'transaction', operation: 'getMany', returnAll: true },
	payoutRead: {
		resource: 'payout',
		operation: 'bulkCreate',
		inputMode: 'binary',
		currency: 'INR',
		remark: 'Bench',
		validateOnly: true,
	},
	refund: {
		resource: 'payment',
		operation: 'refund',
		transactionId: '={{ $json.id }}',
		amount: '={{ $json.amount }}',
		currency: '={{ $json.currency }}',
		additionalFields: { reason: '={{ $json.reason }}' },
	},
};

export async function main(argv: string[]): Promise<number> {
	const [operation = 'create', count = '1000', runs = '5'] = argv;
	const items = Number(count);
	const box = await startSandbox({ seed: 21, transactionCount: Math.max(items, 250) });
	try {
		// Built once, outside the measured runs.
		const binary =
			operation === 'payoutRead'
				? [{ property: 'data', fileName: 'payouts.xlsx', base64: (await payoutFile()).toString('base64') }]
				: undefined;
		for (let run = 0; run < Number(runs); run++) {
			resetRefundPool(box, items);
			const one = operation === 'returnAll' || operation === 'payoutRead';
			const input = Array.from({ length: one ? 1 : items }, (_, i) => {
				const record = box.state.transactions[i];
				if (operation === 'getMany') return { id: String(record.transaction_id) };
				return operation === 'create'
					? { orderId: `PROFILE-${run}-${i}`, amount: 10 + (i % 50), currency: 'AED', name: `Customer ${i}`, email: `c${i}@example.com`, description: `Order ${i}`, city: 'Dubai', country: 'AE' }
					: { id: String(record.transaction_id), currency: record.currency, amount: 1, reason: `Refund ${run}-${i}` };
			});
			const started = performance.now();
			const result = await runGateway(box, { parameters: MAPPED[operation] as never, items: input, binary });
			const ms = performance.now() - started;
			if (result.error || result.outputs.Gateway.length !== (operation === 'payoutRead' ? 1 : items)) throw new Error(`run failed: ${String(result.error)}`);
			console.log(`${operation} run ${run + 1}: ${((ms * 1000) / items).toFixed(0)} µs per item`);
		}
		return 0;
	} finally {
		await box.stop();
	}
}
