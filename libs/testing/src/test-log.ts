/**
 * Where code running inside a test's own process logs (an in-process service, the gateway harness): the test file's
 * log buffer, which the shared Jest environment (tools/dev/jest-environment.cjs) prints only when a test of the file
 * failed; the terminal outside Jest. Expected warnings of a fault test thus stay out of a green run's output.
 */
export const testLogDestination: { write(line: string): void } = {
  write(line: string): void {
    const sink = (globalThis as { __digicardTestLog?: { write(line: string): void } }).__digicardTestLog;
    if (sink) sink.write(line);
    else process.stdout.write(line);
  },
};
