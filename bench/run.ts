// `npm run bench`: each figure of the performance table against its anchor, alternated over rounds.
import { startSandbox, type Sandbox } from '../test/sandbox';
import type { WorkflowJson } from '../test/e2e/n8n';
import { figures, type Sandboxes, type Sizes } from './figures';
import { BenchN8n } from './n8n';
import { table } from './stats';
import { credentialsFor } from './workflows';
import { startNetworkPath } from './network';
import { RESULTS_FULL, RESULTS_QUICK } from './payoutResults';

const FULL: Sizes = { rounds: 5, items: 1000, latencyItems: 200, transactions: 100_000, invoiceItems: 10_000, httpsTransactions: 10_000, pollTransactions: 10_000, triggerOne: 40, triggerBurst: 300, ledgerRows: 5000, ledgerReferences: 100_000, ledgerWarmRuns: 2 };
// CI runs it once (a few minutes): small enough to be quick, every figure still runs end to end.
const QUICK: Sizes = { rounds: 1, items: 100, latencyItems: 40, transactions: 2_000, invoiceItems: 1_000, httpsTransactions: 1_000, pollTransactions: 1_000, triggerOne: 5, triggerBurst: 30, ledgerRows: 500, ledgerReferences: 10_000, ledgerWarmRuns: 1 };

function parse(argv: string[]): { sizes: Sizes; only?: Set<string> } {
	const sizes = { ...(argv.includes('--quick') ? QUICK : FULL) };
	sizes.results = argv.includes('--quick') ? RESULTS_QUICK : RESULTS_FULL;
	const at = argv.indexOf('--rounds');
	if (at >= 0) sizes.rounds = Number(argv[at + 1]);
	const only = argv.indexOf('--only');
	return { sizes, only: only >= 0 ? new Set(argv[only + 1].split(',')) : undefined };
}

export async function main(argv: string[]): Promise<number> {
	const { sizes, only } = parse(argv);
	const started = Date.now();
	const log = (message: string) => console.error(`[bench ${((Date.now() - started) / 1000).toFixed(0)} s] ${message}`);
	const remote = await startSandbox({ seed: 14, transactionCount: sizes.httpsTransactions });
	// Before n8n starts: the path sets NODE_EXTRA_CA_CERTS for every process started after it.
	const path = await startNetworkPath(remote);
	const boxes: Sandboxes = {
		zero: await startSandbox({ seed: 11, transactionCount: Math.max(sizes.items, 250) }),
		slow: await startSandbox({ seed: 12, latencyMs: 20 }),
		big: await startSandbox({ seed: 13, transactionCount: sizes.transactions, invoiceItemCount: sizes.invoiceItems }),
		tls: path.box,
		poll: await startSandbox({ seed: 15, transactionCount: sizes.pollTransactions }),
	};
	const chosen = figures(boxes, sizes).filter((figure) => !only || only.has(figure.key));
	let n8n: BenchN8n | undefined;
	try {
		const workflows: WorkflowJson[] = (await Promise.all(chosen.map((figure) => figure.workflows()))).flat();
		const credentials = (Object.entries(boxes) as [string, Sandbox][]).flatMap(([name, box]) => credentialsFor(name, box));
		log(`importing ${workflows.length} workflows into a fresh n8n user folder`);
		n8n = await BenchN8n.create(credentials, workflows);
		// A figure that fails is reported and left out; the others go on.
		const failed = new Map<string, string>();
		for (let round = 0; round < sizes.rounds; round++) {
			for (const figure of chosen.filter((f) => !failed.has(f.key))) {
				log(`round ${round + 1}/${sizes.rounds}: ${figure.key}`);
				await figure.round(n8n, round).catch((error: Error) => {
					failed.set(figure.key, error.message.slice(0, 500));
					log(`${figure.key} failed: ${error.message.slice(0, 2000)}`);
				});
			}
		}
		console.log(`\nPerformance, ${sizes.rounds} rounds, ${new Date().toISOString()} (${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
		console.log(table(chosen.filter((f) => !failed.has(f.key)).flatMap((figure) => figure.rows())));
		for (const [key, message] of failed) console.log(`\n${key} failed: ${message}`);
		return failed.size ? 1 : 0;
	} finally {
		for (const figure of chosen) await figure.dispose?.().catch((error: Error) => log(`${figure.key}: ${error.message}`));
		await n8n?.dispose();
		for (const box of [boxes.zero, boxes.slow, boxes.big, boxes.poll, remote]) await box.stop();
		await path.stop();
	}
}
