// The compatibility subset of the real-n8n suites: each feature of the table is a set of tests of
// test/e2e (file + a pattern on the test's full name). `npm run test:compat` runs these on each
// release of versions.txt; `ends: true` features (queue mode) run on the oldest and newest only.
'use strict';

const FEATURES = [
	{ key: 'load', title: 'Package loads', file: 'compat.e2e.ts', test: 'loads: n8n knows' },
	{
		key: 'credentials',
		title: 'Every credential test',
		file: 'compat.e2e.ts',
		test: 'every credential test passes',
	},
	{
		key: 'order',
		title: 'Order created and paid; Transaction Get',
		file: 'compat.e2e.ts',
		test: 'Order > Create Payment, then paid',
	},
	{
		key: 'keepAlive',
		title: 'Connections kept alive (3 pages, 1 connection)',
		file: 'compat.e2e.ts',
		test: 'keeps connections alive',
	},
	{
		key: 'trigger',
		title: 'Trigger runs each delivery once',
		file: 'trigger.e2e.ts',
		test: 'Payment Gateway Trigger in real n8n',
	},
	{
		key: 'wait',
		title: 'Wait for Payment resumes on Paid',
		file: 'wait-for-payment.e2e.ts',
		test: 'regular mode .* (paid: resumed once on Paid|resume URLs: signed)',
	},
	{
		key: 'waitRefused',
		title: 'Wait for Payment refuses to wait, saying why (where n8n resumes on one output only)',
		file: 'wait-for-payment.e2e.ts',
		test: 'regular mode .* where n8n resumes a waiting node on its first output only',
	},
	{
		key: 'resultsWait',
		title: 'Wait for Results routes each row at its check',
		file: 'payout-wait.e2e.ts',
		test: 'Wait for Results in real n8n the payroll execution waits',
	},
	{
		key: 'resultsWaitRefused',
		title: 'Wait for Results refuses to wait, saying why (where n8n resumes on one output only)',
		file: 'payout-wait.e2e.ts',
		test: 'Wait for Results in real n8n where n8n resumes a waiting node on its first output only',
	},
	{
		key: 'poll',
		title: 'Poll trigger: one execution per change, across a restart',
		file: 'poll-trigger.e2e.ts',
		test: 'Poll Trigger in real n8n',
	},
	{
		key: 'payouts',
		title: 'Payout batches and a re-run',
		file: 'payout-batches.e2e.ts',
		test: 'Payout Bulk Create in a new node|Split Into Batches in a saved version-1 node',
	},
	{ key: 'mcp', title: 'MCP tools', file: 'mcp-tools.e2e.ts', test: 'the node as MCP tools' },
	{
		key: 'queue',
		title: 'Queue mode, two webhook processes: exactly once',
		file: 'queue-mode.queue.ts',
		test: 'three processes receiving the trigger .*concurrency 1,',
		ends: true,
	},
	{
		key: 'queueOrphan',
		title: 'Queue mode: a claim left by a killed process settled from n8n\'s database',
		file: 'queue-mode.queue.ts',
		test: 'three processes receiving the trigger .*a claim its process left unsettled',
		ends: true,
	},
];

/** The jest file list and `-t` pattern for one release (`end`: the oldest or the newest). */
function jestSelection(end) {
	const chosen = FEATURES.filter((f) => end || !f.ends);
	return {
		files: [...new Set(chosen.map((f) => `test/e2e/${f.file}`))],
		pattern: chosen.map((f) => `(${f.test})`).join('|'),
	};
}

module.exports = { FEATURES, jestSelection };

if (require.main === module) {
	// `node features.js <end 0|1>`: the file list, one a line, then the pattern on the last line.
	const { files, pattern } = jestSelection(process.argv[2] === '1');
	process.stdout.write([...files, pattern].join('\n') + '\n');
}
