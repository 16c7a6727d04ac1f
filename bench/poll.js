// One poll of the Payment Gateway Poll Trigger in its own Node process (as anchor.js runs the fetch
// loop), through n8n-core's PollContext. Prints one JSON line. Usage:
//   node bench/poll.js <baseUrl> <merchantKey> <merchantSecret>
require('./register');
require('./pollWindow.ts')
	.measurePoll(process.argv.slice(2))
	.then((result) => {
		console.log(JSON.stringify(result));
		process.exit(0);
	})
	.catch((error) => {
		console.error(error);
		process.exit(1);
	});
