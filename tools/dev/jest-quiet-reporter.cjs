// Jest's default reporter, except that what a test file wrote through `console` is printed only when one of its
// tests failed (or it could not run): the expected warnings of fault tests stay out of a green run's output.
// `TEST_LOG=1` prints it for every file.
const { DefaultReporter } = require('@jest/reporters');

class QuietReporter extends DefaultReporter {
  /** @override @param {string} testPath @param {import('@jest/types').Config.ProjectConfig} config @param {import('@jest/test-result').TestResult} result */
  printTestFileHeader(testPath, config, result) {
    const failed = result.numFailingTests > 0 || Boolean(result.testExecError) || Boolean(result.failureMessage);
    const keep = failed || process.env.TEST_LOG === '1';
    super.printTestFileHeader(testPath, config, keep ? result : { ...result, console: undefined });
  }
}

module.exports = QuietReporter;
