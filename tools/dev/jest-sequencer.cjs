// The order of a run's files. In a lane (one project's `unit`, `service`, `system` or `browser`): Jest's own order,
// files that failed last time first, then the slowest first, so that two workers do not end with one long file
// alone. A run of several lanes at once ranks them: unit tests first, then in-process service tests, then whole
// systems, then the browser (fast feedback before slow), except `npm test`'s pool (DIGICARD_TEST_LANE=system,browser,
// tools/dev/jest.pool.config.cjs), which takes the slowest first whatever its lane, to keep its workers busy to the end.
//
// Files on the worker's shared system (libs/testing `TestSystem.shared`) come after the files that start a system of
// their own (`TestSystem.start`), in a lane or the pool alike: a worker then goes from its own systems to its shared
// one once, instead of keeping a shared system idle beside each own one (two systems a worker, the PostgreSQL
// server's hundred connections ran out in a pool run of four workers, 2026-11-29).
//
// The slowest by what: Jest's cache of durations from this machine's last run, or, for a file it has not timed (a
// clean machine, whose cache is empty), tools/dev/test-durations.json, the seconds each file took in a measured
// `npm test` (written by `node tools/dev/test-durations.mjs`). Without either, Jest orders by file size.
const { existsSync, readFileSync } = require('node:fs');
const { join, relative } = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

const ROOT = join(__dirname, '../..');
const DURATIONS_FILE = join(__dirname, 'test-durations.json');
/** @type {Record<string, number>} seconds by path from the repository root */
const committed = existsSync(DURATIONS_FILE) ? JSON.parse(readFileSync(DURATIONS_FILE, 'utf8')).seconds : {};

/** 1 for a file on the shared system (it calls `TestSystem.shared(`), 0 for any other. */
const sharing = (path) => (existsSync(path) && readFileSync(path, 'utf8').includes('TestSystem.shared(') ? 1 : 0);
const rank = (path) => (path.includes('.browser.') ? 3 : /\.e2e\./.test(path) ? 2 : /\.integration\./.test(path) ? 1 : 0);
/** Whether this run is `npm test`'s pool (several lanes in one run). */
const pooled = () => (process.env.DIGICARD_TEST_LANE ?? '').includes(',');

/** Jest's mark of a file that failed in its last run (its cache entries are `[FAIL or SUCCESS, milliseconds]`). */
const FAIL = 0;

class LaneSequencer extends Sequencer {
  /**
   * Jest's own order (see its `sort`): failed last time first, then a file it has no time for (a new one may be
   * slow), then the slowest first, then the largest file first; the time being Jest's measure or the committed one.
   * @param {import('@jest/test-result').Test} test
   */
  known(test) {
    const [status, ms] = this._getCache(test)[test.path] ?? [];
    const seconds = committed[relative(ROOT, test.path).split('\\').join('/')];
    return { failed: status === FAIL, ms: ms ?? (seconds === undefined ? undefined : seconds * 1000) };
  }

  /** @override @param {import('@jest/test-result').Test[]} tests */
  sort(tests) {
    const info = new Map(tests.map((test) => [test, this.known(test)]));
    const size = (/** @type {import('@jest/test-result').Test} */ test) => test.context.hasteFS.getSize(test.path) ?? 0;
    const ordered = [...tests].sort((a, b) => {
      const x = /** @type {{ failed: boolean, ms: number | undefined }} */ (info.get(a));
      const y = /** @type {{ failed: boolean, ms: number | undefined }} */ (info.get(b));
      if (x.failed !== y.failed) return x.failed ? -1 : 1;
      if ((x.ms === undefined) !== (y.ms === undefined)) return x.ms === undefined ? -1 : 1;
      if (x.ms !== undefined && y.ms !== undefined && x.ms !== y.ms) return y.ms - x.ms;
      return size(b) - size(a);
    });
    const position = new Map(ordered.map((test, i) => [test, i]));
    const shares = new Map(tests.map((test) => [test, sharing(test.path)]));
    const laneRank = pooled() ? () => 0 : rank;
    return [...ordered].sort(
      (a, b) =>
        laneRank(a.path) - laneRank(b.path) ||
        (shares.get(a) ?? 0) - (shares.get(b) ?? 0) ||
        (position.get(a) ?? 0) - (position.get(b) ?? 0),
    );
  }
}

module.exports = LaneSequencer;
