// The demo's command line (scripts/demo.js): npm start -- [--reset] [--port 5678] [--sandbox-port 5680].
'use strict';

const USAGE = 'usage: npm start -- [--reset] [--port 5678] [--sandbox-port 5680]';

/** A mistake of the person starting the demo: said, exit code 2. */
function fail(message) {
	console.error(`demo: ${message}`);
	process.exit(2);
}

function parseArgs(argv) {
	const options = { reset: false, port: 5678, sandboxPort: 5680 };
	for (let i = 0; i < argv.length; i += 1) {
		const flag = argv[i];
		if (flag === '--help' || flag === '-h') {
			console.log(USAGE);
			process.exit(0);
		} else if (flag === '--reset') options.reset = true;
		else if (flag === '--port' || flag === '--sandbox-port') {
			const value = argv[(i += 1)];
			if (!/^\d+$/.test(value ?? '')) fail(`${flag} needs a port number`);
			options[flag === '--port' ? 'port' : 'sandboxPort'] = Number(value);
		} else fail(`unknown argument ${flag}\n${USAGE}`);
	}
	return options;
}

module.exports = { USAGE, fail, parseArgs };
