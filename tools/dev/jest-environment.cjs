// The test environment every project shares: Node's, plus a log buffer. What the code under test logs in the test's
// own process (the in-process services' and the gateway harness's pino lines: the expected warnings of a fault test
// among them) goes to `globalThis.__digicardTestLog` instead of the terminal, and is printed only when a test or a
// hook of the file failed, after the failure, so a green run stays readable and a red one keeps its evidence.
// `TEST_LOG=1` prints every line as it comes.
const { TestEnvironment } = require('jest-environment-node');

class DigicardEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    this.testPath = context.testPath;
    this.lines = [];
    this.failed = false;
    const passThrough = process.env.TEST_LOG === '1';
    this.global.__digicardTestLog = {
      write: (line) => {
        if (passThrough) process.stdout.write(line);
        else this.lines.push(line);
      },
    };
  }

  /** Jest calls it with each test's events (not declared by NodeEnvironment). @param {{ name: string, test?: { errors: unknown[] } }} event */
  handleTestEvent(event) {
    if (
      (event.name === 'test_done' && (event.test?.errors.length ?? 0) > 0) ||
      event.name === 'hook_failure' ||
      event.name === 'test_fn_failure'
    )
      this.failed = true;
  }

  /** @override */
  async teardown() {
    if (this.failed && this.lines.length > 0) {
      process.stderr.write(
        `\n── what ${this.testPath} logged (${this.lines.length} lines; printed because a test failed) ──\n${this.lines.join('')}── end of the log ──\n`,
      );
    }
    this.lines = [];
    await super.teardown();
  }
}

module.exports = DigicardEnvironment;
