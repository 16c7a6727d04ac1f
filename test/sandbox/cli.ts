// Starts the sandbox for manual use (see USAGE); compiled to dist/test/sandbox/cli.js.
import { startSandbox } from './index';
import { MERCHANT_CHANNELS } from './core/keys';

const USAGE =
	'usage: node dist/test/sandbox/cli.js [--port 5680] [--seed 1] [--count 250] [--host 127.0.0.1]\n' +
	'       [--latency 0] (ms added to every service request) [--invoice-items 0] (seeded invoice items)';

function parseArgs(argv: string[]) {
	const options = {
		port: 5680,
		seed: 1,
		count: 250,
		host: '127.0.0.1',
		latency: 0,
		'invoice-items': 0,
	};
	for (let i = 0; i < argv.length; i += 2) {
		const [flag, value] = [argv[i], argv[i + 1]];
		const name = flag.replace(/^--/, '');
		if (flag === '--help' || flag === '-h') {
			console.log(USAGE);
			process.exit(0);
		}
		if (!flag.startsWith('--') || !(name in options) || value === undefined) {
			fail(`bad argument ${flag}`);
		}
		if (name === 'host') options.host = value;
		else if (!/^\d+$/.test(value)) fail(`${flag} needs a non-negative integer, got ${value}`);
		else options[name as 'port' | 'seed' | 'count' | 'latency' | 'invoice-items'] = Number(value);
	}
	return options;
}

function fail(message: string): never {
	console.error(`${message}\n${USAGE}`);
	process.exit(2);
}

async function main(): Promise<void> {
	const args = parseArgs(process.argv.slice(2));
	const sandbox = await startSandbox({
		port: args.port,
		host: args.host,
		seed: args.seed,
		transactionCount: args.count,
		latencyMs: args.latency,
		invoiceItemCount: args['invoice-items'],
	});
	const { keys } = sandbox;
	const row = (label: string, ...pairs: [string, string][]) => {
		const cells = pairs.map(([name, value]) => `${name}: ${value}`.padEnd(36));
		return `  ${label.padEnd(14)}${cells.join(' ')}`.trimEnd();
	};
	const labels: Record<string, string> = {
		hosted: 'Hosted',
		sdk: 'SDK',
		s2s: 'S2S',
		paymentLink: 'Payment Link',
		subscription: 'Subscription',
		invoice: 'Invoice',
	};
	console.log(
		[
			'Payment service sandbox is running',
			'',
			`  Base URL      ${sandbox.baseUrl}`,
			`  Checkout URL  ${sandbox.checkoutUrl}`,
			`  Payout URL    ${sandbox.payoutUrl}`,
			`  Data          seed ${args.seed}, ${sandbox.state.transactions.length} transactions, ` +
				`${sandbox.state.invoiceItems.size} invoice items`,
			`  Latency       ${sandbox.latencyMs} ms added to every service request`,
			`  Controls      ${sandbox.baseUrl}/__sandbox/ (settings, events, orders, faults, requests)`,
			'',
			'Test keys (headers merchant-key / merchant-secret):',
			...MERCHANT_CHANNELS.map((channel) =>
				row(
					labels[channel],
					['key', keys[channel].merchantKey],
					['secret', keys[channel].merchantSecret],
				),
			),
			row('POS', ['key', keys.pos.apiKey], ['secret', keys.pos.apiSecret]),
			row('Payout', ['key', keys.payout.merchantKey], ['secret', keys.payout.merchantSecret]),
			row('Webhook', ['notification-secret', keys.webhook.notificationSecret]),
			'',
			'Press Ctrl+C to stop.',
		].join('\n'),
	);
	let stopping = false;
	const stop = (signal: string) => {
		if (stopping) return;
		stopping = true;
		console.log(`\n${signal}: stopping sandbox`);
		sandbox.stop().then(
			() => process.exit(0),
			(error: Error) => {
				console.error(error.message);
				process.exit(1);
			},
		);
	};
	process.on('SIGINT', () => stop('SIGINT'));
	process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: Error) => {
	console.error(`sandbox failed to start: ${error.message}`);
	process.exit(1);
});
