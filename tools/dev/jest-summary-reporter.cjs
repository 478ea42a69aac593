// Writes each project's counts to test-results/jest/<project>.json, so that `npm test` can print one
// 'N passed, N failed' line for the whole suite (and Nx can restore the file from its cache), with each file's seconds.
const { mkdirSync, writeFileSync } = require('node:fs');
const { join, relative } = require('node:path');

/** The first lines of a failure message without colours or the stack, at most 600 characters. */
function firstLines(text) {
  const plain = text.replace(/\u001b\[[0-9;]*m/g, '');
  const lines = plain.split('\n').filter((l) => l.trim() && !/^\s+at /.test(l));
  return lines.slice(0, 6).join('\n').slice(0, 600);
}

class SummaryReporter {
  constructor(_globalConfig, options) {
    this.name = options.name;
  }

  onRunComplete(_contexts, results) {
    const dir = join(__dirname, '../../test-results/jest');
    mkdirSync(dir, { recursive: true });
    const failedFiles = results.testResults
      .filter((r) => r.numFailingTests > 0 || r.testExecError)
      .map((r) => ({
        file: r.testFilePath,
        error: r.testExecError?.message ?? null,
        // Each failed test's name and the start of its message: the summary at the end of `npm test` names them, so a
        // CI log cut to its last lines still says what failed and why.
        tests: r.testResults
          .filter((t) => t.status === 'failed')
          .map((t) => ({ name: t.fullName, message: firstLines(t.failureMessages.join('\n')) })),
      }));
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
          // Each file's seconds, for tools/dev/test-durations.mjs (the order of a clean machine's next run).
          seconds: Object.fromEntries(
            results.testResults.map((r) => [
              relative(join(__dirname, '../..'), r.testFilePath).split('\\').join('/'),
              Math.round((r.perfStats.end - r.perfStats.start) / 100) / 10,
            ]),
          ),
        },
        null,
        2,
      ),
    );
  }
}

module.exports = SummaryReporter;
