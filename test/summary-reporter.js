// Prints one closing line that any CI log reader understands: "N passed, N failed[, N skipped]".
class SummaryReporter {
	onRunComplete(_contexts, results) {
		const skipped = results.numPendingTests + results.numTodoTests;
		const line = `${results.numPassedTests} passed, ${results.numFailedTests} failed`;
		process.stdout.write(`\n${skipped ? `${line}, ${skipped} skipped` : line}\n`);
	}
}
module.exports = SummaryReporter;
