// Ends every run with one plain line, `tests: N passed, N failed[, N skipped]`, that CI tools read.
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const tail = skipped > 0 ? `, ${skipped} skipped` : '';
    process.stderr.write(
      `tests: ${results.numPassedTests} passed, ${results.numFailedTests} failed${tail}\n`,
    );
  }
}

module.exports = SummaryReporter;
