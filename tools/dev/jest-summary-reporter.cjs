// Writes each project's counts to test-results/jest/<project>.json, so that `npm test` can print one
// 'N passed, N failed' line for the whole suite (and Nx can restore the file from its cache).
const { mkdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

class SummaryReporter {
  constructor(_globalConfig, options) {
    this.name = options.name;
  }

  onRunComplete(_contexts, results) {
    const dir = join(__dirname, '../../test-results/jest');
    mkdirSync(dir, { recursive: true });
    const failedFiles = results.testResults
      .filter((r) => r.numFailingTests > 0 || r.testExecError)
      .map((r) => ({ file: r.testFilePath, error: r.testExecError?.message ?? null }));
    writeFileSync(
      join(dir, `${this.name}.json`),
      JSON.stringify(
        {
          project: this.name,
          passed: results.numPassedTests,
          failed: results.numFailedTests + results.numRuntimeErrorTestSuites,
          skipped: results.numPendingTests + results.numTodoTests,
          files: results.numTotalTestSuites,
          failedFiles,
        },
        null,
        2,
      ),
    );
  }
}

module.exports = SummaryReporter;
