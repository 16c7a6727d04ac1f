// Entry point of bench/profile.ts (see there).
require('./register');
require('./profile.ts')
	.main(process.argv.slice(2))
	.then((code) => process.exit(code))
	.catch((error) => {
		console.error(error);
		process.exit(1);
	});
