// Unit tests first, then in-process service tests, then whole-system tests, then the browser: fast feedback before
// slow when a project's lanes run together (a Jest run without DIGICARD_TEST_LANE). Within a lane, Jest's own order:
// files that failed last time first, then the slowest first (from Jest's cache of durations), so that two workers
// do not end with one long file alone.
const Sequencer = require('@jest/test-sequencer').default;

const rank = (path) => (path.includes('.browser.') ? 3 : /\.e2e\./.test(path) ? 2 : /\.integration\./.test(path) ? 1 : 0);

class LaneSequencer extends Sequencer {
  /** @override @param {import('@jest/test-result').Test[]} tests */
  sort(tests) {
    // Jest's own sort is synchronous (it reads its cache of durations from memory).
    const ordered = /** @type {import('@jest/test-result').Test[]} */ (super.sort(tests));
    const position = new Map(ordered.map((test, i) => [test, i]));
    return [...ordered].sort((a, b) => rank(a.path) - rank(b.path) || position.get(a) - position.get(b));
  }
}

module.exports = LaneSequencer;
