// Entry point of `npm run bench` (scripts/bench.sh): node bench/index.js [--quick] [--only name,...]
require('./register');
require('./run.ts')
	.main(process.argv.slice(2))
	.then((code) => process.exit(code))
	.catch((error) => {
		console.error(error);
		process.exit(1);
	});
